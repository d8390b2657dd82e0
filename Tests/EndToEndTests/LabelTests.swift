import XCTest

/// The base-map names in the real window, read back from the `scene` event's `labels`: they arrive
/// in the background after the first frame, never overlap each other or the data's marks, are
/// really drawn (ink in their boxes), and move with the map when it is dragged.
final class LabelTests: XCTestCase {
    struct Label: Equatable {
        var text: String, x: Double, y: Double, width: Double, height: Double
        func overlaps(_ o: Label) -> Bool { x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height }
    }

    func labels(_ event: [String: Any]) -> [Label] {
        (event["labels"] as? [[String: Any]] ?? []).map {
            Label(text: $0["text"] as! String, x: $0["x"] as! Double, y: $0["y"] as! Double,
                  width: $0["width"] as! Double, height: $0["height"] as! Double)
        }
    }

    func testNamesAppearStayClearOfMarksAndMoveWithTheMap() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--center", "40.42,-3.70", "--zoom", "11"])
        let loaded = try h.waitForEvent("basemap-labels", timeout: 60)
        XCTAssertGreaterThan(loaded.event["count"] as! Int, 100_000, "Natural Earth and GeoNames names")
        let scene = try h.waitForEvent("scene", after: loaded.index, timeout: 15) { !(($0["labels"] as? [Any]) ?? []).isEmpty }
        let shown = labels(scene.event)
        XCTAssertGreaterThan(shown.count, 8, "a zoom-11 view of Madrid names its districts and towns")
        XCTAssertTrue(shown.contains { $0.text == "Madrid" } || shown.count > 15)
        for (i, a) in shown.enumerated() {
            for b in shown[(i + 1)...] { XCTAssertFalse(a.overlaps(b), "\(a.text) overlaps \(b.text)") }
        }
        // No label under a bubble or a pin.
        for b in scene.event["bubbles"] as? [[String: Any]] ?? [] {
            let r = (b["r"] as! Double) + 1
            let box = Label(text: "", x: (b["x"] as! Double) - r, y: (b["y"] as! Double) - r, width: 2 * r, height: 2 * r)
            for l in shown { XCTAssertFalse(l.overlaps(box), "\(l.text) under a bubble") }
        }
        for p in scene.event["pins"] as? [[String: Any]] ?? [] {
            let box = Label(text: "", x: (p["x"] as! Double) - 8, y: (p["y"] as! Double) - 8, width: 16, height: 16)
            for l in shown { XCTAssertFalse(l.overlaps(box), "\(l.text) under a pin") }
        }
        // The names are drawn: their boxes hold dark ink on the light land.
        try assertInked(shown, h.screenshot(name: "labels"), limit: 5)
        // Drag the map 120 px right and 40 px down: every name still on screen moves with it. The
        // map may glide on after the release (kinetic inertia, depending on how fast the pointer
        // events were handled), so the expected shift is the camera's, from its `camera` events.
        try h.drag(from: (500, 400), to: (620, 440))
        let after = try h.waitForEvent("scene", after: scene.index + 1, timeout: 15)
        let events = h.events()
        func centre(before index: Int) -> (x: Double, y: Double)? {
            guard let c = events[..<index].last(where: { $0["event"] as? String == "camera" }),
                  let lat = c["lat"] as? Double, let lon = c["lon"] as? Double, let z = c["zoom"] as? Double
            else { return nil }
            let size = 256 * pow(2, z), s = sin(lat * .pi / 180)
            return ((lon + 180) / 360 * size, (0.5 - log((1 + s) / (1 - s)) / (4 * .pi)) * size)
        }
        let c0 = try XCTUnwrap(centre(before: scene.index + 1)), c1 = try XCTUnwrap(centre(before: after.index + 1))
        let shiftX = c0.x - c1.x, shiftY = c0.y - c1.y
        XCTAssertGreaterThan(shiftX, 117, "the map moved at least as far as the pointer dragged it")
        XCTAssertGreaterThan(shiftY, 37)
        let moved = Dictionary(labels(after.event).map { ($0.text, $0) }, uniquingKeysWith: { a, _ in a })
        var matched = 0
        for l in shown where l.x > 10 && l.x + l.width + max(0, shiftX - 120) < 1100 && l.y > 60
            && l.y + l.height + max(0, shiftY - 40) < 700 {
            guard let m = moved[l.text] else { XCTFail("'\(l.text)' vanished after a drag"); continue }
            XCTAssertEqual(m.x - l.x, shiftX, accuracy: 2.5, l.text)
            XCTAssertEqual(m.y - l.y, shiftY, accuracy: 2.5, l.text)
            matched += 1
        }
        XCTAssertGreaterThan(matched, 4)
        // At rest after the drag every name is painted: names that came into view while the map
        // moved were left to the background sprite worker, and the frame the rest event reports
        // on must have been drawn at rest (making them), not be the last frame of the motion.
        let lastFrame = try XCTUnwrap(events[..<after.index].last { $0["event"] as? String == "frame" })
        XCTAssertEqual(lastFrame["moving"] as? Bool, false, "the last frame before the rest event was drawn in motion")
        XCTAssertEqual(lastFrame["deferred"] as? Int, 0, "names still waiting for their sprites at rest")
        XCTAssertEqual(lastFrame["labels"] as? Int, labels(after.event).count + ((after.event["names"] as? [Any])?.count ?? 0))
        try assertInked(labels(after.event), h.screenshot(name: "labels-after-drag"), limit: 12)
    }

    /// Each of the first `limit` names wider than 30 px wholly in the view has dark ink in its box.
    private func assertInked(_ shown: [Label], _ shot: Screenshot, limit: Int,
                             file: StaticString = #filePath, line: UInt = #line) {
        let big = shown.filter { $0.width > 30 && $0.x > 0 && $0.y > 0 && $0.x + $0.width < Double(shot.width)
            && $0.y + $0.height < Double(shot.height) }.prefix(limit)
        XCTAssertFalse(big.isEmpty, file: file, line: line)
        for l in big {
            var darkest = 255
            for y in Int(l.y)..<Int(l.y + l.height) {
                for x in Int(l.x)..<Int(l.x + l.width) {
                    let (r, g, b) = shot.rgb(x, y)
                    darkest = min(darkest, (r + g + b) / 3)
                }
            }
            XCTAssertLessThan(darkest, 150, "no ink in the box of '\(l.text)' in \(shot.path)", file: file, line: line)
        }
    }
}
