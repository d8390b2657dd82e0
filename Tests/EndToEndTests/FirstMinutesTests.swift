import XCTest

/// What a new user hits first (issue 12): a real double-click zooms, one click on a bubble reveals
/// its members, and the demos open framed on their data.
final class FirstMinutesTests: XCTestCase {
    /// The pin named `name` in a scene event (window coordinates).
    private func pin(_ name: String, in scene: [String: Any]) -> (x: Double, y: Double)? {
        guard let p = (scene["pins"] as? [[String: Any]])?.first(where: { $0["name"] as? String == name }) else { return nil }
        return (p["x"] as! Double, p["y"] as! Double)
    }

    /// SPEC §5.1: a real double-click on the empty map zooms in exactly one level, keeping the
    /// place under the pointer where it was (a pin 150 px away ends up 300 px away).
    func testARealDoubleClickZoomsInOneLevelAtThePointer() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--center", "40.4531,-3.70", "--zoom", "13"])
        let before = try h.waitForEvent("scene", timeout: 30) { self.pin("Bernabéu Stadium", in: $0) != nil }
        let stadium = pin("Bernabéu Stadium", in: before.event)!
        let pointer = (x: stadium.x - 150, y: stadium.y + 40)
        // Move and double-click in one call: X delivers the motion before the presses.
        try h.run("xdotool", ["mousemove", "--window", h.windowID, String(Int(pointer.x.rounded())), String(Int(pointer.y.rounded())),
                              "click", "--repeat", "2", "--delay", "80", "1"])
        let camera = try h.waitForEvent("camera", after: before.index, timeout: 10)
        XCTAssertEqual(camera.event["zoom"] as! Double, 14, accuracy: 1e-6, "one level, not 0.0003")
        let after = try h.waitForEvent("scene", after: camera.index, timeout: 10)
        let moved = try XCTUnwrap(pin("Bernabéu Stadium", in: after.event))
        XCTAssertEqual(moved.x, pointer.x + 2 * (stadium.x - pointer.x), accuracy: 1.5)
        XCTAssertEqual(moved.y, pointer.y + 2 * (stadium.y - pointer.y), accuracy: 1.5)
        XCTAssertNil(h.events()[before.index...].first { $0["event"] as? String == "select" }, "a double-click on the map selects nothing")
    }

    /// SPEC §5.2: from the world, one click on the Madrid bubble flies deep enough that its places
    /// show (five clicks were needed before).
    func testOneClickOnTheMadridBubbleRevealsItsPlaces() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView)
        let world = try h.waitForEvent("scene", timeout: 30) { (($0["bubbles"] as? [[String: Any]]) ?? []).count == 1 }
        let bubble = (world.event["bubbles"] as! [[String: Any]])[0]
        XCTAssertEqual(bubble["count"] as? Int, 9)
        try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double)
        let end = try h.waitForEvent("flight-end", after: world.index, timeout: 15)
        let scene = try h.waitForEvent("scene", after: end.index, timeout: 10)
        let bubbles = scene.event["bubbles"] as! [[String: Any]]
        let pins = scene.event["pins"] as! [[String: Any]]
        XCTAssertEqual(bubbles.reduce(0) { $0 + ($1["count"] as! Int) } + pins.count, 9, "all nine in view")
        XCTAssertGreaterThanOrEqual(pins.count, 2, "places show as pins after one click: \(pins)")
        XCTAssertGreaterThanOrEqual(bubbles.count + pins.count, 4, "the bubble split into at least 4 items: \(scene.event)")
        let camera = try h.waitForEvent("camera", after: end.index)
        XCTAssertGreaterThan(camera.event["zoom"] as! Double, 12, "the deepest zoom at which all nine fit")
    }

    /// The Lisbon demo opens framed on its six stays; the earthquakes (a global file) open fitted
    /// but never so far out that the world shows twice.
    func testDemosOpenFittedToTheirData() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "lisbon"])
        let loaded = try h.waitForEvent("load-done", timeout: 30)
        let camera = try h.waitForEvent("camera", after: loaded.index, timeout: 10)
        let scene = try h.waitForEvent("scene", after: camera.index, timeout: 10)
        XCTAssertGreaterThan(camera.event["zoom"] as! Double, 13, "\(camera.event)")
        let bubbles = scene.event["bubbles"] as! [[String: Any]]
        let pins = scene.event["pins"] as! [[String: Any]]
        XCTAssertEqual(bubbles.reduce(0) { $0 + ($1["count"] as! Int) } + pins.count, 6, "all six stays in view")

        let quakes = try AppHarness()
        defer { quakes.stop() }
        try quakes.launch(["--dataset", "earthquakes", "--size", "1280x800"])
        let done = try quakes.waitForEvent("load-done", timeout: 60)
        let fitted = try quakes.waitForEvent("camera", after: done.index, timeout: 10)
        // At 1280 px wide the world fills the view at zoom log2(1280/256) ≈ 2.32; the drawing area
        // is at most that wide.
        XCTAssertGreaterThanOrEqual(fitted.event["zoom"] as! Double, log2(1200.0 / 256), "the world is not shown twice")
        XCTAssertLessThan(fitted.event["zoom"] as! Double, 3, "yet the whole world's quakes are in view")
    }

    /// SPEC §5.1: one wheel notch zooms exactly one level (it was half a level).
    func testOneWheelNotchIsOneZoomLevel() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--center", "40.42,-3.70", "--zoom", "11"])
        let first = try h.waitForEvent("camera", timeout: 30) { ($0["zoom"] as! Double) == 11 }
        // Move and scroll in one call: the app keeps the pointer from the motion, which X
        // delivers before the wheel (GTK 4.8's scroll events carry no position).
        try h.run("xdotool", ["mousemove", "--window", h.windowID, "640", "420", "click", "4"])
        let after = try h.waitForEvent("camera", after: first.index + 1, timeout: 10)
        XCTAssertEqual(after.event["zoom"] as! Double, 12, accuracy: 1e-6)
    }

    /// SPEC §7: a legend explains the colours in use (read from the event log, which carries the
    /// same text the screen reader gets), and the earthquake bubbles are coloured, not blue.
    func testTheLegendSaysWhatTheColoursMean() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"])
        let legend = try h.waitForEvent("legend", timeout: 30)
        XCTAssertEqual(legend.event["title"] as? String, "Category")
        let entries = legend.event["entries"] as? [String] ?? []
        XCTAssertTrue(entries.contains("museum") && entries.contains("stadium"), "\(entries)")
        XCTAssertTrue(entries.contains { $0.contains("ring") }, "\(entries)")
        let shot = try h.screenshot(name: "legend") {
            $0.fraction(near: (253, 253, 252), tolerance: 5, region: (x: 25, y: 80, w: 180, h: 110)) > 0.3
        }
        // The card is light (theme base colour) over the map's land tone in the top-left corner.
        XCTAssertGreaterThan(shot.fraction(near: (253, 253, 252), tolerance: 5, region: (x: 25, y: 80, w: 180, h: 110)), 0.3, shot.path)
        // With the In View panel open the legend shows at its foot, and only there (issue 32 item
        // 11): the corner card steps aside; closed again, it is back.
        try h.key("F9")
        let panel = try h.waitForEvent("list-panel") { $0["shown"] as? Bool == true }
        let open = try h.screenshot(name: "legend-panel-open") {
            $0.fraction(near: (253, 253, 252), tolerance: 5, region: (x: 25, y: 80, w: 180, h: 110)) < 0.05
        }
        XCTAssertLessThan(open.fraction(near: (253, 253, 252), tolerance: 5, region: (x: 25, y: 80, w: 180, h: 110)), 0.05, open.path)
        try h.key("F9")
        _ = try h.waitForEvent("list-panel", after: panel.index) { $0["shown"] as? Bool == false }
        let closed = try h.screenshot(name: "legend-panel-closed") {
            $0.fraction(near: (253, 253, 252), tolerance: 5, region: (x: 25, y: 80, w: 180, h: 110)) > 0.3
        }
        XCTAssertGreaterThan(closed.fraction(near: (253, 253, 252), tolerance: 5, region: (x: 25, y: 80, w: 180, h: 110)), 0.3, closed.path)
    }
}
