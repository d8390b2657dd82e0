import CCairo
import ClusterCore
import GeoData
import MapModel
@testable import MapRender
import GoldenSupport
import XCTest

/// Frames in motion whose base-map tile copies are painted band by band with the scene's sprites
/// (`DeferredBase`) are byte for byte the frames painted in turn (base map, then overlays).
final class DeferredBaseTests: XCTestCase {
    private let size = ScreenSize(width: 480, height: 300)

    /// Marks, names, a hull (drawn by cairo between the names and the marks), a mark popping up
    /// (scaled, through cairo) and a callout, around the view's centre.
    private func scene(seed: UInt64) -> Scene {
        var rng = SeededRandom(seed: seed)
        let style = BubbleStyle()
        var s = Scene()
        for n in 0..<260 {
            let p = ScreenPoint(x: rng.unit() * size.width, y: rng.unit() * size.height)
            if n % 3 == 0 {
                s.pins.append(ScenePin(id: .point(n), pointIndex: n, center: p, name: "p\(n)", label: n % 2 == 0 ? "$\(n)" : nil,
                                       color: 0x2F78C2))
            } else {
                let count = 2 + Int(exp(rng.unit() * 9))
                var b = SceneBubble(id: .cluster(n), center: p, radius: style.radius(forCount: count), count: count,
                                    label: abbreviatedCount(count), step: style.step(forCount: count))
                if n == 7 { b.scale = 1.3 }
                if n % 11 == 0 { b.alpha = 0.6 }
                s.bubbles.append(b)
            }
        }
        for (i, t) in ["Paris", "Rouen", "Reims", "Lille"].enumerated() {
            s.labels.append(SceneLabel(id: i, text: t, kind: .city, frame: ScreenRect(x: 40 + Double(i) * 100, y: 60 + Double(i) * 40,
                                                                                   width: 44, height: 14),
                                       dot: ScreenPoint(x: 34 + Double(i) * 100, y: 67 + Double(i) * 40), alpha: 1))
        }
        s.hull = [ScreenPoint(x: 100, y: 100), ScreenPoint(x: 220, y: 90), ScreenPoint(x: 200, y: 200)]
        var sel = ScenePin(id: .point(999), pointIndex: 999, center: ScreenPoint(x: 240.3, y: 180.4), name: "Loft", label: nil,
                           color: 0xD6336C)
        sel.isSelected = true
        s.pins.append(sel)
        let box = CalloutMeasurer.size(title: "Rooftop Loft", lines: ["$120 per night"], maxWidth: 200)
        s.callout = SceneCallout(pointIndex: 999, frame: CalloutPlacement.frame(above: sel.center, size: box), anchor: sel.center,
                                 title: "Rooftop Loft", lines: ["$120 per night"])
        return s
    }

