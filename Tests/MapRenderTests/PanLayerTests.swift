import CCairo
import ClusterCore
import MapModel
@testable import MapRender
import GoldenSupport
import XCTest

/// A pan layer copied at whole-device-pixel offsets gives exactly the pixels of the scene drawn
/// directly for that camera; at rest and after any other change the scene is drawn directly.
final class PanLayerTests: XCTestCase {
    let size = ScreenSize(width: 320, height: 200)
    let start = GeoCoordinate(latitude: 48.85, longitude: 2.35)

    /// Marks, names and a callout fixed in the world (world pixels at zoom 6), spread over more
    /// than the view and its margins.
    private struct World {
        var bubbles: [(x: Double, y: Double, count: Int)] = []
        var pins: [(x: Double, y: Double, label: String?)] = []
        var names: [(x: Double, y: Double, text: String)] = []
        var selected = (x: 0.0, y: 0.0)
        var callout = ScreenSize(width: 0, height: 0)

        init(around c: (x: Double, y: Double)) {
            var rng = SeededRandom(seed: 11)
            for n in 0..<180 {
                let x = c.x + rng.unit() * 900 - 450, y = c.y + rng.unit() * 700 - 350
                if n % 3 == 0 {
                    pins.append((x, y, n % 2 == 0 ? "$\(40 + n)" : nil))
                } else {
                    bubbles.append((x, y, 2 + Int(exp(rng.unit() * 9))))
                }
            }
            for (i, t) in ["Paris", "Rouen", "Reims", "Orléans", "Lille", "Dijon"].enumerated() {
                names.append((c.x - 300 + Double(i) * 117.3, c.y - 200 + Double(i % 3) * 151.7, t))
            }
            // Not on a half pixel: there a sprite's rounding would follow the last bit of the centre.
            selected = (c.x + 20.3, c.y + 30.4)
            callout = CalloutMeasurer.size(title: "Rooftop Loft", lines: ["$120 per night", "rooms: 2"], maxWidth: 200)
        }

        /// The scene for `camera` (what the window's scene builder makes: screen = world − centre + half view).
        func scene(for camera: Camera) -> Scene {
            let c = camera.centerWorldPixel
            let ox = camera.viewportSize.width / 2 - c.x, oy = camera.viewportSize.height / 2 - c.y
            let style = BubbleStyle()
            var s = Scene()
            for (i, b) in bubbles.enumerated() {
                s.bubbles.append(SceneBubble(id: .cluster(i), center: ScreenPoint(x: b.x + ox, y: b.y + oy),
                                             radius: style.radius(forCount: b.count), count: b.count,
                                             label: abbreviatedCount(b.count), step: style.step(forCount: b.count)))
            }
            for (i, p) in pins.enumerated() {
                s.pins.append(ScenePin(id: .point(i), pointIndex: i, center: ScreenPoint(x: p.x + ox, y: p.y + oy),
                                       name: "p\(i)", label: p.label, color: 0x2F78C2))
            }
            var sel = ScenePin(id: .point(999), pointIndex: 999, center: ScreenPoint(x: selected.x + ox, y: selected.y + oy),
                               name: "Loft", label: nil, color: 0xD6336C)
            sel.isSelected = true
            s.pins.append(sel)
            s.callout = SceneCallout(pointIndex: 999, frame: CalloutPlacement.frame(above: sel.center, size: callout),
                                     anchor: sel.center, title: "Rooftop Loft", lines: ["$120 per night", "rooms: 2"])
            for (i, n) in names.enumerated() {
                s.labels.append(SceneLabel(id: i, text: n.text, kind: i == 0 ? .capital : .city,
                                           frame: ScreenRect(x: n.x + ox, y: n.y + oy, width: 44, height: 14),
                                           dot: ScreenPoint(x: n.x + ox - 6, y: n.y + oy + 7), alpha: 1))
            }
            return s
        }
    }

    /// A layer whose bands are sized by its plan alone (not by the CPU time the last ones took),
    /// so that the frames each layer is drawn over don't depend on the machine.
    private func steadyLayer() -> PanLayer {
        let layer = PanLayer()
        layer.bandBudgetMs = 1e9
        layer.maxScale = 2  // exact at scale 2 as well, though the window uses it at scale 1 only
        layer.minimumMarksPerMegapixel = 0  // exactness, whatever the number of marks
        return layer
    }

