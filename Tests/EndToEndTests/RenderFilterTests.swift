import XCTest
import Foundation

/// `clustermap render` with the filter options (issue 29 item 6): the picture of a filtered file
/// is the picture of a file holding only the places that pass; a question the data can't answer
/// is one line on stderr and exit status 2.
final class RenderFilterTests: XCTestCase {
    func testAFilteredRenderIsTheRenderOfOnlyThePassingPlaces() throws {
        let dir = NSTemporaryDirectory() + "render-filter-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var s: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Double { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return Double(s % 1_000_000) / 1_000_000 }
        // Named places (a pin's name must not depend on its row number), in three hot spots.
        let spots = [(48.0, 2.0), (-33.0, 151.0), (40.0, -100.0)]
        let rows: [(line: String, mag: Double)] = (0..<900).map { i in
            let c = spots[i % 3]
            let mag = (next() * 90).rounded() / 10
            let spread = i % 5 == 0 ? 12.0 : 1.5
            return ("\(c.0 + (next() - 0.5) * spread),\(c.1 + (next() - 0.5) * spread),\(mag),site \(i)", mag)
        }
        let header = "lat,lon,mag,name\n"
        try (header + rows.map(\.line).joined(separator: "\n") + "\n").write(toFile: dir + "/all.csv", atomically: true, encoding: .utf8)
        try (header + rows.filter { $0.mag >= 6 }.map(\.line).joined(separator: "\n") + "\n")
            .write(toFile: dir + "/passing.csv", atomically: true, encoding: .utf8)
        let view = ["--center", "10,20", "--zoom", "1.6", "--size", "900x500"]
        let filtered = try ProgramRun.clustermap(["render", dir + "/all.csv", "--where", "mag >= 6", "--output", dir + "/f.png"] + view)
        XCTAssertEqual(filtered.status, 0, filtered.err)
        let only = try ProgramRun.clustermap(["render", dir + "/passing.csv", "--output", dir + "/p.png"] + view)
        XCTAssertEqual(only.status, 0, only.err)
        let all = try ProgramRun.clustermap(["render", dir + "/all.csv", "--output", dir + "/a.png"] + view)
        XCTAssertEqual(all.status, 0, all.err)
        let f = try Data(contentsOf: URL(fileURLWithPath: dir + "/f.png"))
        XCTAssertEqual(f, try Data(contentsOf: URL(fileURLWithPath: dir + "/p.png")), "filtered = only the passing places")
        XCTAssertNotEqual(f, try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png")), "the filter changed the picture")

        let bad = try ProgramRun.clustermap(["render", dir + "/all.csv", "--where", "depth > 1", "--output", dir + "/x.png"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertEqual(bad.err.split(separator: "\n").count, 1, bad.err)
        XCTAssertTrue(bad.err.contains("--where 'depth > 1': column 1: no property 'depth'"), bad.err)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/x.png"))
    }
}
