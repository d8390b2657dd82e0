import Foundation
import XCTest

/// `clusters`, `tiles` and `render` on a table take the window's options on the same engine (issue 29
/// item 6, issue 31 items 5–6), against the class's throw-away server: `--where`, `--since/--until`
/// (the table's date column, a day through its end) and `--total KIND:COLUMN` give what psql gives
/// for the same rows; `render` draws the table's view, says a total in its legend and fails with a
/// message (status 1) when the server is gone.
extension PostGISWindowTests {
    /// 600 rows over the world, a `happened` date 2010–2015, `mag` 0–5.9, `deaths` 0–96 (some NULL).
    static func makeDated() throws {
        try psql("""
            DROP TABLE IF EXISTS dated;
            CREATE TABLE dated (id bigserial PRIMARY KEY, geom geometry(Point, 4326), happened date, mag float8, deaths integer);
            INSERT INTO dated (geom, happened, mag, deaths)
              SELECT ST_SetSRID(ST_MakePoint(-170 + (g * 7919 % 3400) / 10.0, -60 + (g * 104729 % 1300) / 10.0), 4326),
                     DATE '2010-01-01' + (g * 37 % 2190), (g % 60) / 10.0, CASE WHEN g % 11 = 0 THEN NULL ELSE g * 13 % 97 END
              FROM generate_series(1, 600) g;
            CREATE INDEX ON dated USING gist (geom);
            ANALYZE dated;
            """)
    }

    private func datedAddress() throws -> String {
        if let e = Self.setupError { XCTFail("test server: \(e)"); throw XCTSkip("no server") }
        try Self.makeDated()
        // Gone after the test: other tests list the server's tables (Find Tables).
        addTeardownBlock { try? Self.psql("DROP TABLE IF EXISTS dated") }
        return "postgresql://postgres@127.0.0.1:\(Self.port)/test?table=public.dated"
    }