    /// How many pixels of `a` and `b` differ in any byte.
    private func differingPixels(_ a: ImageSurface, _ b: ImageSurface) -> Int {
        PixelDiff.compare(a, b, channelTolerance: 0).differingPixels
    }

    /// One frame through the layer (as the window: prepare, build the scene it asks for, draw).
    private func frame(_ layer: PanLayer, world: World, camera: Camera, scale: Double, moving: Bool,
                       content: Int = 1, background: Bool = false) -> ImageSurface {
        let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: scale)
        if let view = layer.prepare(camera: camera, scale: scale, content: content, moving: moving) {
            layer.scene = world.scene(for: view)
        }
        if let ahead = layer.cameraAhead() { layer.sceneAhead = world.scene(for: ahead) }
        image.withContext { cr in
            if background { paintBackground(cr) }
            layer.draw(in: cr, camera: camera, palette: .light, isAnimating: moving)
        }
        return image
    }

    private func direct(world: World, camera: Camera, scale: Double, background: Bool = false) -> ImageSurface {
        let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: scale)
        image.withContext { cr in
            if background { paintBackground(cr) }
            SceneRenderer().draw(world.scene(for: camera), in: cr, palette: .light)
        }
        return image
    }

    private func paintBackground(_ cr: OpaquePointer) {
        cairo_set_source_rgb(cr, 0.93, 0.91, 0.86)
        cairo_paint(cr)
    }

    /// Copies at whole-device-pixel pans equal direct draws, byte for byte, at scale 1 and 2, on a
    /// pan that changes pace and direction.
    func testCopiedLayerEqualsDirectDraw() {
        for scale in [1.0, 2.0] {
            var cam = Camera(center: start, zoom: 6, viewportSize: size)
            let world = World(around: cam.centerWorldPixel)
            let layer = steadyLayer()
            layer.margin = 48
            // At rest: direct.
            let rest = frame(layer, world: world, camera: cam, scale: scale, moving: false)
            XCTAssertEqual(layer.mode, .direct)
            XCTAssertEqual(differingPixels(rest, direct(world: world, camera: cam, scale: scale)), 0)
            // Steps of whole device pixels (half pixels at scale 2): direct frames while the first
            // layer is drawn, then copies.
            let steps: [(Double, Double)] = [(-7, 3), (-9, 4), (-11, -2), (-8.5, 1.5), (-13, 5), (-9, 4), (-10, 0), (-9, 4),
                                             (-12, 6), (-9, -4), (-10, 3), (-9, 4), (-8, -2), (-11, 5)]
            var modes: [PanLayer.Mode] = []
            for (dx, dy) in steps where scale == 2 || (dx.rounded() == dx && dy.rounded() == dy) {
                cam.pan(by: dx, dy)
                let got = frame(layer, world: world, camera: cam, scale: scale, moving: true)
                modes.append(layer.mode)
                let want = direct(world: world, camera: cam, scale: scale)
                XCTAssertEqual(differingPixels(got, want), 0, "scale \(scale), after pan (\(dx), \(dy)): \(layer.mode)")
            }
            XCTAssertGreaterThanOrEqual(layer.swapCount, 1, "scale \(scale)")
            XCTAssertTrue(modes.contains { if case .copy = $0 { return true }; return false })
        }
    }

    /// A steady pan: each layer is drawn ahead a band a frame and taken over when the view leaves
    /// the one before; every frame equals a direct draw.
    func testLayerDrawnAheadIsTakenOver() {
        for scale in [1.0, 2.0] {
            var cam = Camera(center: start, zoom: 6, viewportSize: size)
            let world = World(around: cam.centerWorldPixel)
            let layer = steadyLayer()
            layer.margin = 48
            _ = frame(layer, world: world, camera: cam, scale: scale, moving: false)
            for n in 0..<28 {
                cam.pan(by: -9, 4)
                let got = frame(layer, world: world, camera: cam, scale: scale, moving: true)
                XCTAssertEqual(differingPixels(got, direct(world: world, camera: cam, scale: scale)), 0,
                               "scale \(scale), frame \(n): \(layer.mode)")
            }
            XCTAssertGreaterThanOrEqual(layer.swapCount, 2, "scale \(scale)")
        }
    }

    /// Over a base map the copy differs from a direct draw by rounding alone (blending into a
    /// clear layer first, then over the map).
    func testCopyOverABackgroundIsWithinRounding() {
        var cam = Camera(center: start, zoom: 6, viewportSize: size)
        let world = World(around: cam.centerWorldPixel)
        let layer = steadyLayer()
        layer.margin = 48
        _ = frame(layer, world: world, camera: cam, scale: 1, moving: false)
        var copies = 0
        for _ in 0..<16 {
            cam.pan(by: -9, 4)
            let got = frame(layer, world: world, camera: cam, scale: 1, moving: true, background: true)
            guard layer.mode != .direct else { continue }
            copies += 1
            let diff = PixelDiff.compare(got, direct(world: world, camera: cam, scale: 1, background: true), channelTolerance: 0)
            XCTAssertLessThanOrEqual(diff.maxChannelDelta, 2)
        }
        XCTAssertGreaterThan(copies, 0)
    }

    /// What is not a pan at one zoom is drawn directly: rest, a first frame, a new zoom, new
    /// content; the first layer is drawn ahead while frames are drawn directly.
    func testValidityRules() {
        var cam = Camera(center: start, zoom: 6, viewportSize: size)
        let world = World(around: cam.centerWorldPixel)
        let layer = steadyLayer()
        _ = frame(layer, world: world, camera: cam, scale: 1, moving: false)
        XCTAssertEqual(layer.mode, .direct)
        XCTAssertEqual(layer.plannedCount, 0, "at rest nothing is drawn ahead")
        cam.pan(by: -5, 0)
        _ = frame(layer, world: world, camera: cam, scale: 1, moving: true)
        XCTAssertEqual(layer.mode, .direct, "no layer yet")
        XCTAssertEqual(layer.plannedCount, 1)
        var frames = 1
        while layer.mode == .direct && frames < 16 {
            cam.pan(by: -5, 0)
            _ = frame(layer, world: world, camera: cam, scale: 1, moving: true)
            frames += 1
        }
        // Planned 16 frames ahead (15 bands of 48 rows: the pace is not known yet), even margins
        // along y; shown once drawn, after `frames` frames.
        XCTAssertEqual(layer.mode, .copy(x: 128 - 5 * (17 - frames), y: 256), "after \(frames) frames")
        XCTAssertEqual(layer.plannedCount, 2, "the next one is planned at once")
        XCTAssertNil(layer.prepare(camera: cam, scale: 1, content: 1, moving: true), "standing still in the layer: a copy")
        XCTAssertEqual(layer.prepare(camera: cam, scale: 1, content: 2, moving: true), cam, "new content: direct")
        XCTAssertEqual(layer.mode, .direct)
        XCTAssertEqual(layer.prepare(camera: cam, scale: 1, content: nil, moving: true), cam, "no stamp: direct")
        XCTAssertEqual(layer.prepare(camera: cam, scale: 1, content: 1, moving: false), cam, "at rest: direct")
        XCTAssertNil(layer.cameraAhead(), "nothing drawn ahead at rest")
        var zoomed = cam
        zoomed.setZoom(6.1)
        XCTAssertEqual(layer.prepare(camera: zoomed, scale: 1, content: 1, moving: true), zoomed, "a new zoom: direct")
        XCTAssertNil(layer.cameraAhead(), "nor on the first frame at a zoom")
        layer.maxScale = 1.5
        _ = layer.prepare(camera: cam, scale: 2, content: 1, moving: true)
        XCTAssertEqual(layer.prepare(camera: cam.panned(by: -5, 0), scale: 2, content: 1, moving: true), cam.panned(by: -5, 0),
                       "past the largest scale: direct")
        XCTAssertNil(layer.cameraAhead(), "and nothing drawn ahead")
    }

    /// At rest, idle steps draw a layer around the view (scene first, then bands); frames at rest
    /// stay direct and unchanged, and a pan copies the layer from its first frame, byte for byte.
    func testLayerDrawnAtRestIsCopiedFromThePansFirstFrame() {
        for scale in [1.0, 2.0] {
            var cam = Camera(center: start, zoom: 6, viewportSize: size)
            let world = World(around: cam.centerWorldPixel)
            let layer = steadyLayer()
            layer.margin = 48
            layer.restBandBudgetMs = 0  // the smallest bands: several steps
            let rest = frame(layer, world: world, camera: cam, scale: scale, moving: false)
            XCTAssertFalse(layer.restStep(camera: cam.panned(by: 1, 0), content: 1, palette: .light) { world.scene(for: $0) },
                           "not for a camera the last frame was not drawn for")
            XCTAssertFalse(layer.restStep(camera: cam, content: nil, palette: .light) { world.scene(for: $0) }, "no stamp")
            var steps = 0, built: [Camera] = []
            while layer.restStep(camera: cam, content: 1, palette: .light, build: { built.append($0); return world.scene(for: $0) }) {
                steps += 1
                XCTAssertLessThan(steps, 100)
            }
            XCTAssertEqual(built.count, 1, "the scene is built once")
            XCTAssertGreaterThan(steps, 2, "scale \(scale): a band a step")
            XCTAssertEqual(layer.restLayerCount, 1)
            XCTAssertFalse(layer.restStep(camera: cam, content: 1, palette: .light) { world.scene(for: $0) }, "done")
            // Even margins: the view sits in the middle.
            XCTAssertEqual(layer.plan?.left, 48)
            XCTAssertEqual(layer.plan?.top, 48)
            let again = frame(layer, world: world, camera: cam, scale: scale, moving: false)
            XCTAssertEqual(layer.mode, .direct)
            XCTAssertEqual(differingPixels(again, rest), 0, "frames at rest don't change")
            for n in 0..<5 {
                cam.pan(by: -9, 4)
                let got = frame(layer, world: world, camera: cam, scale: scale, moving: true)
                if case .copy = layer.mode {} else { XCTFail("scale \(scale), frame \(n): \(layer.mode)") }
                XCTAssertEqual(differingPixels(got, direct(world: world, camera: cam, scale: scale)), 0, "scale \(scale), frame \(n)")
            }
            // Back at rest inside the layer with room on every side: nothing to redo.
            cam.pan(by: 45, -20)
            _ = frame(layer, world: world, camera: cam, scale: scale, moving: false)
            XCTAssertFalse(layer.restStep(camera: cam, content: 1, palette: .light) { world.scene(for: $0) })
            // At its edge (less than half the margin left): a new one.
            cam.pan(by: -40, 0)
            _ = frame(layer, world: world, camera: cam, scale: scale, moving: false)
            XCTAssertTrue(layer.restStep(camera: cam, content: 1, palette: .light) { world.scene(for: $0) })
        }
    }

    /// With few marks for the view's size a copy costs more than drawing them: no layer, in motion
    /// or at rest.
    func testFewMarksAreDrawnDirectly() {
        var cam = Camera(center: start, zoom: 6, viewportSize: size)
        let world = World(around: cam.centerWorldPixel)
        let layer = steadyLayer()
        layer.margin = 48
        // The test scene holds 181 marks over 0.064 megapixels: 2,828 a megapixel.
        layer.minimumMarksPerMegapixel = 3_000
        _ = frame(layer, world: world, camera: cam, scale: 1, moving: false)
        XCTAssertFalse(layer.restStep(camera: cam, content: 1, palette: .light) { world.scene(for: $0) })
        for _ in 0..<20 {
            cam.pan(by: -9, 4)
            _ = frame(layer, world: world, camera: cam, scale: 1, moving: true)
            XCTAssertEqual(layer.mode, .direct)
        }
        XCTAssertEqual(layer.plannedCount, 0)
        layer.minimumMarksPerMegapixel = 2_500
        for _ in 0..<20 {
            cam.pan(by: -9, 4)
            _ = frame(layer, world: world, camera: cam, scale: 1, moving: true)
        }
        XCTAssertGreaterThan(layer.plannedCount, 0, "enough marks: layers again")
    }
}
