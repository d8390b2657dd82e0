import Foundation
import XCTest

/// Issue 32 item 8: what the window says when something a user did shows nothing.
final class FeedbackTests: XCTestCase {
    static var fixtures: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<2 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("TilesTests/Fixtures").path
    }

    /// A tile file whose area is off screen (Leipzig's streets over Lisbon's stays) says what it
    /// covers, and its "Show It" button flies there.
    func testAnOffScreenTileFileSaysWhatItCoversAndFliesThere() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "lisbon", "--basemap", FeedbackTests.fixtures + "/leipzig-subset.mbtiles"])
        let message = try h.waitForEvent("message", timeout: 30) { ($0["text"] as? String ?? "").contains("covers") }
        let text = message.event["text"] as? String ?? ""
        XCTAssertTrue(text.hasPrefix("leipzig-subset.mbtiles covers 51."), text)
        XCTAssertTrue(text.contains("° N, 12.") && text.contains("° E (zoom 0–14), outside this view."), text)
        let button = try h.waitForEvent("widget", after: message.index, timeout: 10) { $0["name"] as? String == "banner-action" }
        try h.click(at: button.event["x"] as? Double ?? 0, button.event["y"] as? Double ?? 0)
        let shown = try h.waitForEvent("tile-area-shown", after: button.index, timeout: 10)
        let end = try h.waitForEvent("flight-end", after: shown.index, timeout: 10)
        let frame = try h.waitForEvent("frame", after: end.index, timeout: 10)
        let lat = frame.event["lat"] as? Double ?? 0, lon = frame.event["lon"] as? Double ?? 0
        XCTAssertEqual(lat, 51.34, accuracy: 0.15, "over Leipzig: \(frame.event)")
        XCTAssertEqual(lon, 12.39, accuracy: 0.25, "over Leipzig: \(frame.event)")
    }

    /// `--basemap osm` with no network (the tests' machine has none): one quiet notice, not one
    /// per tile, and not again after the view moves.
    func testAnUnreachableOnlineMapSaysSoOnce() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--basemap", "https://127.0.0.1:9/{z}/{x}/{y}.png"])
        let message = try h.waitForEvent("message", timeout: 30) { ($0["text"] as? String ?? "").contains("No map tiles") }
        XCTAssertEqual(message.event["error"] as? Bool, false, "a quiet notice, not an error")
        XCTAssertEqual(message.event["text"] as? String, "No map tiles from 127.0.0.1 (offline?): showing the built-in map.")
        try h.key("minus")
        _ = try h.waitForEvent("tiles", after: message.index, timeout: 15)
        let beforeSecond = h.events().count
        try h.key("minus")
        // The new view's tiles fail too: that failure is handled, and no second notice comes.
        let again = try h.waitForEvent("tiles-offline", after: beforeSecond, timeout: 15) { $0["noticed"] as? Bool == true }
        let notices = h.events()[...again.index].filter { ($0["event"] as? String) == "message" && ($0["text"] as? String ?? "").contains("No map tiles") }
        XCTAssertEqual(notices.count, 1)
    }
}

extension FeedbackTests {
    /// A banner shown first moves to the bottom when a callout card opened later would sit under
    /// it (its place was decided only when the message appeared).
    func testAShownBannerMovesOffACardOpenedLater() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--size", "1100x700", "--basemap", "https://127.0.0.1:9/{z}/{x}/{y}.png"])
        let message = try h.waitForEvent("message", timeout: 30) { ($0["text"] as? String ?? "").contains("No map tiles") }
        XCTAssertFalse(h.events().contains { ($0["event"] as? String) == "banner-place" }, "at the top while no card is open")
        // The place nearest the top: its card opens upwards, under the banner.
        let scene = try h.waitForEvent("scene", timeout: 10) { !($0["pins"] as? [[String: Any]] ?? []).isEmpty }
        let top = try XCTUnwrap((scene.event["pins"] as? [[String: Any]] ?? []).min { ($0["y"] as? Double ?? 0) < ($1["y"] as? Double ?? 0) })
        try h.click(at: top["x"] as? Double ?? 0, top["y"] as? Double ?? 0)
        let opened = try h.waitForEvent("callout", after: message.index, timeout: 10)
        let moved = try h.waitForEvent("banner-place", after: opened.index, timeout: 10)
        XCTAssertEqual(moved.event["bottom"] as? Bool, true, "\(opened.event)")
    }
}
