import AppSupport
import ClusterCore
import Foundation
import XCTest

/// The time bar on a PostGIS table and the dialog's total (issue 31 with issue 29 item 4), in the
/// real window against the class's throw-away server, read back from the event log: the bar's
/// histogram is the server's count per bin (= the file bar's bins of the rows' times read with
/// psql); each window a key asks for becomes the view query's WHERE, and the map then holds
/// exactly psql's `count(*)` in that window; a window seen before comes from the view cache; the
/// bar comes back paused where it was left (it was playing) when the table opens again. Connect
/// to Database…'s Total field is checked against the table with the command line's messages.
extension PostGISWindowTests {
    /// One psql answer as text.
    static func psqlText(_ sql: String) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        p.arguments = ["-X", "-q", "-t", "-A", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", "test", "-c", sql]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// psql's count of `timed` rows in a `time-bar` event's since…until (both inclusive, as the bar asks).
    private func rows(in bar: [String: Any]) throws -> Int {
        let since = try XCTUnwrap(bar["since"] as? String), until = try XCTUnwrap(bar["until"] as? String)
        if since.isEmpty { return try Self.psqlInt("SELECT count(*) FROM timed") }
        return try Self.psqlInt("SELECT count(*) FROM timed WHERE at >= '\(since)' AND at <= '\(until)'")
    }

    /// The first `db-query` after `index` under the window `bar` asked: its WHERE is the bar's
    /// since…until on `at` (an instant at midnight written as its day, as the filter writes it).
    private func query(for bar: [String: Any], in h: AppHarness, after index: Int) throws -> (event: [String: Any], index: Int) {
        func written(_ instant: String) -> String { instant.hasSuffix("T00:00:00Z") ? String(instant.prefix(10)) : instant }
        let since = bar["since"] as? String ?? "?", until = bar["until"] as? String ?? "?"
        let expected = since.isEmpty ? "" : "at >= \(written(since)) and at <= \(written(until))"
        return try h.waitForEvent("db-query", after: index, timeout: 30) { $0["where"] as? String == expected }
    }

    func testTheTimeBarOnATableCountsOnTheServerStepsByKeysAndComesBackPaused() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        // 600 rows over Europe, one every ~4 hours through 100 days; a second date column later.
        try Self.psql("""
            DROP TABLE IF EXISTS timed;
            CREATE TABLE timed (id bigserial PRIMARY KEY, geom geometry(Point, 4326), at timestamptz, logged date);
            INSERT INTO timed (geom, at, logged)
              SELECT ST_SetSRID(ST_MakePoint(-5 + (g * 7919 % 1009) / 50.0, 40 + (g * 104729 % 1013) / 60.0), 4326),
                     timestamptz '2024-01-01T00:00:00Z' + g * interval '4 hours' + (g * 7919 % 3600) * interval '1 second',
                     date '2020-01-01' + g
              FROM generate_series(1, 600) g;
            CREATE INDEX ON timed USING gist (geom);
            ANALYZE timed;
            """)
        defer { try? Self.psql("DROP TABLE IF EXISTS timed") }
        let times = try Self.psqlText("SELECT string_agg(extract(epoch FROM at)::int8::text, ',') FROM timed")
            .split(separator: ",").compactMap { Double($0) }
        XCTAssertEqual(times.count, 600)
        let extent = try XCTUnwrap(times.min())...(try XCTUnwrap(times.max()))
        let address = "postgresql://postgres@127.0.0.1:\(Self.port)/test?table=timed"
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch([address, "--time", "at", "--size", "1400x900", "--reduce-motion"], timeout: 60)

        // The bar over `at`, its counts per bin from the server = the file bar's bins of psql's times.
        let shown = try h.waitForEvent("time-bar", timeout: 30) { $0["reason"] as? String == "shown" }
        XCTAssertEqual(shown.event["source"] as? String, "table")
        XCTAssertEqual(shown.event["property"] as? String, "at")
        XCTAssertEqual(shown.event["counts"] as? [Int], TimeHistogram(times: times, bins: 120, extent: extent).counts)
        _ = try h.waitForEvent("db-query", timeout: 30) { $0["points"] as? Int == 600 }

        // W: the last 7 days; the map then holds psql's count of them.
        try h.pressKey("w")
        let mode = try h.waitForEvent("time-bar", after: shown.index, timeout: 10) { $0["reason"] as? String == "mode" }
        XCTAssertEqual(mode.event["mode"] as? String, "window")
        var q = try query(for: mode.event, in: h, after: mode.index)
        XCTAssertEqual(q.event["points"] as? Int, try rows(in: mode.event), "\(mode.event)")
        XCTAssertLessThan(q.event["points"] as? Int ?? 600, 600)

        // Comma steps a day back: asked of the server; period steps on again: from the cache.
        try h.pressKey("comma")
        let back = try h.waitForEvent("time-bar", after: q.index, timeout: 10) { $0["reason"] as? String == "step" }
        XCTAssertLessThan(back.event["playhead"] as? String ?? "", mode.event["playhead"] as? String ?? "")
        q = try query(for: back.event, in: h, after: back.index)
        XCTAssertEqual(q.event["points"] as? Int, try rows(in: back.event), "\(back.event)")
        XCTAssertEqual(q.event["cached"] as? Bool, false)
        try h.pressKey("period")
        let on = try h.waitForEvent("time-bar", after: q.index, timeout: 10) { $0["reason"] as? String == "step" }
        XCTAssertEqual(on.event["until"] as? String, mode.event["until"] as? String, "back to the first window")
        q = try query(for: on.event, in: h, after: on.index)
        XCTAssertEqual(q.event["points"] as? Int, try rows(in: on.event))
        XCTAssertEqual(q.event["cached"] as? Bool, true, "a window seen before comes from the view cache")

        // P plays from the start: windows follow one another, each on the map as psql counts it.
        try h.pressKey("p")
        let play = try h.waitForEvent("time-bar", after: q.index, timeout: 10) { $0["reason"] as? String == "play" }
        XCTAssertEqual(play.event["playing"] as? Bool, true)
        let first = try h.waitForEvent("db-query", after: play.index, timeout: 30)
        let second = try h.waitForEvent("db-query", after: first.index, timeout: 30) { $0["where"] as? String != first.event["where"] as? String }
        for answered in [first.event, second.event] {
            let w = answered["where"] as? String ?? ""
            let parts = w.components(separatedBy: " and ")
            XCTAssertEqual(parts.count, 2, w)
            let sql = parts.map { $0.replacingOccurrences(of: #"(\d{4}-[0-9T:\-]+Z?)"#, with: "'$1'", options: .regularExpression) }
                .joined(separator: " AND ")
            // (A bare day is its midnight in UTC, as the filter reads it.)
            XCTAssertEqual(answered["points"] as? Int, try Self.psqlInt("SET timezone TO 'UTC'; SELECT count(*) FROM timed WHERE \(sql)"), w)
        }
        // Once a second the bar says how many windows reached the map (answers under a new filter).
        let frames = try h.waitForEvent("time-bar-play", after: play.index, timeout: 15) { $0["frames"] as? Int ?? 0 > 0 }
        XCTAssertGreaterThan(frames.event["passing"] as? Int ?? 0, 0, "\(frames.event)")

        // Quit while playing; the same table again without --time: the bar is back, paused where it was.
        let before = h.events().count
        try h.key("ctrl+q")
        _ = try h.waitForEvent("state-saved", after: before - 1, timeout: 10)
        XCTAssertTrue(h.waitForExit(), "Ctrl+Q quits")
        try h.launch([address, "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let restored = try h.waitForEvent("time-bar", timeout: 30) { $0["reason"] as? String == "restored" }
        XCTAssertEqual(restored.event["source"] as? String, "table")
        XCTAssertEqual(restored.event["mode"] as? String, "window")
        XCTAssertEqual(restored.event["playing"] as? Bool, false, "paused, not playing by itself")
        XCTAssertEqual(restored.event["was_playing"] as? Bool, true)
        XCTAssertGreaterThan(restored.event["playhead"] as? String ?? "", "2024-01-01")
        let again = try query(for: restored.event, in: h, after: 0)
        XCTAssertEqual(again.event["points"] as? Int, try rows(in: restored.event), "\(restored.event)")
    }

    /// Playing a table whose every view takes ~0.7 s (a view that sleeps once per query): each
    /// window asked is waited for, so windows keep reaching the map while the bar plays (asking
    /// again every half second cancelled each one before it landed: nothing showed until the end).
    func testPlayingATableSlowerThanHalfASecondShowsWindowAfterWindow() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.psql("""
            DROP TABLE IF EXISTS slowtimed CASCADE;
            CREATE TABLE slowtimed (id bigserial PRIMARY KEY, geom geometry(Point, 4326), at timestamptz);
            INSERT INTO slowtimed (geom, at)
              SELECT ST_SetSRID(ST_MakePoint(-5 + (g * 7919 % 1009) / 50.0, 40 + (g * 104729 % 1013) / 60.0), 4326),
                     timestamptz '2024-01-01T00:00:00Z' + g * interval '4 hours' FROM generate_series(1, 600) g;
            ANALYZE slowtimed;
            CREATE VIEW sleepy AS WITH s AS MATERIALIZED (SELECT pg_sleep(0.7)) SELECT t.* FROM slowtimed t, s;
            """)
        defer { try? Self.psql("DROP TABLE IF EXISTS slowtimed CASCADE") }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["postgresql://postgres@127.0.0.1:\(Self.port)/test?table=sleepy", "--time", "at", "--size", "1400x900",
                      "--reduce-motion"], timeout: 60)
        let shown = try h.waitForEvent("time-bar", timeout: 30) { $0["reason"] as? String == "shown" }
        _ = try h.waitForEvent("db-query", timeout: 30)
        try h.pressKey("w")
        let mode = try h.waitForEvent("time-bar", after: shown.index, timeout: 10) { $0["reason"] as? String == "mode" }
        let q = try query(for: mode.event, in: h, after: mode.index)
        XCTAssertGreaterThan(q.event["ms"] as? Double ?? 0, 600, "each view sleeps 0.7 s on the server")
        try h.pressKey("p")
        let play = try h.waitForEvent("time-bar", after: q.index, timeout: 10) { $0["reason"] as? String == "play" }
        // The whole table plays in 30 s; two windows land long before that.
        let first = try h.waitForEvent("db-query", after: play.index, timeout: 12)
        let second = try h.waitForEvent("db-query", after: first.index + 1, timeout: 12)
        XCTAssertNotEqual(first.event["where"] as? String, second.event["where"] as? String)
        for answered in [first, second] { XCTAssertEqual(answered.event["cached"] as? Bool, false) }
        let stillPlaying = h.events(named: "time-bar", after: play.index).allSatisfy { $0["reason"] as? String != "end" }
        XCTAssertTrue(stillPlaying, "both windows reached the map while the bar played")
    }

    func testTheDialogsTotalIsCheckedAgainstTheTableAndShownOnTheBubbles() throws {
        try AppHarness.requireTools()
        if let e = Self.setupError { XCTFail("test server: \(e)"); return }
        try Self.makePiles()
        defer { try? Self.psql("DROP TABLE IF EXISTS piles") }
        var sums: [Int: Int] = [:]
        for p in 0..<4 { sums[30 + 10 * p] = try Self.psqlInt("SELECT sum(damage) FROM piles WHERE pile = \(p)") }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--size", "1400x900", "--reduce-motion"])
        _ = try h.waitForEvent("load-done", timeout: 60)
        try h.key("ctrl+shift+o")
        let opened = try h.waitForEvent("db-dialog")
        try h.waitForFocusedWindow(named: "Connect to Database")
        try h.typeText("postgresql://postgres@127.0.0.1:\(Self.port)/test?table=piles")

        // Not KIND:COLUMN: the command line's message, nothing opens.
        try h.pressKey("alt+t")
        try h.typeText("sum damage")
        try h.pressKey("Return")
        var problem = try h.waitForEvent("db-dialog-problem", after: opened.index, timeout: 15)
        XCTAssertEqual(problem.event["field"] as? String, "total")
        XCTAssertTrue((problem.event["message"] as? String ?? "").hasPrefix("--total 'sum damage': expected KIND:PROPERTY"), "\(problem.event)")
        // A column the table can't sum: checked against the table, said as --total says it.
        try h.pressKey("ctrl+a")
        try h.typeText("sum:kind")
        try h.pressKey("Return")
        problem = try h.waitForEvent("db-dialog-problem", after: problem.index + 1, timeout: 30)
        XCTAssertEqual(problem.event["message"] as? String,
                       "--total sum:kind: column 'kind' of public.piles is text, not a number; the bubbles show counts")
        XCTAssertTrue(h.events(named: "db-dialog-open", after: opened.index).isEmpty, "nothing opens")
        // The cursor is in the Total field: its text is replaced and the table opens with the sum.
        try h.pressKey("ctrl+a")
        try h.typeText("sum:damage")
        try h.pressKey("Return")
        let open = try h.waitForEvent("db-dialog-open", after: problem.index, timeout: 30)
        XCTAssertEqual(open.event["total"] as? String, "sum:damage")
        let total = try h.waitForEvent("db-total", after: open.index, timeout: 30)
        XCTAssertEqual(total.event["column"] as? String, "damage")
        let scene = try h.waitForEvent("scene", after: total.index, timeout: 30) { s in
            let b = s["bubbles"] as? [[String: Any]] ?? []
            return b.count == 4 && b.allSatisfy { $0["label"] as? String != String($0["count"] as? Int ?? -1) }
        }
        for bubble in scene.event["bubbles"] as? [[String: Any]] ?? [] {
            let count = try XCTUnwrap(bubble["count"] as? Int)
            let sum = try XCTUnwrap(sums[count], "one bubble per pile: \(bubble)")
            XCTAssertEqual(bubble["label"] as? String, ClusterTotal.abbreviated(Double(sum)), "the SQL sum on the bubble: \(bubble)")
        }
    }
}
