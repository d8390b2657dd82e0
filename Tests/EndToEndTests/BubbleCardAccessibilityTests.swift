import XCTest
import Foundation

/// A bubble's card for screen readers (issue 29 item 5, SPEC §5.7), through the real AT-SPI
/// bus: picking a bubble's In View row and pressing Shift+Enter opens its card, and the map's
/// accessible description reads what the card says and which keys act on it.
final class BubbleCardAccessibilityTests: XCTestCase {
    func testTheOpenCardIsTheMapsDescription() throws {
        let (h, bus) = try AccessibilityTests.harnessOnBus()
        defer { h.stop(); bus.stop() }
        let madrid = try AccessibilityTests.launchMadridWithList(h, bus: bus)
        let origin = madrid.origin
        func tree() throws -> AccessibilityTests.Tree { try AccessibilityTests.readTree(bus, h) }
        let row = try XCTUnwrap(try tree().rows.first { $0.name.hasPrefix("9 places") })
        try h.click(at: origin.0 + row.x + row.w / 2, origin.1 + row.y + row.h / 2)
        let focus = try h.waitForEvent("focus", after: madrid.panelIndex) { $0["kind"] as? String == "bubble" }
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

/// The card's buttons are real accessible buttons (issue 29): a screen reader lists them by
/// name, Tab from the map reaches them in the card's order, Enter presses them.
final class BubbleCardButtonsAccessibilityTests: XCTestCase {
    /// Lists the push buttons named as the card's are, with their focus, once `wanted` of them
    /// are in the tree (and, when given, the one named `focused` has the focus).
    static func probe(focused: String?) -> String {
        AccessibilityTests.probePrelude + """
        names = ["Zoom In", "List Places", "Close the bubble's card"]
        focused = \(focused.map { "\"\($0)\"" } ?? "None")
        def walk(node, out, depth=0):
            if node is None or depth > 40: return
            try:
                if node.getRoleName() == 'push button' and node.name in names:
                    out.append({"name": node.name, "focused": node.getState().contains(pyatspi.STATE_FOCUSED)})
                for c in node: walk(c, out, depth + 1)
            except Exception: return
        deadline = time.time() + 12
        while True:
            try:
                out = []
                walk(app(), out)
                if len(out) == 3 and (focused is None or any(b["name"] == focused and b["focused"] for b in out)):
                    print(json.dumps(out)); sys.exit(0)
            except Exception as e:
                err = e
            if time.time() > deadline:
                print("card buttons not in the tree: " + json.dumps(out), file=sys.stderr); sys.exit(2)
            time.sleep(0.3)  # how often the tree is read again (a condition wait, not a guess)
        """
    }

    struct Button: Decodable { let name: String; let focused: Bool }

    func testTheCardsButtonsAreNamedReachedByTabAndPressedByEnter() throws {
        let (h, bus) = try AccessibilityTests.harnessOnBus()
        defer { h.stop(); bus.stop() }
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView, accessibilityBus: bus)
        let scene = try h.waitForEvent("scene") { !(($0["bubbles"] as? [Any]) ?? []).isEmpty }
        func buttons(focused: String? = nil) throws -> [Button] {
            try JSONDecoder().decode([Button].self, from: Data(try bus.python(Self.probe(focused: focused), display: h.display).utf8))
        }
        // The map's Tab focuses the bubble; Shift+Enter opens its card.
        try h.key("Tab")
        let focus = try h.waitForEvent("focus", after: scene.index) { $0["kind"] as? String == "bubble" }
        try h.key("shift+Return")
        let card = try h.waitForEvent("bubble-card", after: focus.index)
        XCTAssertEqual(card.event["buttons"] as? [String], ["zoomIn", "listPlaces"])
        let listed = try buttons()
        XCTAssertEqual(listed.map(\.name), ["Zoom In", "List Places", "Close the bubble's card"], "the links first, then ×")
        XCTAssertFalse(listed.contains(where: \.focused), "the map keeps the focus until Tab")

        // Tab reaches Zoom In, then List Places; Enter presses it: the card's own list opens.
        try h.key("Tab")
        XCTAssertTrue(try buttons(focused: "Zoom In").contains { $0.name == "Zoom In" && $0.focused })
        try h.key("Tab")
        XCTAssertTrue(try buttons(focused: "List Places").contains { $0.name == "List Places" && $0.focused })
        try h.key("Return")
        let pressed = try h.waitForEvent("bubble-card-button", after: card.index)
        XCTAssertEqual(pressed.event["action"] as? String, "listPlaces")
        XCTAssertEqual(pressed.event["id"] as? Int, card.event["id"] as? Int)
        let fan = try h.waitForEvent("fan-open", after: pressed.index)
        XCTAssertEqual(fan.event["count"] as? Int, 9, "\(fan.event)")
    }
}
