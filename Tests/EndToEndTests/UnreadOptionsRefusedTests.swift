import XCTest
import Foundation

/// `tiles FILE` reads `--where/--since/--until/--by/--total KIND:PROPERTY` as `clusters` does (the
/// tiles hold only the passing places, clusters never mix `--by` values, totals under `clusters`'
/// names); what a table can't do (`--by`) is refused with status 2 before connecting, never ignored.
final class UnreadOptionsRefusedTests: XCTestCase {
    /// 400 places, seeded: lat, lon, mag 5.0–8.9, kind a/b/c, when 2005–2016, deaths 0–99.
    private struct Row { var lat, lon, mag: Double; var kind: String; var year: Int; var deaths: Int }

    private func csv() throws -> (path: String, rows: [Row]) {
        var state: UInt64 = 0x5EED
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(n))
        }
        let rows = (0..<400).map { _ in
            Row(lat: Double(next(1400)) / 10 - 70, lon: Double(next(3400)) / 10 - 170, mag: 5 + Double(next(40)) / 10,
                kind: ["a", "b", "c"][next(3)], year: 2005 + next(12), deaths: next(100))
        }
        var text = "lat,lon,mag,kind,when,deaths\n"
        for r in rows { text += "\(r.lat),\(r.lon),\(r.mag),\(r.kind),\(r.year)-06-15,\(r.deaths)\n" }
        let path = NSTemporaryDirectory() + "unread-options-\(UInt32.random(in: 0...UInt32.max)).csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(atPath: path) }
        return (path, rows)
    }

    private func output() -> String {
        let output = NSTemporaryDirectory() + "unread-options-\(UInt32.random(in: 0...UInt32.max)).pmtiles"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: output) }
        return output
    }

    func testTilesOfAFileHoldOnlyThePassingPlacesWithTheirTotalsAndGroups() throws {
        let (input, rows) = try csv()
        let out = output()
        let r = try ProgramRun.clustermap(["tiles", input, "--output", out, "--max-zoom", "3", "--where", "mag >= 6.5",
                                           "--since", "2011-01-01", "--by", "kind", "--total", "sum:deaths"])
        XCTAssertEqual(r.status, 0, r.err)
        let passing = rows.filter { $0.mag >= 6.5 && $0.year >= 2011 }
        XCTAssertGreaterThan(passing.count, 20)
        XCTAssertLessThan(passing.count, rows.count / 2)
        XCTAssertTrue(r.err.contains("\(passing.count) of 400 places pass"), r.err)
        XCTAssertTrue(r.err.contains(", \(passing.count) points"), r.err)
        // Read back with PyPI's readers: at every zoom the places add up to the brute-force answer,
        // deaths too, and every cluster names one kind whose places are all of that kind in count.
        let features = try TileDecode.features(out)
        XCTAssertFalse(features.isEmpty)
        for z in 0...4 {
            let at = features.filter { $0["zoom"] as? Int == z }.compactMap { $0["properties"] as? [String: Any] }
            XCTAssertEqual(at.reduce(0) { $0 + ($1["point_count"] as? Int ?? 1) }, passing.count, "zoom \(z)")
            // A cluster carries deaths_sum, a lone place its own deaths (JSON numbers read as Double).
            let deaths = at.reduce(0.0) { $0 + (($1["deaths_sum"] ?? $1["deaths"]) as? Double ?? .nan) }
            XCTAssertEqual(deaths, Double(passing.reduce(0) { $0 + $1.deaths }), "zoom \(z)")
            for kind in ["a", "b", "c"] {
                XCTAssertEqual(at.filter { $0["kind"] as? String == kind }.reduce(0) { $0 + ($1["point_count"] as? Int ?? 1) },
                               passing.filter { $0.kind == kind }.count, "zoom \(z) kind \(kind)")
            }
            for c in at where c["cluster"] as? Bool == true {
                XCTAssertEqual(c["sum_deaths"] as? Double, c["deaths_sum"] as? Double, "sum_deaths is clusters' name for deaths_sum")
                XCTAssertNotNil(c["kind"] as? String, "a cluster names its one kind")
            }
        }
        let fields = try TileDecode.fields(out)
        XCTAssertEqual(fields["kind"], "String")
        XCTAssertEqual(fields["sum_deaths"], "Number")
        XCTAssertEqual(fields["deaths_sum"], "Number")
        XCTAssertEqual(fields["sum_deaths_abbreviated"], "String")
    }

    func testTilesRefuseAWrongTotalAndWriteNothing() throws {
        let (input, _) = try csv()
        let out = output()
        for (args, message) in [(["--total", "avg:deaths"], "expected KIND:PROPERTY"), (["--total", "sum:kind"], "'kind' holds categories"),
                                (["--where", "magg >= 6"], "no property 'magg'")] {
            let r = try ProgramRun.clustermap(["tiles", input, "--output", out, "--max-zoom", "2"] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: out), "\(args): a tile file was written")
        }
    }

    func testATableRefusesGroupingBeforeConnecting() throws {
        // Port 1: nothing listens, so only a refusal made while parsing gives status 2.
        let address = "postgresql://nobody@127.0.0.1:1/none?table=t"
        for command in [["clusters", address, "--zoom", "1"], ["tiles", address, "--output", output()]] {
            let r = try ProgramRun.clustermap(command + ["--by", "kind"])
            XCTAssertEqual(r.status, 2, "\(command[0]): \(r.err)")
            XCTAssertTrue(r.err.contains("--by 'kind' is not read for a database table"), "\(command[0]): \(r.err)")
            XCTAssertTrue(r.out.isEmpty)
        }
        // A time window is applied on a table now: no refusal, the connection is what fails (status 1).
        let r = try ProgramRun.clustermap(["clusters", address, "--zoom", "1", "--since", "2011-01-01"])
        XCTAssertEqual(r.status, 1, r.err)
    }
}