    /// The frames of a pan and a zoom (in and out) through a frame renderer with a scene overlay,
    /// with deferral on or off.
    private func frames(scale: Double, defer deferring: Bool, overlay: (SceneRenderer) -> any MapOverlay)
        -> (images: [ImageSurface], deferred: Int) {
        let renderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: .light)
        renderer.deferBaseMap = deferring
        renderer.baseMap.nearestWhileZooming = true
        let scenes = SceneRenderer()
        renderer.overlays = [overlay(scenes)]
        var cam = Camera(center: GeoCoordinate(latitude: 46, longitude: 8), zoom: 4, viewportSize: size)
        var out: [ImageSurface] = []
        var steps: [(dx: Double, dy: Double, zoom: Double, moving: Bool)] = [(0, 0, 4, false)]
        for n in 0..<6 { steps.append((-9, 4, 4, n < 5)) }
        for z in [4.2, 4.4, 4.6, 4.4] { steps.append((0, 0, z, true)) }
        for (n, step) in steps.enumerated() {
            cam.pan(by: step.dx, step.dy)
            cam.setZoom(step.zoom)
            scenes.scene = scene(seed: UInt64(n % 3))
            if let layer = renderer.overlays.first as? PanLayer {
                if let view = layer.prepare(camera: cam, scale: scale, content: n % 3, moving: step.moving) {
                    layer.scene = scene(seed: UInt64(n % 3))
                    _ = view
                }
                if layer.cameraAhead() != nil { layer.sceneAhead = scene(seed: 9) }
            }
            let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: scale)
            image.withContext { renderer.draw(in: $0, camera: cam, isAnimating: step.moving) }
            out.append(image)
        }
        return (out, renderer.baseMap.blits.deferredCount)
    }

    func testDeferredFramesEqualFramesPaintedInTurn() {
        for scale in [1.0, 2.0] {
            let plain = frames(scale: scale, defer: false) { $0 }
            let deferred = frames(scale: scale, defer: true) { $0 }
            XCTAssertEqual(plain.deferred, 0)
            XCTAssertGreaterThan(deferred.deferred, 4, "scale \(scale): frames in motion were deferred")
            for (k, (a, b)) in zip(plain.images, deferred.images).enumerated() {
                XCTAssertEqual(PixelDiff.compare(a, b, channelTolerance: 0).differingPixels, 0, "scale \(scale), frame \(k)")
            }
        }
    }

    /// Through a pan layer (drawn directly here: its scene changes every few frames), and with
    /// an overlay that isn't the scene (nothing is deferred).
    func testThroughAPanLayerAndOtherOverlays() {
        let plain = frames(scale: 2, defer: false) { PanLayer(sceneRenderer: $0) }
        let deferred = frames(scale: 2, defer: true) { PanLayer(sceneRenderer: $0) }
        XCTAssertGreaterThan(deferred.deferred, 4)
        for (k, (a, b)) in zip(plain.images, deferred.images).enumerated() {
            XCTAssertEqual(PixelDiff.compare(a, b, channelTolerance: 0).differingPixels, 0, "frame \(k)")
        }
        final class Other: MapOverlay {
            func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) {
                cairo_set_source_rgba(cr, 0.2, 0.3, 0.9, 0.5)
                cairo_rectangle(cr, 10, 10, 100, 60)
                cairo_fill(cr)
            }
        }
        let other = frames(scale: 2, defer: true) { _ in Other() }
        XCTAssertEqual(other.deferred, 0)
    }

    /// A pan copied from the pan layer (its copy painted with the base map's copies, band by
    /// band) equals the same pan painted in turn.
    func testLayerCopiesWithTheBaseMap() {
        func pan(defer deferring: Bool) -> (images: [ImageSurface], copies: Int, deferred: Int) {
            let renderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: .light)
            renderer.deferBaseMap = deferring
            let layer = PanLayer()
            layer.bandBudgetMs = 1e9
            layer.maxScale = 2
            layer.minimumMarksPerMegapixel = 0
            layer.margin = 48
            renderer.overlays = [layer]
            var cam = Camera(center: GeoCoordinate(latitude: 46, longitude: 8), zoom: 4, viewportSize: size)
            // The scene fixed in the world: built for whatever camera the layer asks for.
            let world = scene(seed: 5)
            let anchor = cam.centerWorldPixel
            func built(_ c: Camera) -> Scene {
                let w = c.centerWorldPixel
                var s = world
                let dx = anchor.x - w.x, dy = anchor.y - w.y
                for i in s.bubbles.indices { s.bubbles[i].center.x += dx; s.bubbles[i].center.y += dy; s.bubbles[i].scale = 1 }
                for i in s.pins.indices { s.pins[i].center.x += dx; s.pins[i].center.y += dy }
                s.hull = []
                s.callout = nil
                s.labels = []
                return s
            }
            var out: [ImageSurface] = [], copies = 0
            for n in 0..<14 {
                if n > 0 { cam.pan(by: -9, 4) }
                if let view = layer.prepare(camera: cam, scale: 2, content: 1, moving: n > 0) { layer.scene = built(view) }
                if let ahead = layer.cameraAhead() { layer.sceneAhead = built(ahead) }
                let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: 2)
                image.withContext { renderer.draw(in: $0, camera: cam, isAnimating: n > 0) }
                if case .copy = layer.mode { copies += 1 }
                out.append(image)
                // At rest (the first frame), the layer the pan starts from (as in the window's idle time).
                if n == 0 { while layer.restStep(camera: cam, content: 1, palette: .light, build: built) {} }
            }
            return (out, copies, renderer.baseMap.blits.deferredCount)
        }
        let plain = pan(defer: false), deferred = pan(defer: true)
        XCTAssertGreaterThan(deferred.copies, 3, "the layer was copied")
        XCTAssertEqual(plain.copies, deferred.copies)
        XCTAssertGreaterThan(deferred.deferred, 3)
        for (k, (a, b)) in zip(plain.images, deferred.images).enumerated() {
            XCTAssertEqual(PixelDiff.compare(a, b, channelTolerance: 0).differingPixels, 0, "frame \(k)")
        }
    }

    /// Only frames in motion are deferred; a frame with no sprites still gets its base map.
    func testEmptySceneStillPaintsTheBaseMap() {
        let renderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: .light)
        let plainRenderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: .light)
        plainRenderer.deferBaseMap = false
        renderer.overlays = [SceneRenderer()]
        plainRenderer.overlays = [SceneRenderer()]
        var cam = Camera(center: GeoCoordinate(latitude: 46, longitude: 8), zoom: 4, viewportSize: size)
        for n in 0..<3 {
            cam.pan(by: -9, 4)
            let a = ImageSurface(width: Int(size.width), height: Int(size.height), scale: 2)
            let b = ImageSurface(width: Int(size.width), height: Int(size.height), scale: 2)
            a.withContext { renderer.draw(in: $0, camera: cam, isAnimating: n > 0) }
            b.withContext { plainRenderer.draw(in: $0, camera: cam, isAnimating: n > 0) }
            XCTAssertEqual(PixelDiff.compare(a, b, channelTolerance: 0).differingPixels, 0, "frame \(n)")
        }
        XCTAssertEqual(renderer.baseMap.blits.deferredCount, 2)
    }
}
