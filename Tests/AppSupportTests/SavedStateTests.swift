import XCTest
import Foundation
@testable import AppSupport

final class SavedStateTests: XCTestCase {
    func testRoundTrip() {
        let s = SavedState(width: 1024, height: 700, maximized: true, latitude: 38.72, longitude: -9.14, zoom: 12.5,
                           darkStyle: true, reduceMotion: false)
        XCTAssertEqual(SavedState.parse(s.serialized), s)
        XCTAssertEqual(SavedState.parse(SavedState().serialized), SavedState())
    }

    func testBadValuesAndUnknownKeysAreIgnored() {
        let s = SavedState.parse("""
        # comment
        width=abc
        height=700
        latitude=95
        longitude=3
        zoom=7
        colour=blue
        maximized=perhaps
        garbage line
        dark-style = yes
        """)
        XCTAssertNil(s.width, "a size only counts when complete")
        XCTAssertNil(s.height)
        XCTAssertNil(s.center, "latitude out of range drops the whole camera")
        XCTAssertNil(s.zoom)
        XCTAssertFalse(s.maximized)
        XCTAssertEqual(s.darkStyle, true)
        XCTAssertNil(s.reduceMotion)
        XCTAssertEqual(SavedState.parse("zoom=nan\nlatitude=1\nlongitude=2").zoom, nil)
        XCTAssertEqual(SavedState.parse("width=10\nheight=10").width, nil, "below the --size minimum")
        XCTAssertEqual(SavedState.parse("width=900\r\nheight=600\r\n").height, 600, "CRLF")
    }

    func testCommandLineWins() throws {
        let saved = SavedState(width: 900, height: 600, maximized: true, latitude: 10, longitude: 20, zoom: 5)
        let plain = saved.startup(for: try LaunchOptions.parse([]))
        XCTAssertEqual(plain, .init(width: 900, height: 600, maximized: true,
                                    center: GeoCoordinateFixture.make(10, 20), zoom: 5))
        let sized = saved.startup(for: try LaunchOptions.parse(["--size", "640x480"]))
        XCTAssertEqual(sized.width, 640)
        XCTAssertEqual(sized.height, 480)
        XCTAssertFalse(sized.maximized)
        XCTAssertEqual(sized.zoom, 5)
        let centred = saved.startup(for: try LaunchOptions.parse(["--zoom", "3"]))
        XCTAssertNil(centred.center, "the command line's camera wins (the controller applies it)")
        XCTAssertNil(centred.zoom)
        XCTAssertEqual(centred.width, 900)
        let files = saved.startup(for: try LaunchOptions.parse(["a.csv"]))
        XCTAssertNil(files.center, "files open fitted to their data")
        let nothing = SavedState().startup(for: try LaunchOptions.parse([]))
        XCTAssertEqual(nothing, .init(width: 1280, height: 800, maximized: false, center: nil, zoom: nil))
    }

    func testPathFollowsXDG() {
        XCTAssertEqual(SavedStateFile.path(environment: ["XDG_CONFIG_HOME": "/x/cfg", "HOME": "/home/a"]), "/x/cfg/clustermap/state")
        XCTAssertEqual(SavedStateFile.path(environment: ["HOME": "/home/a"]), "/home/a/.config/clustermap/state")
        XCTAssertEqual(SavedStateFile.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"]),
                       "/home/a/.config/clustermap/state", "relative XDG paths are invalid per the spec")
    }

    func testSaveAndLoadFile() throws {
        let dir = NSTemporaryDirectory() + "savedstate-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/clustermap/state"
        XCTAssertNil(SavedStateFile.load(from: path), "no file yet")
        let s = SavedState(width: 800, height: 600, latitude: 1, longitude: 2, zoom: 3)
        try SavedStateFile.save(s, to: path)
        XCTAssertEqual(SavedStateFile.load(from: path), s)
        try SavedStateFile.save(SavedState(width: 801, height: 601), to: path)
        XCTAssertEqual(SavedStateFile.load(from: path)?.width, 801, "overwrites")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir + "/clustermap"), ["state"], "no temp files left")
        // A MapTiler key is kept, in a file only its owner can read.
        var keyed = SavedState(width: 800, height: 600)
        keyed.mapTilerKey = "AbCdEf123456_-xyz"
        keyed.basemap = MapTilerSource.template(key: "AbCdEf123456_-xyz")
        try SavedStateFile.save(keyed, to: path)
        XCTAssertEqual(SavedStateFile.load(from: path)?.mapTilerKey, "AbCdEf123456_-xyz")
        XCTAssertEqual(SavedStateFile.load(from: path)?.basemap, keyed.basemap)
        let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
        XCTAssertEqual(mode, 0o600, "owner-only")
        // Unreadable (not UTF-8) → nil, silently.
        try Data([0xFF, 0xFE, 0x00, 0xC3]).write(to: URL(fileURLWithPath: path))
        XCTAssertNil(SavedStateFile.load(from: path))
    }
}

import ClusterCore
enum GeoCoordinateFixture {
    static func make(_ lat: Double, _ lon: Double) -> GeoCoordinate { GeoCoordinate(latitude: lat, longitude: lon) }
}

/// A failed save says in one plain line what could not be saved where (issue 15 item 8).
final class SavedStateSaveErrorTests: XCTestCase {
    func testSaveIntoAFileInsteadOfAFolderSaysWhereAndWhy() throws {
        let dir = NSTemporaryDirectory() + "savedstate-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: dir + "/clustermap", contents: Data("x".utf8))
        XCTAssertThrowsError(try SavedStateFile.save(SavedState(width: 800, height: 600), to: dir + "/clustermap/state")) { error in
            let text = "\(error)"
            XCTAssertEqual(text, "cannot save the window state to \(dir)/clustermap: Not a directory")
            XCTAssertFalse(text.contains("NSCocoaErrorDomain"), text)
        }
    }

    func testSaveIntoAReadOnlyFolderSaysPermissionDenied() throws {
        guard getuid() != 0 else { throw XCTSkip("root can write anywhere") }
        let dir = NSTemporaryDirectory() + "savedstate-\(UUID().uuidString)"
        defer { chmod(dir, 0o755); try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        chmod(dir, 0o555)
        XCTAssertThrowsError(try SavedStateFile.save(SavedState(width: 800, height: 600), to: dir + "/state")) { error in
            XCTAssertEqual("\(error)", "cannot save the window state to \(dir)/state: Permission denied")
        }
    }
}
