import XCTest
import Foundation

/// A bubble's card for screen readers (issue 29 item 5, SPEC §5.7), through the real AT-SPI
/// bus: picking a bubble's In View row and pressing Shift+Enter opens its card, and the map's
/// accessible description reads what the card says and which keys act on it.
final class BubbleCardAccessibilityTests: XCTestCase {
    func testTheOpenCardIsTheMapsDescription() throws {
        try AppHarness.requireTools()
        try AccessibilityBus.requireTools()
        let bus = try AccessibilityBus()
        defer { bus.stop() }
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView, accessibilityBus: bus)
        let scene = try h.waitForEvent("scene") { !(($0["bubbles"] as? [Any]) ?? []).isEmpty }
        try h.key("F9")
        let panel = try h.waitForEvent("list-panel", after: scene.index) { $0["shown"] as? Bool == true }
        let origin = (panel.event["origin_x"] as? Double ?? 0, panel.event["origin_y"] as? Double ?? 0)
        _ = try h.waitForEvent("list", after: panel.index)
        func tree() throws -> AccessibilityTests.Tree {
            try JSONDecoder().decode(AccessibilityTests.Tree.self,
                                     from: Data(try bus.python(AccessibilityTests.probe, display: h.display).utf8))
        }
        let row = try XCTUnwrap(try tree().rows.first { $0.name.hasPrefix("9 places") })
        try h.click(at: origin.0 + row.x + row.w / 2, origin.1 + row.y + row.h / 2)
        let focus = try h.waitForEvent("focus", after: panel.index) { $0["kind"] as? String == "bubble" }
        try h.pressKey("shift+Return")
        let card = try h.waitForEvent("bubble-card", after: focus.index)
        XCTAssertEqual(card.event["count"] as? Int, 9)
        var described = ""
        try AppHarness.poll(timeout: 10) {
            described = try tree().map?.description ?? ""
            return described.hasPrefix("Bubble: 9 places")
        }
        print("map description with the card open: \(described)")
        XCTAssertTrue(described.hasPrefix("Bubble: 9 places. "), described)
        XCTAssertTrue(described.contains("Museum: "), "its categories with counts: \(described)")
        XCTAssertTrue(described.hasSuffix("Enter zooms in, L lists the places, Escape closes."), described)
        XCTAssertFalse(described.contains("●"), "no drawing characters read out: \(described)")

        // Closed, then a right click on the bubble's row opens its card again.
        try h.pressKey("Escape")
        let closed = try h.waitForEvent("bubble-card-close", after: card.index)
        try h.click(at: origin.0 + row.x + row.w / 2, origin.1 + row.y + row.h / 2, button: 3)
        let rightClicked = try h.waitForEvent("bubble-card", after: closed.index)
        XCTAssertEqual(rightClicked.event["count"] as? Int, 9)
        XCTAssertEqual(rightClicked.event["id"] as? Int, card.event["id"] as? Int)
    }
}
