import XCTest

/// The real window under Xvfb: launch, first frame, land and sea on screen, drag and scroll move the camera.
final class WindowTests: XCTestCase {
    func testLaunchShowsMapAndGesturesMoveCamera() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        try h.launch(["--dataset", "madrid", "--center", "30,0", "--zoom", "2"])
        let first = try h.waitForEvent("camera")
        let lat0 = first.event["lat"] as! Double, lon0 = first.event["lon"] as! Double
        let zoom0 = first.event["zoom"] as! Double
        XCTAssertEqual(zoom0, 2, accuracy: 1e-9)

        let shot = try h.screenshot(name: "launch")
        XCTAssertGreaterThan(shot.width, 600)
        let (sea, land) = MapColors.light
        let seaFraction = shot.fraction(near: sea)
        let landFraction = shot.fraction(near: land)
        XCTAssertGreaterThan(seaFraction, 0.25, "too little sea in \(shot.path)")
        XCTAssertGreaterThan(landFraction, 0.08, "too little land in \(shot.path)")

        // Drag 200 px to the right: the map moves east under the pointer, so the centre goes west.
        try h.drag(from: (500, 400), to: (700, 400))
        let afterDrag = try h.waitForEvent("camera", after: first.index + 1)
        let lon1 = afterDrag.event["lon"] as! Double
        let lat1 = afterDrag.event["lat"] as! Double
        XCTAssertLessThan(lon1, lon0 - 10, "dragging right should move the centre west")
        XCTAssertEqual(lat1, lat0, accuracy: 3)

        // Scroll up (wheel notch away from the user) zooms in around the pointer.
        try h.move(to: 640, 400)
        try h.run("xdotool", ["click", "4"])
        let afterScroll = try h.waitForEvent("camera", after: afterDrag.index + 1)
        XCTAssertGreaterThan(afterScroll.event["zoom"] as! Double, zoom0 + 0.2)
    }
}
