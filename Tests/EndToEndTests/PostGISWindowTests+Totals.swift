import ClusterCore
import Foundation
import XCTest

/// A table's totals and remembered filter in the real window (issue 31 item 2), against the
/// class's throw-away server: `--total sum:damage` puts each bubble's total on it and on its card,
/// titled by the column, equal to SQL `sum(damage)` over the bubble's rows (four piles far apart:
/// one bubble each); a bad column is said and the map shows counts; a table's filter comes back
/// when the table opens again, and the state file holds its address without the password.
extension PostGISWindowTests {
    /// Four piles 20° apart (one bubble each at zoom 4), `damage` integer with NULLs, `kind` text.
    static func makePiles() throws {
        try psql("""
            DROP TABLE IF EXISTS piles;
            CREATE TABLE piles (id bigserial PRIMARY KEY, geom geometry(Point, 4326), pile int, damage integer, kind text);
            INSERT INTO piles (geom, pile, damage, kind)
              SELECT ST_SetSRID(ST_MakePoint(-20 + 20 * (p % 2) + (g * 7919 % 101) / 10000.0,
                                             -10 + 20 * (p / 2) + (g * 104729 % 97) / 10000.0), 4326),
                     p, CASE WHEN g % 7 = 0 THEN NULL ELSE (g * 37 + p * 1000) % 911 END, 'k' || (g % 3)
              FROM generate_series(0, 3) p, generate_series(1, 30 + 10 * p) g;
            CREATE INDEX ON piles USING gist (geom);
            ANALYZE piles;
            GRANT SELECT ON piles TO pwuser;
            """)
    }

    private static func bubbles(_ scene: [String: Any]) -> [[String: Any]] { scene["bubbles"] as? [[String: Any]] ?? [] }

    func testATablesTotalIsOnItsBubblesAndCardsAsTheServerSumsIt() throws {
        try checkTotals(method: "fetched")
    }

    /// The same with the server's grid cells (`GROUP BY` on cell keys, summed in SQL).
    func testATablesTotalFromTheServersGridCellsIsOnItsBubblesAndCards() throws {
        try checkTotals(method: "aggregated", environment: ["CLUSTERMAP_FETCH_LIMIT": "10"])
    }

    /// `--total mean:damage`: the server's cells carry Σ and the rows with a value, so each bubble
    /// and card shows SQL `avg(damage)` over its pile (NULLs left out), on both paths.
    func testATablesMeanIsOnItsBubblesAndCardsAsSQLAvgOnBothPaths() throws {
        try checkTotals(method: "fetched", kind: "mean")
        try checkTotals(method: "aggregated", kind: "mean", environment: ["CLUSTERMAP_FETCH_LIMIT": "10"])
    }

