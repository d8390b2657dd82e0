import XCTest
import Foundation

/// One selection path (issue 28 item 1, issue 33 item 4): a place selected before a live update
/// keeps its whole card after it — close button, "Copy coordinates", the same width — and the
/// buttons work, clicked for real where the log says they are.
final class LiveSelectionTests: XCTestCase {
    private func button(_ action: String, in callout: [String: Any]) -> (Double, Double)? {
        guard let b = (callout["buttons"] as? [[String: Any]])?.first(where: { $0["action"] as? String == action }) else { return nil }
        return (b["x"] as? Double ?? 0, b["y"] as? Double ?? 0)
    }

    private func actions(_ callout: [String: Any]) -> Set<String> {
        Set((callout["buttons"] as? [[String: Any]] ?? []).compactMap { $0["action"] as? String })
    }

    func testTheCardKeepsItsButtonsThroughALiveUpdateAndTheyWork() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        let path = h.workDir + "/places.geojsonl"
        let a = LiveDataTests.feature("a", 40.40, -3.70, name: "Alpha"), b = LiveDataTests.feature("b", 40.50, -3.60, name: "Beta")
        try (a + "\n" + b + "\n").write(toFile: path, atomically: false, encoding: .utf8)
        try h.launch([path, "--center", "40.45,-3.65", "--zoom", "9"])
        _ = try h.waitForEvent("watch", timeout: 30)
        let scene = try h.waitForEvent("scene", timeout: 30) { ($0["pins"] as? [[String: Any]] ?? []).count == 2 }
        let beta = try XCTUnwrap((scene.event["pins"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "Beta" })
        try h.click(at: beta["x"] as? Double ?? 0, beta["y"] as? Double ?? 0)
        let opened = try h.waitForEvent("callout", after: scene.index, timeout: 10)
        XCTAssertEqual(opened.event["title"] as? String, "Beta")
        XCTAssertTrue(actions(opened.event).isSuperset(of: ["close", "copyCoordinates"]), "\(opened.event)")

        // Alpha moves: Beta's card is read again from the new data, buttons and all.
        try (LiveDataTests.feature("a", 40.41, -3.69, name: "Alpha") + "\n" + b + "\n")
            .write(toFile: path, atomically: false, encoding: .utf8)
        let changed = try h.waitForEvent("data-changed", after: opened.index, timeout: 20)
        XCTAssertEqual(changed.event["moved"] as? Int, 1)
        let card = try h.waitForEvent("callout", after: changed.index, timeout: 10)
        XCTAssertEqual(card.event["title"] as? String, "Beta")
        XCTAssertEqual(actions(card.event), actions(opened.event), "the same buttons after the update")
        XCTAssertEqual(card.event["width"] as? Double, opened.event["width"] as? Double, "the same card width")
        XCTAssertEqual(card.event["height"] as? Double, opened.event["height"] as? Double, "the same card height")

        // Its buttons work: "Copy coordinates" copies Beta's, then close deselects.
        let copy = try XCTUnwrap(button("copyCoordinates", in: card.event))
        try h.click(at: copy.0, copy.1)
        let copied = try h.waitForEvent("copy", after: card.index, timeout: 10)
        XCTAssertEqual(copied.event["text"] as? String, "40.50000, -3.60000")
        let latest = try h.waitForEvent("callout", after: copied.index, timeout: 10)
        let close = try XCTUnwrap(button("close", in: latest.event))
        try h.click(at: close.0, close.1)
        let pressed = try h.waitForEvent("callout-button", after: latest.index, timeout: 10)
        XCTAssertEqual(pressed.event["action"] as? String, "close")
        _ = try h.waitForEvent("deselect", after: pressed.index, timeout: 10)
        h.assertNoGtkWarnings()
    }
}
