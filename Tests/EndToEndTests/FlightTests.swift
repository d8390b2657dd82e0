import XCTest

/// Click a bubble → the camera flies (or jumps, with reduced motion) until it splits (SPEC §5.2, §5.6).
final class FlightTests: XCTestCase {
    private func bubbleScene(_ h: AppHarness) throws -> (bubble: [String: Any], index: Int) {
        let scene = try h.waitForEvent("scene", timeout: 30) { e in
            !((e["bubbles"] as? [[String: Any]]) ?? []).isEmpty
        }
        let bubbles = scene.event["bubbles"] as! [[String: Any]]
        XCTAssertEqual(bubbles.count, 1, "the nine Madrid places are one bubble at world view")
        XCTAssertEqual(bubbles[0]["count"] as? Int, 9)
        return (bubbles[0], scene.index)
    }

    func testClickingABubbleFliesInUntilAllNinePlacesShow() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid"] + AppHarness.worldView)
        let (bubble, index) = try bubbleScene(h)
        try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double)
        let start = try h.waitForEvent("flight-start", after: index)
        XCTAssertEqual(start.event["reduced"] as? Bool, false)
        let end = try h.waitForEvent("flight-end", after: start.index, timeout: 10)
        XCTAssertNil(end.event["interrupted"], "nothing should interrupt the flight")
        let events = h.events()
        let frames = events[start.index..<end.index].filter { $0["event"] as? String == "frame" }
        // A jump draws one or two frames; a flight several. (Not "more than 5": with software GL
        // on a saturated 2-core machine a 2-s flight was seen to get only 4–5 frames.)
        XCTAssertGreaterThanOrEqual(frames.count, 3, "a flight draws frames on the way")
        let from = (start.event["from"] as! [String: Any])["zoom"] as! Double
        let to = (start.event["to"] as! [String: Any])["zoom"] as! Double
        XCTAssertGreaterThan(to, from + 3)
        let between = frames.filter { f in
            let z = f["zoom"] as! Double
            return z > min(from, to) + 0.01 && z < max(from, to) - 0.01
        }
        XCTAssertFalse(between.isEmpty, "intermediate frames are between the two zooms")

        let camera = try h.waitForEvent("camera", after: end.index)
        XCTAssertEqual(camera.event["zoom"] as! Double, to, accuracy: 1e-6)
        let scene = try h.waitForEvent("scene", after: end.index)
        let bubbles = scene.event["bubbles"] as! [[String: Any]]
        let pins = scene.event["pins"] as! [[String: Any]]
        let shown = bubbles.reduce(0) { $0 + ($1["count"] as! Int) } + pins.count
        XCTAssertEqual(shown, 9, "all nine places are in view after the flight")
        XCTAssertGreaterThan(bubbles.count + pins.count, 1, "the bubble split")
    }

    func testReducedMotionJumpsWithoutIntermediateFrames() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--reduce-motion"] + AppHarness.worldView)
        let (bubble, index) = try bubbleScene(h)
        try h.click(at: bubble["x"] as! Double, bubble["y"] as! Double)
        let start = try h.waitForEvent("flight-start", after: index)
        XCTAssertEqual(start.event["reduced"] as? Bool, true)
        let end = try h.waitForEvent("flight-end", after: start.index, timeout: 10)
        let from = start.event["from"] as! [String: Any], to = start.event["to"] as! [String: Any]
        let z0 = from["zoom"] as! Double, z1 = to["zoom"] as! Double
        let lat0 = from["lat"] as! Double, lat1 = to["lat"] as! Double
        for f in h.events()[start.index..<end.index] where f["event"] as? String == "frame" {
            let z = f["zoom"] as! Double, lat = f["lat"] as! Double
            let strictlyBetween = z > min(z0, z1) + 1e-9 && z < max(z0, z1) - 1e-9
                || lat > min(lat0, lat1) + 1e-9 && lat < max(lat0, lat1) - 1e-9
            XCTAssertFalse(strictlyBetween, "frame between from and to under reduced motion: \(f)")
        }
        let camera = try h.waitForEvent("camera", after: end.index)
        XCTAssertEqual(camera.event["zoom"] as! Double, z1, accuracy: 1e-6)
    }
}
