import XCTest

/// The real window pans by copying the pan layer: once the camera has settled, a layer is drawn
/// around the view in idle time (`pan-layer` event), and a drag then copies it from its first
/// frame (`frame` events with `layer_copy`); at rest frames are drawn directly.
final class PanLayerWindowTests: XCTestCase {
    func testDragCopiesTheLayerDrawnAtRest() throws {
        try AppHarness.requireTools()
        let h = try AppHarness()
        defer { h.stop() }
        // Central Europe at zoom 6: over a hundred bubbles of the world's towns and their names.
        // The layer pays from ~400 marks a megapixel (`PanLayer.minimumMarksPerMegapixel`, the
        // frame benchmark's 1,500 items), more than clustered data shows: here from 100.
        h.extraEnvironment["CLUSTERMAP_PAN_LAYER_MIN_MARKS"] = "100"
        try h.launch(["--dataset", "world-cities", "--center", "49,12", "--zoom", "6"], timeout: 60)
        func marks(_ e: [String: Any]) -> Int { (e["bubbles"] as? [Any] ?? []).count + (e["pins"] as? [Any] ?? []).count }
        let scene = try h.waitForEvent("scene", timeout: 60) { marks($0) > 0 }
        XCTAssertGreaterThan(marks(scene.event), 103, "marks in view")
        let ready = try h.waitForEvent("pan-layer", after: scene.index, timeout: 30)
        XCTAssertGreaterThan(ready.event["width"] as? Int ?? 0, 1280)

        try h.drag(from: (600, 400), to: (400, 300))
        let rest = try h.waitForEvent("camera", after: ready.index + 1)
        let frames = h.events()[ready.index..<rest.index].filter { $0["event"] as? String == "frame" }
        let moving = frames.filter { $0["moving"] as? Bool == true }
        XCTAssertGreaterThan(moving.count, 2, "frames while dragging")
        XCTAssertEqual(moving.first?["layer_copy"] as? Bool, true, "the drag's first frame copies the layer")
        XCTAssertTrue(frames.filter { $0["moving"] as? Bool == false }.allSatisfy { $0["layer_copy"] as? Bool == false },
                      "frames at rest are drawn directly")
        // Settled again: a new layer around the new view.
        try h.waitForEvent("pan-layer", after: rest.index, timeout: 30)
    }
}
