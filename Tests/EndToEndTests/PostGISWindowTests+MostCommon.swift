import ClusterCore
import Foundation
import XCTest

/// `--total most-common:kind` on a table in the real window: each bubble shows its pile's most
/// common kind as SQL's `mode() WITHIN GROUP (ORDER BY kind COLLATE "C")` picks it (two piles
/// tie), on the bubble and its card, on both paths; a pyramid (which keeps no values) is said not
/// to serve it, once.
extension PostGISWindowTests {
    func testATablesMostCommonIsOnItsBubblesAndCardsAsSQLsModeOnBothPaths() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.makePiles()
        // An old pyramid (counts only): views with this total are counted from the table.
        try Self.psql("""
            CREATE TABLE piles_clustermap_pyramid (z int2, ix int8, iy int8, n int8, sx float8, sy float8, lon float8, lat float8, id int8);
            COMMENT ON TABLE piles_clustermap_pyramid IS 'clustermap pyramid v1 cell=64.0 maxzoom=8';
            """)
        defer { try? Self.psql("DROP TABLE IF EXISTS piles; DROP TABLE IF EXISTS piles_clustermap_pyramid") }
        // pile's count → (SQL's mode as its digit: k0, k1, k2; rows with it). Piles of 30 and 50 tie.
        var expected: [Int: (String, Int)] = [:]
        for p in 0..<4 {
            let mode = "(SELECT mode() WITHIN GROUP (ORDER BY kind COLLATE \"C\") FROM piles WHERE pile = \(p))"
            let digit = try Self.psqlInt("SELECT ascii(right(\(mode), 1)) - 48")
            expected[30 + 10 * p] = ("k\(digit)", try Self.psqlInt("SELECT count(*) FROM piles WHERE pile = \(p) AND kind = \(mode)"))
        }
        XCTAssertEqual(expected[30]?.1, 10, "a tie of three")
        for (method, environment) in [("fetched", [String: String]()), ("aggregated", ["CLUSTERMAP_FETCH_LIMIT": "10"])] {
            let h = try AppHarness()
            defer { h.stop() }
            h.extraEnvironment = environment
            try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=piles", "--total", "most-common:kind",
                          "--center", "0,-10", "--zoom", "4", "--size", "1400x900", "--reduce-motion"], timeout: 60)
            let total = try h.waitForEvent("db-total", timeout: 30)
            XCTAssertNil(total.event["error"], "\(total.event)")
            let pyramid = try h.waitForEvent("db-pyramid", timeout: 30)
            XCTAssertEqual(pyramid.event["used"] as? Bool, false)
            _ = try h.waitForEvent("message", timeout: 10) { ($0["text"] as? String ?? "").contains("most common") }
            let query = try h.waitForEvent("db-query", timeout: 30)
            XCTAssertEqual(query.event["method"] as? String, method)
            let scene = try h.waitForEvent("scene", timeout: 30) { ($0["bubbles"] as? [[String: Any]] ?? []).count == 4 }
            for bubble in scene.event["bubbles"] as? [[String: Any]] ?? [] {
                let count = try XCTUnwrap(bubble["count"] as? Int)
                let (kind, rows) = try XCTUnwrap(expected[count], "one bubble per pile: \(bubble)")
                XCTAssertEqual(bubble["label"] as? String, kind, "\(method): the most common kind on the bubble")
                let before = h.events().count
                try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double, button: 3)
                let card = try h.waitForEvent("bubble-card", after: before, timeout: 15)
                let first = (card.event["totals"] as? [[String: Any]])?.first
                XCTAssertEqual(first?["title"] as? String, "Most common kind", "\(card.event)")
                XCTAssertEqual(first?["text"] as? String, "\(kind) (\(rows) of \(count))", "\(method): as a file's card says it")
                try h.key("Escape")
                _ = try h.waitForEvent("bubble-card-close", after: card.index, timeout: 10)
            }
            XCTAssertEqual(h.events().filter { $0["event"] as? String == "db-pyramid" }.count, 1, "said once")
        }
    }
}
