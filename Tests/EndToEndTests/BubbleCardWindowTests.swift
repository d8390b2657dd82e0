import XCTest

/// A bubble's card in the real window (issue 29 item 5): a right click on a bubble opens it and
/// the `bubble-card` event says the bubble, its exact count and its total (brute force over the
/// fixture); Escape closes it; Shift+Enter on the focused bubble opens it from the keyboard and
/// L lists its places in the pick list; Shift+Enter on a bubble's In View row opens it too.
final class BubbleCardWindowTests: XCTestCase {
    func testRightClickOpensTheBubblesCardAndTheKeyboardToo() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // Two towns far apart: 23 places around Madrid, 9 around Lisbon, with a damage each.
        var csv = "lat,lon,name,category,damage\n"
        var madridSum = 0.0
        for i in 0..<23 {
            let d = Double(1_000 + i * 137)
            madridSum += d
            csv += "\(40.40 + Double(i % 5) * 0.002),\(-3.70 + Double(i / 5) * 0.002),M\(i),\(["fire", "flood"][i % 2]),\(d)\n"
        }
        for i in 0..<9 { csv += "\(38.70 + Double(i) * 0.002),-9.14,L\(i),theft,\(i)\n" }
        let path = h.workDir + "/cases.csv"
        try csv.write(toFile: path, atomically: true, encoding: .utf8)
        try h.launch([path, "--total", "sum:damage", "--center", "39.5,-6.4", "--zoom", "5"])
        let scene = try h.waitForEvent("scene", timeout: 30) { e in
            ((e["bubbles"] as? [[String: Any]]) ?? []).contains { $0["count"] as? Int == 23 }
        }
        let bubble = ((scene.event["bubbles"] as? [[String: Any]]) ?? []).first { $0["count"] as? Int == 23 }!
        try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double, button: 3)
        let card = try h.waitForEvent("bubble-card", after: scene.index)
        XCTAssertEqual(card.event["id"] as? Int, bubble["id"] as? Int)
        XCTAssertEqual(card.event["count"] as? Int, 23)
        XCTAssertEqual(card.event["title"] as? String, "23 places")
        let total = (card.event["totals"] as? [[String: Any]])?.first
        XCTAssertEqual(total?["title"] as? String, "Total damage")
        XCTAssertEqual(total?["value"] as? Double, madridSum)
        let categories = (card.event["categories"] as? [[String: Any]]) ?? []
        XCTAssertEqual(categories.compactMap { $0["count"] as? Int }.reduce(0, +), 23, "\(categories)")
        XCTAssertEqual(card.event["buttons"] as? [String], ["zoomIn", "listPlaces"])
        // A right click is not a click: no flight started.
        XCTAssertTrue(h.events(named: "flight-start", after: scene.index).isEmpty)

        try h.key("Escape")
        let closed = try h.waitForEvent("bubble-card-close", after: card.index)
        XCTAssertEqual(closed.event["id"] as? Int, bubble["id"] as? Int)

        // The keyboard: Tab to a bubble, Shift+Enter opens its card, L lists its places.
        try h.key("Tab")
        let focus = try h.waitForEvent("focus", after: closed.index)
        XCTAssertEqual(focus.event["kind"] as? String, "bubble")
        try h.key("shift+Return")
        let keyed = try h.waitForEvent("bubble-card", after: focus.index)
        XCTAssertEqual(keyed.event["id"] as? Int, focus.event["id"] as? Int)
        try h.key("l")
        let list = try h.waitForEvent("fan-open", after: keyed.index)
        XCTAssertEqual(list.event["list"] as? Bool, true)
        XCTAssertEqual(list.event["count"] as? Int, keyed.event["count"] as? Int)

        // The In View list: a bubble's row takes Shift+Enter too (picking the row focuses its
        // bubble on the map, whose card opens). Keys as XTEST events: the list ignores synthetic ones.
        try h.pressKey("Escape")
        let listClosed = try h.waitForEvent("fan-close", after: list.index)
        try h.key("F9")
        let panel = try h.waitForEvent("list-panel", after: listClosed.index)
        try h.pressKey("Down")
        let row = try h.waitForEvent("focus", after: panel.index) { $0["kind"] as? String == "bubble" }
        try h.pressKey("shift+Return")
        let fromRow = try h.waitForEvent("bubble-card", after: row.index)
        XCTAssertEqual(fromRow.event["id"] as? Int, row.event["id"] as? Int)
        h.assertNoGtkWarnings()
    }

    /// A remote bubble (a cluster-tile file opened as data): its card says its `point_count` and the
    /// totals the file wrote (`damage_sum` …), exactly; the hover tooltip is covered by the pure tests.
    func testAClusterTileBubblesCardSaysWhatTheFileWrote() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        var csv = "lat,lon,name,damage\n"
        var sum = 0
        for i in 0..<30 {
            sum += 100 + i
            csv += "\(48.85 + Double(i % 6) * 0.003),\(2.35 + Double(i / 6) * 0.003),P\(i),\(100 + i)\n"
        }
        let data = h.workDir + "/paris.csv", tiles = h.workDir + "/paris.pmtiles"
        try csv.write(toFile: data, atomically: true, encoding: .utf8)
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: AppHarness.binaryPath)
        writer.arguments = ["tiles", data, "--output", tiles, "--max-zoom", "12", "--total", "damage"]
        try writer.run()
        writer.waitUntilExit()
        XCTAssertEqual(writer.terminationStatus, 0)
        try h.launch([tiles, "--center", "48.86,2.36", "--zoom", "6"])
        let scene = try h.waitForEvent("scene", timeout: 30) { e in
            ((e["bubbles"] as? [[String: Any]]) ?? []).contains { $0["count"] as? Int == 30 }
        }
        let bubble = ((scene.event["bubbles"] as? [[String: Any]]) ?? []).first { $0["count"] as? Int == 30 }!
        try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double, button: 3)
        let card = try h.waitForEvent("bubble-card", after: scene.index)
        XCTAssertEqual(card.event["id"] as? Int, bubble["id"] as? Int)
        XCTAssertEqual(card.event["count"] as? Int, 30)
        let total = (card.event["totals"] as? [[String: Any]])?.first
        XCTAssertEqual(total?["title"] as? String, "Total damage")
        XCTAssertEqual(total?["value"] as? Double, Double(sum))
        XCTAssertTrue((card.event["lines"] as? [String] ?? []).contains { $0.hasPrefix("Centre: ") }, "\(card.event)")
        XCTAssertEqual(card.event["buttons"] as? [String], ["zoomIn"], "the members are the file's: no list")
        h.assertNoGtkWarnings()
    }
}
