import Foundation
import XCTest

/// The filter panel on a PostGIS table (issue 31 item 5), in the real window against the class's
/// throw-away server: the launch `--where` and `--since` show as chips with the server's "N of M places", the
/// panel's catalogue comes from the server, unticking a category sends both conditions to the
/// server, and the map's next view holds exactly the rows `SELECT count(*) … WHERE` counts; Clear
/// shows every row again. A
/// table opened from Connect to Database… gets its filter and change watch from the dialog.
extension PostGISWindowTests {
    func testTheFilterPanelOnATableSendsItsConditionsToTheServer() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        // 600 rows over Europe: kinds 300 quake, 200 blast, 100 slide (a hostile one among them
        // would be a column name's business: values are parameters, tested in PostGISTests).
        try Self.psql("""
            DROP TABLE IF EXISTS tagged;
            CREATE TABLE tagged (id bigserial PRIMARY KEY, geom geometry(Point, 4326), kind text, mag float8, at timestamptz);
            INSERT INTO tagged (geom, kind, mag, at)
              SELECT ST_SetSRID(ST_MakePoint(-5 + (g * 7919 % 1009) / 50.0, 40 + (g * 104729 % 1013) / 60.0), 4326),
                     CASE WHEN g % 6 < 3 THEN 'quake' WHEN g % 6 < 5 THEN 'blast' ELSE 'slide' END, (g % 40) / 10.0,
                     timestamptz '2024-01-01T00:00:00Z' + g * interval '7 hours'
              FROM generate_series(1, 600) g;
            CREATE INDEX ON tagged USING gist (geom);
            ANALYZE tagged;
            """)
        // Gone after: the dialog test counts the tables with geometry.
        defer { try? Self.psql("DROP TABLE IF EXISTS tagged") }
        let launchWhere = "mag >= 2"
        let since = "at >= '2024-02-01T00:00:00Z'"
        let launchCount = try Self.psqlInt("SELECT count(*) FROM tagged WHERE mag >= 2 AND \(since)")
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=tagged", "--where", launchWhere,
                      "--since", "2024-02-01", "--size", "1400x900", "--reduce-motion"], timeout: 60)

        // The launch filter: counted on the server, shown as a chip with "N of M places".
        let launched = try h.waitForEvent("filter", timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(launched.event["expression"] as? String, launchWhere + " and at >= 2024-02-01")
        XCTAssertEqual(launched.event["passing"] as? Int, launchCount)
        XCTAssertEqual(launched.event["places"] as? Int, 600)
        let count = try h.waitForEvent("filter-count", timeout: 15)
        XCTAssertEqual(count.event["text"] as? String, "\(launchCount) of 600 places")
        _ = try h.waitForEvent("widget", timeout: 15) { $0["name"] as? String == "filter-chip-1" }  // the time window's

        // The panel reads the table's columns from the server.
        let toggle = try h.waitForEvent("widget", timeout: 15) { $0["name"] as? String == "filter-toggle" }
        try h.click(at: toggle.event["x"] as! Double, toggle.event["y"] as! Double)
        let built = try h.waitForEvent("filter-rows", timeout: 30)
        // The serial `id` last (review-s16 finding 16): the table's own properties first.
        XCTAssertEqual(built.event["rows"] as? [String], ["kind:category", "mag:number", "at:date", "id:number"])

        // Untick "blast": both conditions go to the server.
        let blast = try h.waitForEvent("widget", after: built.index, timeout: 15) { $0["name"] as? String == "filter-check:kind=blast" }
        let before = h.events().count
        try h.click(at: blast.event["x"] as! Double, blast.event["y"] as! Double)
        let unticked = try h.waitForEvent("filter", after: before, timeout: 30) { $0["source"] as? String == "table" }
        let expected = try Self.psqlInt("SELECT count(*) FROM tagged WHERE mag >= 2 AND kind IN ('quake', 'slide') AND \(since)")
        XCTAssertEqual(unticked.event["expression"] as? String, "mag >= 2 and kind in ('quake', 'slide') and at >= 2024-02-01")
        XCTAssertEqual(unticked.event["passing"] as? Int, expected)
        XCTAssertLessThan(expected, launchCount)
        // The map asks its view again: it holds exactly those rows (the whole table is in view).
        let query = try h.waitForEvent("db-query", after: before, timeout: 30) { $0["points"] as? Int != launchCount }
        XCTAssertEqual(query.event["points"] as? Int, expected)
        let shown = try h.waitForEvent("filter-count", after: before, timeout: 15)
        XCTAssertEqual(shown.event["text"] as? String, "\(expected) of 600 places")

        // Clear: every row again, asked of the server.
        let clear = try h.waitForEvent("widget", after: before, timeout: 15) { $0["name"] as? String == "filter-clear" }
        let beforeClear = h.events().count
        try h.click(at: clear.event["x"] as! Double, clear.event["y"] as! Double)
        let cleared = try h.waitForEvent("filter", after: beforeClear, timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(cleared.event["expression"] as? String, "")
        XCTAssertEqual(cleared.event["passing"] as? Int, 600)
        _ = try h.waitForEvent("db-query", after: beforeClear, timeout: 30) { $0["points"] as? Int == 600 }
    }

    func testATableOpenedFromTheDialogGetsItsFilterAndWatch() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.psql("""
            DROP TABLE IF EXISTS watched;
            CREATE TABLE watched (id bigserial PRIMARY KEY, geom geometry(Point, 4326), kind text, mag float8);
            INSERT INTO watched (geom, kind, mag)
              SELECT ST_SetSRID(ST_MakePoint(-5 + (g * 7919 % 1009) / 50.0, 40 + (g * 104729 % 1013) / 60.0), 4326),
                     CASE WHEN g % 3 = 0 THEN 'it''s 100%' ELSE 'plain' END, (g % 40) / 10.0
              FROM generate_series(1, 300) g;
            CREATE INDEX ON watched USING gist (geom);
            ANALYZE watched;
            """)
        defer { try? Self.psql("DROP TABLE IF EXISTS watched") }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"])
        _ = try h.waitForEvent("load-done", timeout: 60)
        try h.key("ctrl+shift+o")
        _ = try? h.run("xdotool", ["keyup", "ctrl+shift+o"])
        let opened = try h.waitForEvent("db-dialog")
        try h.waitForFocusedWindow(named: "Connect to Database")
        try h.typeText("postgresql://postgres@127.0.0.1:\(Self.port)/test?table=watched")
        // A filter the grammar refuses: said in the dialog at its column; nothing opens.
        try h.pressKey("alt+r")
        try h.typeText("kind = 'it''s 100%' and mag >=")
        try h.pressKey("Return")
        let problem = try h.waitForEvent("db-dialog-problem", after: opened.index, timeout: 15)
        XCTAssertEqual(problem.event["field"] as? String, "filter")
        XCTAssertEqual(problem.event["column"] as? Int, 31, "after the last '>='")
        // Finished, with "watch for changes" (Alt+W): the table opens filtered and watched.
        try h.typeText(" 1.5")
        try h.pressKey("alt+w")
        try h.pressKey("Return")
        let asked = try h.waitForEvent("db-dialog-open", after: problem.index, timeout: 15)
        XCTAssertEqual(asked.event["watch"] as? Bool, true)
        let condition = "mag >= 1.5 AND kind = 'it''s 100%'"
        var expected = try Self.psqlInt("SELECT count(*) FROM watched WHERE \(condition)")
        let filtered = try h.waitForEvent("filter", after: asked.index, timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(filtered.event["expression"] as? String, "kind = 'it''s 100%' and mag >= 1.5")
        XCTAssertEqual(filtered.event["passing"] as? Int, expected)
        XCTAssertEqual(filtered.event["places"] as? Int, 300)
        let query = try h.waitForEvent("db-query", after: asked.index, timeout: 30)
        XCTAssertEqual(query.event["points"] as? Int, expected, "the fitted view holds every passing row")
        _ = try h.waitForEvent("db-watch", after: asked.index, timeout: 10)

        // Rows written by someone else: the window sees them and counts again, with no input.
        try Self.psql("""
            INSERT INTO watched (geom, kind, mag)
              SELECT ST_SetSRID(ST_MakePoint(0 + g / 10.0, 45), 4326), 'it''s 100%', 3 FROM generate_series(1, 25) g;
            """)
        expected = try Self.psqlInt("SELECT count(*) FROM watched WHERE \(condition)")
        let changed = try h.waitForEvent("data-changed", after: query.index, timeout: 30)
        let recount = try h.waitForEvent("filter", after: changed.index, timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(recount.event["passing"] as? Int, expected)
        XCTAssertEqual(recount.event["places"] as? Int, 325)
        let requery = try h.waitForEvent("db-query", after: changed.index, timeout: 30) { $0["points"] as? Int == expected }
        XCTAssertEqual(requery.event["points"] as? Int, expected)
    }
}
