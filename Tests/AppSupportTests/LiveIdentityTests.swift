import XCTest
import Foundation
import ClusterCore
import GeoData
@testable import AppSupport

/// Live identity: an id that comes back moves its place (issue 33 item 3), and a big watched file
/// keeps its places through an append whatever way it was read (issue 34 item 3).
final class LiveIdentityTests: XCTestCase {
    static func line(_ id: Int, _ lat: Double, _ lon: Double, name: String, padding: String = "") -> String {
        "{\"type\":\"Feature\",\"properties\":{\"vehicle\":\"v\(id)\",\"name\":\"\(name)\"\(padding)},"
            + "\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}"
    }

    func load(_ text: String, _ name: String = "stream.geojsonl") throws -> PointSet {
        try PointSetLoader.load(text: text, name: name)
    }

    /// Applies an update the way the app does; returns the new session.
    func update(_ session: MapDataSession, to set: PointSet, idProperty: String?) throws -> (MapDataSession, MapDataSession.Change) {
        let plan = try XCTUnwrap(session.planUpdate(to: set, dataset: nil, idProperty: idProperty))
        return (plan.applied().session, plan.change)
    }

    func testAnAppendedKnownIdMovesItsPlaceInNDJSON() throws {
        let v0 = [Self.line(1, 40.40, -3.70, name: "Bus 1"), Self.line(2, 40.50, -3.60, name: "Bus 2")].joined(separator: "\n") + "\n"
        let session = MapDataSession(pointSets: [try load(v0)])
        XCTAssertNil(session.captureIdentity(idProperty: "vehicle"), "nothing superseded yet")
        // Bus 1 reports a new position, renamed on the way.
        let v1 = v0 + Self.line(1, 41.00, -3.00, name: "Bus 1 (late)") + "\n"
        let (moved, change) = try update(session, to: try load(v1), idProperty: "vehicle")
        XCTAssertEqual(change, MapDataSession.Change(added: 0, removed: 0, moved: 1))
        XCTAssertEqual(moved.clusterer.count, 2, "still two places, not three")
        XCTAssertEqual(moved.clusterer.coordinate(of: 0), GeoCoordinate(latitude: 41.00, longitude: -3.00))
        XCTAssertEqual(moved.places.name(of: 0), "Bus 1 (late)", "the place shows its latest line")
        XCTAssertEqual(moved.places.name(of: 1), "Bus 2")
        // Again: the latest line wins each time; a new id is a new place.
        let v2 = v1 + Self.line(1, 42.00, -2.00, name: "Bus 1") + "\n" + Self.line(3, 39.0, -4.0, name: "Bus 3") + "\n"
        let (again, change2) = try update(moved, to: try load(v2), idProperty: "vehicle")
        XCTAssertEqual(change2, MapDataSession.Change(added: 1, removed: 0, moved: 1))
        XCTAssertEqual(again.clusterer.coordinate(of: 0), GeoCoordinate(latitude: 42.00, longitude: -2.00))
        XCTAssertEqual(again.clusterer.count, 3)
        // Without --id the lines are places by their position: the same append adds one.
        let (positional, change3) = try update(MapDataSession(pointSets: [try load(v0)]), to: try load(v1), idProperty: nil)
        XCTAssertEqual(change3, MapDataSession.Change(added: 1, removed: 0, moved: 0))
        XCTAssertEqual(positional.clusterer.count, 3)
    }

    func testAnAppendedKnownIdMovesItsPlaceInCSVAndALineWithoutCoordinatesKeepsIt() throws {
        let v0 = "ship,lat,lon,name\nA,10,20,Alpha\nB,11,21,Beta\n"
        let session = MapDataSession(pointSets: [try load(v0, "ships.csv")])
        let v1 = v0 + "A,10.5,20.5,Alpha\nB,,,Beta\n"
        let (moved, change) = try update(session, to: try load(v1, "ships.csv"), idProperty: "ship")
        XCTAssertEqual(change, MapDataSession.Change(added: 0, removed: 0, moved: 1))
        XCTAssertEqual(moved.clusterer.coordinate(of: 0), GeoCoordinate(latitude: 10.5, longitude: 20.5))
        XCTAssertEqual(moved.clusterer.coordinate(of: 1), GeoCoordinate(latitude: 11, longitude: 21),
                       "a known id without coordinates leaves its place where it was")
    }

