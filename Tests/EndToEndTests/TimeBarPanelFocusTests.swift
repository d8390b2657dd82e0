import XCTest
import Foundation

/// Playing the time bar with the filter panel open (review-s16 finding 7): each step changes only
/// the filter's time window, so the panel updates its date row in place — no rebuild of every
/// row, which moved the keyboard focus into the first row's drop-down so P (pause) never reached
/// the bar, scrolled the panel to its top and cost frames.
final class TimeBarPanelFocusTests: XCTestCase {
    func testPlayingWithThePanelOpenKeepsTheRowsAndTheKeys() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // 600 places over 2011, a category and a number beside the date.
        var csv = "lat,lon,when,kind,mag\n"
        for i in 0..<600 {
            let date = Date(timeIntervalSince1970: 1_293_840_000 + Double(i) * 52_560)
            csv += "\(40 + Double(i % 20) * 0.1),\(-3 + Double(i / 20) * 0.1),\(ISO8601DateFormatter().string(from: date)),"
            csv += "\(["a", "b", "c"][i % 3]),\(Double(i % 50) / 10)\n"
        }
        let path = h.workDir + "/dated.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        try h.launch([path, "--size", "1400x900", "--reduce-motion"], timeout: 60)
        _ = try h.waitForEvent("load-done", timeout: 60)
        try h.key("F8")
        let built = try h.waitForEvent("filter-rows", timeout: 30)
        try h.key("ctrl+t")
        let shown = try h.waitForEvent("time-bar", after: built.index, timeout: 30) { $0["reason"] as? String == "shown" }
        try h.pressKey("p")
        let play = try h.waitForEvent("time-bar", after: shown.index, timeout: 10) { $0["reason"] as? String == "play" }
        // A few steps land on the map (each a filter with a new window).
        var last = play.index
        for _ in 0..<3 { last = try h.waitForEvent("filter", after: last, timeout: 15).index }
        try h.pressKey("p")
        let pause = try h.waitForEvent("time-bar", after: last, timeout: 10) { $0["reason"] as? String == "pause" }
        XCTAssertEqual(pause.event["playing"] as? Bool, false)
        XCTAssertEqual(h.events(named: "filter-rows", after: play.index).count, 0, "the rows are not rebuilt for a time-bar step")
        h.assertNoGtkWarnings()
    }
}
