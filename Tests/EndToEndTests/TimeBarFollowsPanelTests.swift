import XCTest
import Foundation

/// The time bar follows the filter panel's date row (issue 29): dragging the row's "from" slider
/// while the bar shows moves the bar's window to the same since/until, paused — one source of
/// truth, the filter's window.
final class TimeBarFollowsPanelTests: XCTestCase {
    func testDraggingTheDateRowMovesTheBar() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // 400 places over 2011, one a day or so.
        var csv = "lat,lon,when\n"
        for i in 0..<400 {
            let day = i * 365 / 400
            let date = Calendar(identifier: .gregorian).date(byAdding: .day, value: day, to: Date(timeIntervalSince1970: 1_293_840_000))!
            let text = ISO8601DateFormatter().string(from: date)
            csv += "\(40 + Double(i % 20) * 0.1),\(-3 + Double(i / 20) * 0.1),\(text)\n"
        }
        let path = h.workDir + "/dated.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        try h.launch([path, "--time", "when", "--size", "1400x900", "--reduce-motion"], timeout: 60)
        let shown = try h.waitForEvent("time-bar", timeout: 60) { $0["reason"] as? String == "shown" }
        let toggle = try h.waitForEvent("widget", timeout: 15) { $0["name"] as? String == "filter-toggle" }
        try h.click(at: toggle.event["x"] as! Double, toggle.event["y"] as! Double)
        let built = try h.waitForEvent("filter-rows", after: shown.index, timeout: 20)
        let from = try h.waitForEvent("widget-bounds", after: built.index, timeout: 15) { $0["name"] as? String == "filter-range:when:from" }
        let x = from.event["x"] as! Double, y = from.event["y"] as! Double + (from.event["height"] as! Double) / 2
        try h.drag(from: (x + 9, y), to: (x + (from.event["width"] as! Double) * 0.5, y), steps: 10)
        let settled = try h.waitForEvent("filter-settled", after: built.index, timeout: 20)
        let expression = try XCTUnwrap(settled.event["expression"] as? String)
        // The bar followed each step of the drag, the last to the settled filter's since, paused.
        let followed = try h.waitForEvent("time-bar", after: built.index, timeout: 10) {
            guard $0["reason"] as? String == "filter", let since = $0["since"] as? String, !since.isEmpty else { return false }
            return expression.contains("when >= '\(since.prefix(10))")
        }
        XCTAssertEqual(followed.event["playing"] as? Bool, false)
        XCTAssertEqual(followed.event["mode"] as? String, "window")
        h.assertNoGtkWarnings()
    }
}
