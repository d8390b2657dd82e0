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

    /// Issue 32 item 7: after Enter flies into a bubble, focus is on the first of its parts in
    /// reading order and every following Tab stays on the map's items until each has had focus;
    /// it used to land on the item nearest the old bubble, and from there Tab soon left the map
    /// for the header's Open button (Enter then opened the file chooser).
    func testTabAfterEnterFlyStaysOnTheMapsItems() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView)
        let scene = try h.waitForEvent("scene") { !(($0["bubbles"] as? [Any]) ?? []).isEmpty }
        try h.key("Tab")
        let focus = try h.waitForEvent("focus", after: scene.index)
        XCTAssertEqual(focus.event["kind"] as? String, "bubble")
        try h.key("Return")
        let end = try h.waitForEvent("flight-end", after: focus.index, timeout: 10)
        let part = try h.waitForEvent("focus", after: end.index, timeout: 10)
        XCTAssertNotEqual(part.event["id"] as? Int, focus.event["id"] as? Int, "focus moved to a part: \(part.event)")
        usleep(400_000)
        let settled = try XCTUnwrap(h.events().last { $0["event"] as? String == "scene" })
        let items = ((settled["bubbles"] as? [Any]) ?? []).count + ((settled["pins"] as? [Any]) ?? []).count
        XCTAssertGreaterThan(items, 2, "the bubble split into several items: \(settled)")
        var seen: Set<Int> = [part.event["id"] as? Int ?? -1]
        var last = h.events().count - 1
        for step in 1..<items {
            try h.key("Tab")
            let next = try h.waitForEvent("focus", after: last + 1, timeout: 5)
            last = next.index
            seen.insert(next.event["id"] as? Int ?? -1)
            XCTAssertEqual(seen.count, step + 1, "Tab \(step) moved to an item not yet focused: \(next.event)")
        }
        XCTAssertFalse(h.events().dropFirst(end.index).contains { $0["event"] as? String == "open" }, "no file chooser")
    }
}
