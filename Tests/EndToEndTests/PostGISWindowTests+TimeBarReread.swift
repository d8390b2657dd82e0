import AppSupport
import Foundation
import XCTest

/// A watched table's rows change under its time bar (pgtime-s16's gap): the bar's range and
/// counts are read again with the views (no more often than the watch interval) and the window
/// stays where the person put it.
extension PostGISWindowTests {
    private func epochs(_ table: String) throws -> [Double] {
        try Self.psqlText("SELECT string_agg(extract(epoch FROM at)::int8::text, ',') FROM \(table)")
            .split(separator: ",").compactMap { Double($0) }
    }

    func testRowsAddedPastTheBarsEndReReadItsRangeAndCountsAndTheWindowStays() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        let table = "regrown\(UUID().uuidString.prefix(8).lowercased())"
        // 300 rows over Europe, one every 4 hours through 50 days.
        try Self.psql("""
            CREATE TABLE \(table) (id bigserial PRIMARY KEY, geom geometry(Point, 4326), at timestamptz);
            INSERT INTO \(table) (geom, at)
              SELECT ST_SetSRID(ST_MakePoint(-5 + (g * 7919 % 1009) / 50.0, 40 + (g * 104729 % 1013) / 60.0), 4326),
                     timestamptz '2024-01-01T00:00:00Z' + g * interval '4 hours' + (g * 7919 % 3600) * interval '1 second'
              FROM generate_series(1, 300) g;
            ANALYZE \(table);
            """)
        defer { try? Self.psql("DROP TABLE IF EXISTS \(table)") }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=\(table)", "--time", "at", "--refresh", "1",
                      "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let shown = try h.waitForEvent("time-bar", timeout: 30) { $0["reason"] as? String == "shown" }
        _ = try h.waitForEvent("db-query", timeout: 30) { $0["points"] as? Int == 300 }
        // W, then a step back: a window the person put before the end.
        try h.pressKey("w")
        let mode = try h.waitForEvent("time-bar", after: shown.index, timeout: 10) { $0["reason"] as? String == "mode" }
        try h.pressKey("comma")
        let put = try h.waitForEvent("time-bar", after: mode.index, timeout: 10) { $0["reason"] as? String == "step" }
        let since = try XCTUnwrap(put.event["since"] as? String), until = try XCTUnwrap(put.event["until"] as? String)
        XCTAssertFalse(since.isEmpty)

        // 200 rows 60–93 days in: past the bar's old end.
        let before = h.events().count
        try Self.psql("""
            INSERT INTO \(table) (geom, at)
              SELECT ST_SetSRID(ST_MakePoint(2 + g / 100.0, 45 + g / 100.0), 4326),
                     timestamptz '2024-03-01T00:00:00Z' + g * interval '4 hours' FROM generate_series(1, 200) g;
            """)
        let times = try epochs(table)
        XCTAssertEqual(times.count, 500)
        let changed = try h.waitForEvent("data-changed", after: before, timeout: 30)
        let reread = try h.waitForEvent("time-bar", after: changed.index, timeout: 30) { $0["reason"] as? String == "reread" }
        let extent = try XCTUnwrap(times.min())...(try XCTUnwrap(times.max()))
        XCTAssertEqual(reread.event["counts"] as? [Int], TimeHistogram(times: times, bins: 120, extent: extent).counts,
                       "the bar's counts over the new range, as the file bar bins psql's times")
        XCTAssertEqual(reread.event["since"] as? String, since, "the window stays where it was put")
        XCTAssertEqual(reread.event["until"] as? String, until)
        XCTAssertEqual(reread.event["mode"] as? String, "window")
        XCTAssertEqual(reread.event["playing"] as? Bool, false)
    }
}
