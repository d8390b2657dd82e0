import Foundation
import XCTest

/// The filter panel on a PostGIS table (issue 31 item 5), in the real window against the class's
/// throw-away server: the launch `--where` shows as a chip with the server's "N of M places", the
/// panel's catalogue comes from the server, unticking a category sends both conditions to the
/// server, and the map's next view holds exactly the rows `SELECT count(*) … WHERE` counts.
extension PostGISWindowTests {
    func testTheFilterPanelOnATableSendsItsConditionsToTheServer() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        // 600 rows over Europe: kinds 300 quake, 200 blast, 100 slide (a hostile one among them
        // would be a column name's business: values are parameters, tested in PostGISTests).
        try Self.psql("""
            DROP TABLE IF EXISTS tagged;
            CREATE TABLE tagged (id bigserial PRIMARY KEY, geom geometry(Point, 4326), kind text, mag float8);
            INSERT INTO tagged (geom, kind, mag)
              SELECT ST_SetSRID(ST_MakePoint(-5 + (g * 7919 % 1009) / 50.0, 40 + (g * 104729 % 1013) / 60.0), 4326),
                     CASE WHEN g % 6 < 3 THEN 'quake' WHEN g % 6 < 5 THEN 'blast' ELSE 'slide' END, (g % 40) / 10.0
              FROM generate_series(1, 600) g;
            CREATE INDEX ON tagged USING gist (geom);
            ANALYZE tagged;
            """)
        let launchWhere = "mag >= 2"
        let launchCount = try Self.psqlInt("SELECT count(*) FROM tagged WHERE mag >= 2")
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=tagged", "--where", launchWhere,
                      "--size", "1400x900", "--reduce-motion"], timeout: 60)

        // The launch filter: counted on the server, shown as a chip with "N of M places".
        let launched = try h.waitForEvent("filter", timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(launched.event["expression"] as? String, launchWhere)
        XCTAssertEqual(launched.event["passing"] as? Int, launchCount)
        XCTAssertEqual(launched.event["places"] as? Int, 600)
        let count = try h.waitForEvent("filter-count", timeout: 15)
        XCTAssertEqual(count.event["text"] as? String, "\(launchCount) of 600 places")
        _ = try h.waitForEvent("widget", timeout: 15) { $0["name"] as? String == "filter-chip-0" }

        // The panel reads the table's columns from the server.
        let toggle = try h.waitForEvent("widget", timeout: 15) { $0["name"] as? String == "filter-toggle" }
        try h.click(at: toggle.event["x"] as! Double, toggle.event["y"] as! Double)
        let built = try h.waitForEvent("filter-rows", timeout: 30)
        XCTAssertEqual(built.event["rows"] as? [String], ["id:number", "kind:category", "mag:number"])

        // Untick "blast": both conditions go to the server.
        let blast = try h.waitForEvent("widget", after: built.index, timeout: 15) { $0["name"] as? String == "filter-check:kind=blast" }
        let before = h.events().count
        try h.click(at: blast.event["x"] as! Double, blast.event["y"] as! Double)
        let unticked = try h.waitForEvent("filter", after: before, timeout: 30) { $0["source"] as? String == "table" }
        let expected = try Self.psqlInt("SELECT count(*) FROM tagged WHERE mag >= 2 AND kind IN ('quake', 'slide')")
        XCTAssertEqual(unticked.event["expression"] as? String, "mag >= 2 and kind in ('quake', 'slide')")
        XCTAssertEqual(unticked.event["passing"] as? Int, expected)
        XCTAssertLessThan(expected, launchCount)
        // The map asks its view again: it holds exactly those rows (the whole table is in view).
        let query = try h.waitForEvent("db-query", after: before, timeout: 30) { $0["points"] as? Int != launchCount }
        XCTAssertEqual(query.event["points"] as? Int, expected)
        let shown = try h.waitForEvent("filter-count", after: before, timeout: 15)
        XCTAssertEqual(shown.event["text"] as? String, "\(expected) of 600 places")
    }
}