    func testPlacesSupersededWhenWatchingStartsAreRemoved() throws {
        // A stream file already holding two positions of one vehicle when it is opened.
        let text = [Self.line(1, 40.4, -3.7, name: "old"), Self.line(2, 40.5, -3.6, name: "Bus 2"),
                    Self.line(1, 40.6, -3.5, name: "new")].joined(separator: "\n") + "\n"
        let session = MapDataSession(pointSets: [try load(text)])
        XCTAssertEqual(session.clusterer.count, 3)
        let plan = try XCTUnwrap(session.captureIdentity(idProperty: "vehicle"))
        XCTAssertEqual(plan.change, MapDataSession.Change(removed: 1))
        let shown = plan.applied().session
        XCTAssertEqual(shown.clusterer.count, 2)
        XCTAssertFalse(shown.clusterer.contains(0))
        XCTAssertEqual(shown.clusterer.coordinate(of: 2), GeoCoordinate(latitude: 40.6, longitude: -3.5))
    }

    /// Issue 34 item 3: a watched file of 16 MiB or more is mapped when it is opened; its first
    /// append used to report every place as removed and added again (the old keys were read from
    /// a mapping whose file had changed). Keys captured at watch start keep every place.
    func testABigMappedWatchedFileKeepsItsPlacesThroughAnAppend() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("live-identity-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("big.geojsonl").path
        let padding = ",\"note\":\"" + String(repeating: "x", count: 40) + "\""
        var text = ""
        let n = 120_000
        text.reserveCapacity(n * 180)
        var random = SeededRandom(seed: 7)
        for i in 0..<n {
            text += "{\"type\":\"Feature\",\"id\":\(i),\"properties\":{\"name\":\"P\(i)\"\(padding)},\"geometry\":{\"type\":\"Point\","
            text += "\"coordinates\":[\(random.uniform(-180, 180)),\(random.uniform(-80, 80))]}}\n"
        }
        try text.write(toFile: path, atomically: false, encoding: .utf8)
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        XCTAssertGreaterThanOrEqual(size, 16 << 20, "big enough to be mapped")

        let session = MapDataSession(pointSets: [try PointSetLoader.load(path: path)])
        XCTAssertEqual(session.clusterer.count, n)
        XCTAssertNil(session.captureIdentity(idProperty: nil), "watching starts: keys read, none superseded")

        let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        var appended = ""
        for i in n..<(n + 50) {
            appended += "{\"type\":\"Feature\",\"id\":\(i),\"properties\":{\"name\":\"P\(i)\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,\(i % 80)]}}\n"
        }
        appended += "{\"type\":\"Feature\",\"id\":5,\"properties\":{\"name\":\"P5\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,2]}}\n"
        handle.write(Data(appended.utf8))
        handle.closeFile()
        XCTAssertFalse(session.sources[0].points.isSourceUnchanged, "the old mapping can no longer be read")

        let reread = try LiveFileReader.load(path: path, options: LoadOptions())
        let (updated, change) = try update(session, to: reread.set, idProperty: nil)
        XCTAssertEqual(change, MapDataSession.Change(added: 50, removed: 0, moved: 1))
        XCTAssertEqual(updated.clusterer.count, n + 50)
        XCTAssertEqual(updated.clusterer.coordinate(of: 5), GeoCoordinate(latitude: 2, longitude: 2), "id 5 came back: it moved")
        // The next append compares with the keys the update handed over (read from a copy).
        let handle2 = try XCTUnwrap(FileHandle(forWritingAtPath: path))
        handle2.seekToEndOfFile()
        handle2.write(Data("{\"type\":\"Feature\",\"id\":\"new\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[3,3]}}\n".utf8))
        handle2.closeFile()
        let (_, change2) = try update(updated, to: try LiveFileReader.load(path: path, options: LoadOptions()).set, idProperty: nil)
        XCTAssertEqual(change2, MapDataSession.Change(added: 1, removed: 0, moved: 0))
    }
}