    private func checkTotals(method: String, kind: String = "sum", environment: [String: String] = [:]) throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.makePiles()
        defer { try? Self.psql("DROP TABLE IF EXISTS piles") }
        // pile's count → SQL sum(damage), or avg(damage) in millionths (psql answers integers here)
        let mean = kind == "mean", scale = mean ? 1e6 : 1
        var expected: [Int: Int] = [:]
        for p in 0..<4 {
            expected[30 + 10 * p] = try Self.psqlInt(mean ? "SELECT round(avg(damage) * 1000000)::int8 FROM piles WHERE pile = \(p)"
                                                          : "SELECT sum(damage) FROM piles WHERE pile = \(p)")
        }
        let h = try AppHarness()
        defer { h.stop() }
        h.extraEnvironment = environment
        try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=piles", "--total", "\(kind):damage",
                      "--center", "0,-10", "--zoom", "4", "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let total = try h.waitForEvent("db-total", timeout: 30)
        XCTAssertEqual(total.event["column"] as? String, "damage")
        XCTAssertNil(total.event["error"], "\(total.event)")
        let query = try h.waitForEvent("db-query", timeout: 30)
        XCTAssertEqual(query.event["method"] as? String, method)
        let scene = try h.waitForEvent("scene", timeout: 30) { Self.bubbles($0).count == 4 }
        let heaviest = Double(expected.values.max() ?? 0)
        for bubble in Self.bubbles(scene.event) {
            let count = try XCTUnwrap(bubble["count"] as? Int)
            let value = Double(try XCTUnwrap(expected[count], "one bubble per pile: \(bubble)")) / scale
            if !mean {
                // A sum sizes the bubbles as a file's does: area ∝ sum, 15…30 px, half pixels.
                let radius = ((15 + (value / heaviest).squareRoot() * 15) * 2).rounded() / 2
                XCTAssertEqual(bubble["r"] as? Double, radius, "sized by its sum: \(bubble)")
            }
            XCTAssertEqual(bubble["label"] as? String, ClusterTotal.abbreviated(value), "the total on the bubble: \(bubble)")
            let before = h.events().count
            try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double, button: 3)
            let card = try h.waitForEvent("bubble-card", after: before, timeout: 15)
            XCTAssertEqual(card.event["count"] as? Int, count)
            let first = (card.event["totals"] as? [[String: Any]])?.first
            XCTAssertEqual(first?["title"] as? String, mean ? "Mean damage" : "Total damage", "titled by the column: \(card.event)")
            let shown = try XCTUnwrap(first?["value"] as? Double, "\(card.event)")
            XCTAssertEqual((shown * scale).rounded(), value * scale, "= SQL \(kind == "mean" ? "avg" : "sum")(damage) over the pile")
            try h.key("Escape")
            _ = try h.waitForEvent("bubble-card-close", after: card.index, timeout: 10)
        }
    }

    func testATotalOfAColumnTheTableCannotSumIsSaidAndTheMapShowsCounts() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.makePiles()
        defer { try? Self.psql("DROP TABLE IF EXISTS piles") }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=piles", "--total", "sum:kind",
                      "--center", "0,-10", "--zoom", "4", "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let problem = try h.waitForEvent("db-total", timeout: 30)
        let error = try XCTUnwrap(problem.event["error"] as? String)
        XCTAssertTrue(error.contains("'kind'") && error.contains("not a number"), error)
        _ = try h.waitForEvent("message", timeout: 10) { ($0["text"] as? String ?? "").contains("'kind'") }
        let scene = try h.waitForEvent("scene", timeout: 30) { Self.bubbles($0).count == 4 }
        for bubble in Self.bubbles(scene.event) {
            XCTAssertEqual(bubble["label"] as? String, String(bubble["count"] as? Int ?? -1), "counts on the bubbles: \(bubble)")
        }
    }

    func testATablesFilterAndTotalComeBackOnReopenAndTheStateFileHoldsNoPassword() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.makePiles()
        defer { try? Self.psql("DROP TABLE IF EXISTS piles") }
        let passing = try Self.psqlInt("SELECT count(*) FROM piles WHERE damage >= 300")
        let address = "postgresql://pwuser:secret@127.0.0.1:\(Self.port)/test?table=piles"
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([address, "--where", "damage >= 300", "--total", "max:damage", "--center", "0,-10", "--zoom", "4",
                      "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let first = try h.waitForEvent("filter", timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(first.event["passing"] as? Int, passing)
        let before = h.events().count
        try h.key("ctrl+q")
        _ = try h.waitForEvent("state-saved", after: before - 1, timeout: 10)
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        let state = try String(contentsOfFile: h.workDir + "/config/clustermap/state", encoding: .utf8)
        // (JSON writes "/" as "\/".)
        let key = "table:postgresql://pwuser@127.0.0.1:\(Self.port)/test?table=piles".replacingOccurrences(of: "/", with: "\\/")
        XCTAssertTrue(state.contains(key), state)
        XCTAssertFalse(state.contains("secret"), "no password in the state file: \(state)")

        // The same table again, no filter on the command line: the filter and total come back.
        try h.launch([address, "--center", "0,-10", "--zoom", "4", "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let restored = try h.waitForEvent("filter-restored", timeout: 30)
        XCTAssertEqual(restored.event["source"] as? String, "table")
        let total = try h.waitForEvent("db-total", timeout: 30)
        XCTAssertEqual(total.event["kind"] as? String, "max")
        let filter = try h.waitForEvent("filter", timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(filter.event["expression"] as? String, "damage >= 300")
        XCTAssertEqual(filter.event["passing"] as? Int, passing)
        let highest = try Self.psqlInt("SELECT max(damage) FROM piles WHERE pile = 3 AND damage >= 300")
        let label = ClusterTotal.abbreviated(Double(highest))
        let scene = try h.waitForEvent("scene", timeout: 30) { s in Self.bubbles(s).contains { $0["label"] as? String == label } }
        XCTAssertFalse(Self.bubbles(scene.event).isEmpty)

        // The command line wins over what was remembered.
        try h.key("ctrl+q")
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        try h.launch([address, "--where", "damage < 100", "--center", "0,-10", "--zoom", "4", "--size", "1400x900"], timeout: 60)
        let asked = try h.waitForEvent("filter", timeout: 30) { $0["source"] as? String == "table" }
        XCTAssertEqual(asked.event["expression"] as? String, "damage < 100")
        XCTAssertTrue(h.events(named: "filter-restored", after: 0).isEmpty)
    }
}