    private static func features(_ out: String) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any]
        return (json?["features"] as? [[String: Any]] ?? []).compactMap { $0["properties"] as? [String: Any] }
    }

    func testClustersAndTilesOfATableApplyTheTimeWindowAndTotalAsPsqlDoes() throws {
        let table = try datedAddress()
        let rows = "FROM dated WHERE mag >= 3 AND happened >= '2012-01-01' AND happened < '2014-01-01'"
        let n = try Self.psqlInt("SELECT count(*) \(rows)"), deaths = try Self.psqlInt("SELECT sum(deaths) \(rows)")
        XCTAssertGreaterThan(n, 50)
        XCTAssertLessThan(n, 300, "the window cuts rows")
        let options = ["--where", "mag >= 3", "--since", "2012-01-01", "--until", "2013-12-31", "--total", "sum:deaths"]
        let r = try ProgramRun.clustermap(["clusters", table, "--zoom", "1"] + options)
        XCTAssertEqual(r.status, 0, r.err)
        let items = try Self.features(r.out)
        XCTAssertEqual(items.reduce(0) { $0 + ($1["point_count"] as? Int ?? 1) }, n)
        XCTAssertEqual(items.reduce(0.0) { $0 + ($1["deaths_sum"] as? Double ?? 0) }, Double(deaths))
        let clusters = items.filter { $0["cluster"] as? Bool == true }
        XCTAssertFalse(clusters.isEmpty)
        for c in clusters { XCTAssertEqual(c["sum_deaths"] as? Double, c["deaths_sum"] as? Double, "\(c)") }

        let tiles = NSTemporaryDirectory() + "dated-\(UInt32.random(in: 0...UInt32.max)).pmtiles"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: tiles) }
        let t = try ProgramRun.clustermap(["tiles", table, "--output", tiles, "--max-zoom", "2"] + options)
        XCTAssertEqual(t.status, 0, t.err)
        XCTAssertTrue(t.err.contains(", \(n) points"), t.err)
        let z0 = try TileDecode.features(tiles).filter { $0["zoom"] as? Int == 0 }.compactMap { $0["properties"] as? [String: Any] }
        XCTAssertEqual(z0.reduce(0) { $0 + ($1["point_count"] as? Int ?? 1) }, n)
        XCTAssertEqual(try TileDecode.fields(tiles)["sum_deaths"], "Number")

        // What the table can't answer is refused naming it (status 2), never ignored.
        for (args, message) in [(["--total", "most-common:geom"], "--total most-common:geom"), (["--since", "2012-13-45"], "--since"),
                                (["--time", "mag", "--since", "2012-01-01"], "--time 'mag'")] {
            let bad = try ProgramRun.clustermap(["clusters", table, "--zoom", "1"] + args)
            XCTAssertEqual(bad.status, 2, "\(args): \(bad.err)")
            XCTAssertTrue(bad.err.contains(message), "\(args): \(bad.err)")
        }
    }

    /// `--total most-common:kind` on a table: each pile's cluster carries `most_common_kind` = SQL's
    /// `mode() WITHIN GROUP (ORDER BY kind COLLATE "C")` of its rows (two piles tie three ways and
    /// two ways) on the fetched path and on the server's cells, in `clusters` and `tiles`; `render` draws it.
    func testClustersTilesAndRenderOfATableTotalTheMostCommonValueAsSQLsMode() throws {
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.makePiles()
        addTeardownBlock { try? Self.psql("DROP TABLE IF EXISTS piles") }
        let table = "postgresql://postgres@127.0.0.1:\(Self.port)/test?table=public.piles"
        var expected: [Int: String] = [:]  // pile's rows → SQL's mode
        for p in 0..<4 {
            let digit = try Self.psqlInt("SELECT ascii(right((SELECT mode() WITHIN GROUP (ORDER BY kind COLLATE \"C\") FROM piles WHERE pile = \(p)), 1)) - 48")
            expected[try Self.psqlInt("SELECT count(*) FROM piles WHERE pile = \(p)")] = "k\(digit)"
        }
        XCTAssertGreaterThan(Set(expected.values).count, 1, "the piles' modes differ: \(expected)")
        for (how, args) in [("points fetched", [String]()), ("cells counted by the server", ["--fetch-limit", "10"])] {
            let r = try ProgramRun.clustermap(["clusters", table, "--zoom", "4", "--total", "most-common:kind"] + args)
            XCTAssertEqual(r.status, 0, r.err)
            XCTAssertTrue(r.err.contains(how), r.err)
            let clusters = try Self.features(r.out).filter { $0["cluster"] as? Bool == true }
            XCTAssertEqual(clusters.count, 4, "one cluster per pile: \(r.out)")
            for c in clusters {
                let n = try XCTUnwrap(c["point_count"] as? Int)
                XCTAssertEqual(c["most_common_kind"] as? String, expected[n], "\(how): \(c)")
            }
        }

        let tiles = NSTemporaryDirectory() + "piles-\(UInt32.random(in: 0...UInt32.max)).pmtiles"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: tiles) }
        let t = try ProgramRun.clustermap(["tiles", table, "--output", tiles, "--max-zoom", "4", "--total", "most-common:kind"])
        XCTAssertEqual(t.status, 0, t.err)
        XCTAssertEqual(try TileDecode.fields(tiles)["most_common_kind"], "String")
        let z4 = try TileDecode.features(tiles).filter { $0["zoom"] as? Int == 4 }.compactMap { $0["properties"] as? [String: Any] }
        let piles = z4.filter { ($0["point_count"] as? Int ?? 1) > 1 }
        XCTAssertEqual(piles.count, 4, "\(z4)")
        for c in piles { XCTAssertEqual(c["most_common_kind"] as? String, expected[c["point_count"] as? Int ?? 0], "tiles: \(c)") }

        let png = NSTemporaryDirectory() + "piles-\(UInt32.random(in: 0...UInt32.max)).png"
        addTeardownBlock { try? FileManager.default.removeItem(atPath: png) }
        let d = try ProgramRun.clustermap(["render", table, "--size", "600x400", "--output", png, "--total", "most-common:kind"])
        XCTAssertEqual(d.status, 0, d.err)
        let counts = try ProgramRun.clustermap(["render", table, "--size", "600x400", "--output", png + ".counts.png"])
        addTeardownBlock { try? FileManager.default.removeItem(atPath: png + ".counts.png") }
        XCTAssertEqual(counts.status, 0, counts.err)
        // The bubbles say their kind, not their count (and the legend says so).
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: png)), try Data(contentsOf: URL(fileURLWithPath: png + ".counts.png")))
    }

    func testRenderDrawsTheTablesViewAndFailsWhenTheServerIsGone() throws {
        let table = try datedAddress()
        func render(_ args: [String]) throws -> (ProgramRun.Result, String) {
            let out = NSTemporaryDirectory() + "dated-\(UInt32.random(in: 0...UInt32.max)).png"
            addTeardownBlock { try? FileManager.default.removeItem(atPath: out) }
            return (try ProgramRun.clustermap(["render", table, "--size", "800x450", "--output", out] + args), out)
        }
        let (all, allPNG) = try render([])
        let (none, nonePNG) = try render(["--where", "mag > 100"])
        XCTAssertEqual(all.status, 0, all.err)
        XCTAssertEqual(none.status, 0, none.err)
        // The table's bubbles are drawn: the image with every row differs from the one with none.
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: allPNG)), try Data(contentsOf: URL(fileURLWithPath: nonePNG)))
        let (grouped, _) = try render(["--by", "mag"])
        XCTAssertEqual(grouped.status, 2, grouped.err)
        XCTAssertTrue(grouped.err.contains("--by 'mag' is not read for a database table"), grouped.err)
        let gone = "postgresql://postgres@127.0.0.1:1/test?table=public.dated"
        let r = try ProgramRun.clustermap(["render", gone, "--output", NSTemporaryDirectory() + "gone.png"])
        XCTAssertEqual(r.status, 1, r.err)
        XCTAssertTrue(r.err.contains("can't reach the database server"), r.err)
    }

    func testTheWindowSaysByIsNotReadForATableAndOpensItWithTheTotal() throws {
        try AppHarness.requireTools()
        let table = try datedAddress()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([table, "--by", "mag", "--total", "max:deaths"], timeout: 60)
        let error = try h.waitForEvent("error", timeout: 30)
        XCTAssertTrue((error.event["message"] as? String ?? "").hasPrefix("--by 'mag' is not read for a database table"), "\(error.event)")
        // The rest still applies: the table opens, totalled.
        try h.waitForEvent("db-connected", timeout: 30)
        let total = try h.waitForEvent("db-total", timeout: 30)
        XCTAssertEqual(total.event["column"] as? String, "deaths")
    }
}
