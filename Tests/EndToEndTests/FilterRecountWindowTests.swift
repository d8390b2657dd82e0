import XCTest
import Foundation

/// Issue 29 item 3 in the real window: a filter change that passes many places (so the exact
/// build would miss the frame budget) first shows the unfiltered build recounted over the
/// passing places — `filter-interim` with kind "recount", the chip saying "refining…" — then
/// the exact build settles it (`filter`, the same passing count, `interim_ms` before
/// `settled_ms`). Counts are computed here from the fixture's own rows.
final class FilterRecountWindowTests: XCTestCase {
    func testABigFilterChangeShowsARecountThenSettles() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // 200,000 places, magnitudes 0.0–9.9: `mag >= 1` passes ~180k, past the recount's 160k.
        var s: UInt64 = 0x9E3779B97F4A7C15
        func next() -> Double {
            s ^= s << 13; s ^= s >> 7; s ^= s << 17
            return Double(s % 1_000_000) / 1_000_000
        }
        var csv = "lat,lon,mag\n"
        var passing = 0
        for _ in 0..<200_000 {
            let mag = (next() * 99).rounded() / 10
            if mag >= 1 { passing += 1 }
            csv += "\(-60 + next() * 120),\(-170 + next() * 340),\(mag)\n"
        }
        let path = h.workDir + "/many.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)

        try h.launch([path, "--size", "1200x800", "--reduce-motion", "--where", "mag >= 1"], timeout: 60)
        let loaded = try h.waitForEvent("load-done", timeout: 120)
        XCTAssertEqual((loaded.event["points"] as? NSNumber)?.intValue, 200_000)
        let interim = try h.waitForEvent("filter-interim", after: loaded.index, timeout: 120)
        XCTAssertEqual(interim.event["kind"] as? String, "recount")
        XCTAssertEqual((interim.event["passing"] as? NSNumber)?.intValue, passing)
        XCTAssertEqual((interim.event["places"] as? NSNumber)?.intValue, 200_000)
        let settled = try h.waitForEvent("filter", after: interim.index, timeout: 180)
        XCTAssertEqual(settled.event["expression"] as? String, "mag >= 1")
        XCTAssertEqual((settled.event["passing"] as? NSNumber)?.intValue, passing)
        let interimMs = try XCTUnwrap((settled.event["interim_ms"] as? NSNumber)?.doubleValue)
        let settledMs = try XCTUnwrap((settled.event["settled_ms"] as? NSNumber)?.doubleValue)
        XCTAssertLessThan(interimMs, settledMs, "the recount came first")
        // The count chip said the first frame was provisional, then dropped it once settled.
        func grouped(_ n: Int) -> String {
            let digits = String(n)
            return String(digits.enumerated().flatMap { k, c in (k > 0 && (digits.count - k) % 3 == 0) ? [",", c] : [c] })
        }
        let text = "\(grouped(passing)) of 200,000 places"
        let final = try h.waitForEvent("filter-count", after: settled.index, timeout: 15)
        XCTAssertEqual(final.event["text"] as? String, text)
        let counts = h.events(named: "filter-count", after: loaded.index).compactMap { $0["text"] as? String }
        XCTAssertTrue(counts.contains(text + " · refining…"), "\(counts)")
    }
}
