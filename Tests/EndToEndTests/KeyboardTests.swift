import XCTest

/// Keyboard only (SPEC §5.7): Tab to the bubble, Enter flies in, Tab to a place, Enter selects.
final class KeyboardTests: XCTestCase {
    func testTabEnterFlyThenTabEnterSelect() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView)
        let scene = try h.waitForEvent("scene") { !(($0["bubbles"] as? [Any]) ?? []).isEmpty }
        try h.key("Tab")
        let focus = try h.waitForEvent("focus", after: scene.index)
        XCTAssertEqual(focus.event["kind"] as? String, "bubble")
        XCTAssertTrue((focus.event["name"] as? String ?? "").hasPrefix("9 places"), "\(focus.event)")
        try h.key("Return")
        let start = try h.waitForEvent("flight-start", after: focus.index)
        let end = try h.waitForEvent("flight-end", after: start.index, timeout: 10)
        let settled = try h.waitForEvent("scene", after: end.index)

        // Focus followed the bubble into what it split into; Escape backs out to the map, then
        // Tab walks the items from the first in reading order until a place has focus.
        // X delivers the keys in order: the Tabs below start from the map (Escape logs nothing).
        try h.key("Escape")
        var place: [String: Any]?
        var last = h.events().count - 1
        _ = settled
        for _ in 0..<12 {
            try h.key("Tab")
            let f = try h.waitForEvent("focus", after: last + 1)
            last = f.index
            if f.event["kind"] as? String == "place" { place = f.event; break }
        }
        guard let place else { return XCTFail("no place reached with Tab") }
        try h.key("Return")
        let select = try h.waitForEvent("select", after: last)
        XCTAssertEqual(select.event["name"] as? String, place["name"] as? String)
        XCTAssertEqual(select.event["id"] as? Int, place["id"] as? Int)
        // Escape closes the callout, then backs focus out to the map.
        try h.key("Escape")
        try h.waitForEvent("deselect", after: select.index)
    }
}
