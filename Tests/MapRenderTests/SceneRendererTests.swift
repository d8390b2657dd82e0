import CCairo
import ClusterCore
import MapModel
@testable import MapRender
import GoldenSupport
import XCTest

final class SceneRendererTests: XCTestCase {
    private func drawOnTransparent(_ scene: Scene, renderer: SceneRenderer = SceneRenderer(),
                                   width: Int = 200, height: Int = 120, scale: Double = 1) -> ImageSurface {
        let image = ImageSurface(width: width, height: height, scale: scale)
        image.withContext { renderer.draw(scene, in: $0, palette: .light) }
        return image
    }

    private func countOpaque(_ image: ImageSurface) -> Int {
        var n = 0
        for y in 0..<image.pixelHeight { for x in 0..<image.pixelWidth where image.pixel(x: x, y: y).a > 0 { n += 1 } }
        return n
    }

    func testSpriteCacheReturnsTheSameSpriteForTheSameKey() {
        let cache = SpriteCache<String>(capacity: 10)
        let make = { Sprite(width: 4, height: 4, anchorX: 2, anchorY: 2, scale: 1) { _ in } }
        let a = cache.sprite(for: "2", make: make)
        let b = cache.sprite(for: "2", make: make)
        XCTAssertTrue(a === b)
        XCTAssertEqual(cache.renderCount, 1)
        XCTAssertFalse(cache.sprite(for: "3", make: make) === a)
    }

    func testSpriteCacheIsBoundedAndKeepsRecentSprites() {
        let cache = SpriteCache<Int>(capacity: 100)
        let make = { Sprite(width: 2, height: 2, anchorX: 1, anchorY: 1, scale: 1) { _ in } }
        let hot = cache.sprite(for: -1, make: make)
        for i in 0..<1000 {
            _ = cache.sprite(for: i, make: make)
            _ = cache.sprite(for: -1, make: make)  // keeps being used
            XCTAssertLessThanOrEqual(cache.count, 100)
        }
        XCTAssertTrue(cache.sprite(for: -1, make: make) === hot)
    }

    func testRepeatedLabelsReuseSpritesAcrossFrames() {
        var scene = Scene()
        for i in 0..<300 {
            let count = [2, 3, 12, 150, 1234][i % 5]
            scene.bubbles.append(SceneBubble(id: .cluster(i), center: ScreenPoint(x: Double(i % 20) * 10, y: Double(i / 20) * 8),
                                             radius: BubbleStyle().radius(forCount: count), count: count,
                                             label: count >= 1000 ? "1.2k" : "\(count)", step: BubbleStyle().step(forCount: count)))
        }
        let renderer = SceneRenderer()
        _ = drawOnTransparent(scene, renderer: renderer)
        XCTAssertEqual(renderer.sprites.renderCount, 5)
        _ = drawOnTransparent(scene, renderer: renderer)
        XCTAssertEqual(renderer.sprites.renderCount, 5, "a second frame makes no new sprites")
        // Another device scale is another look; at scale 2 bubble bodies are shared (one per step:
        // 2, 3 and 12 share one) and the five counts are sprites of their own.
        _ = drawOnTransparent(scene, renderer: renderer, scale: 2)
        XCTAssertEqual(renderer.sprites.renderCount, 13)
    }

    /// Marks whose looks change between frames at the same positions in the scene's lists draw
    /// exactly what a renderer that never saw the frame before draws (sprites are reused across
    /// frames only for an equal look).
    func testChangedMarksAtTheSamePositionsDrawAsAFreshRenderer() {
        func scene(_ seed: UInt64) -> Scene {
            var rng = SeededRandom(seed: seed)
            var s = Scene()
            for i in 0..<60 {
                let count = [2, 3, 12, 150, 1234][Int(rng.unit() * 5) % 5]
                var b = SceneBubble(id: .cluster(i), center: ScreenPoint(x: rng.unit() * 200, y: rng.unit() * 120),
                                    radius: BubbleStyle().radius(forCount: count), count: count,
                                    label: count >= 1000 ? "1.2k" : "\(count)", step: BubbleStyle().step(forCount: count))
                b.isHovered = rng.unit() < 0.2
                if rng.unit() < 0.3 { b.look = BubbleLook(fill: 0x2F78C2) }
                s.bubbles.append(b)
                var p = ScenePin(id: .point(i), pointIndex: i, center: ScreenPoint(x: rng.unit() * 200, y: rng.unit() * 120),
                                 name: "p", label: rng.unit() < 0.5 ? "$\(Int(rng.unit() * 300))" : nil,
                                 color: [0xD6336C, 0x2B8A3E][Int(rng.unit() * 2) % 2])
                p.isSelected = rng.unit() < 0.05
                s.pins.append(p)
            }
            return s
        }
        for scale in [1.0, 2.0] {
            let renderer = SceneRenderer()
            _ = drawOnTransparent(scene(1), renderer: renderer, scale: scale)
            for seed: UInt64 in [2, 3, 2] {
                let again = drawOnTransparent(scene(seed), renderer: renderer, scale: scale)
                let fresh = drawOnTransparent(scene(seed), scale: scale)
                let diff = PixelDiff.compare(again, fresh, channelTolerance: 0)
                XCTAssertEqual(diff.differingPixels, 0, "scale \(scale), scene \(seed)")
                XCTAssertTrue(diff.sizesMatch)
            }
        }
    }

    func testHiDPIBandsDrawTheSamePixelsAndCountEachItemOnce() {
        var rng = SeededRandom(seed: 7)
        var scene = Scene()
        for i in 0..<200 {
            let p = ScreenPoint(x: rng.unit() * 300, y: rng.unit() * 400)
            if i % 3 == 0 {
                scene.pins.append(ScenePin(id: .point(i), pointIndex: i, center: p, name: "p", label: i % 2 == 0 ? "$\(i)" : nil,
                                           color: 0xD6336C))
            } else {
                let count = 2 + i * 37
                scene.bubbles.append(SceneBubble(id: .cluster(i), center: p, radius: BubbleStyle().radius(forCount: count),
                                                 count: count, label: abbreviatedCount(count),
                                                 step: BubbleStyle().step(forCount: count)))
            }
        }
        scene.pins[3].isSelected = true
        let renderer = SceneRenderer()
        let banded = drawOnTransparent(scene, renderer: renderer, width: 300, height: 400, scale: 2)
        let visible = renderer.lastDrawnItemCount
        XCTAssertEqual(visible, 200)
        // The same scene drawn in strips too short to be banded.
        let strips = ImageSurface(width: 300, height: 400, scale: 2)
        strips.withContext { cr in
            for top in stride(from: 0.0, to: 400, by: 100) {
                cairo_save(cr)
                cairo_rectangle(cr, 0, top, 300, 100)
                cairo_clip(cr)
                renderer.draw(scene, in: cr, palette: .light)
                cairo_restore(cr)
            }
        }
        XCTAssertEqual(PixelDiff.compare(banded, strips, channelTolerance: 0).differingPixels, 0)
    }

    /// A popping mark is drawn at its scale around its centre (and at 1 exactly as before).
    func testMarksAreDrawnAtTheirScale() {
        func scene(_ scale: Double) -> Scene {
            var s = Scene()
            var pin = ScenePin(id: .point(0), pointIndex: 0, center: ScreenPoint(x: 50, y: 60), name: "A", label: nil, color: 0x3366CC)
            pin.scale = scale
            var b = SceneBubble(id: .cluster(1), center: ScreenPoint(x: 140, y: 60), radius: 20, count: 12, label: "12", step: 0)
            b.scale = scale
            s.pins = [pin]
            s.bubbles = [b]
            return s
        }
        let full = countOpaque(drawOnTransparent(scene(1))), half = countOpaque(drawOnTransparent(scene(0.5)))
        XCTAssertLessThan(Double(half), Double(full) * 0.4, "a quarter of the area, about")
        XCTAssertGreaterThan(Double(half), Double(full) * 0.15)
        let big = countOpaque(drawOnTransparent(scene(1.08)))
        XCTAssertGreaterThan(big, full)
        let small = drawOnTransparent(scene(0.5))
        XCTAssertGreaterThan(small.pixel(x: 140, y: 60).a, 0, "still centred on the bubble")
        XCTAssertEqual(small.pixel(x: 140, y: 42).a, 0, "no longer reaching its full radius")
    }

    func testTextColourFollowsLuminance() {
        XCTAssertEqual(MapColor(hex: 0xFFFFFF).readableTextColor, MapColor(hex: 0x111111))
        XCTAssertEqual(MapColor(hex: 0xF1F075).readableTextColor, MapColor(hex: 0x111111))  // yellow
        XCTAssertEqual(MapColor(hex: 0x51BBD6).readableTextColor, MapColor(hex: 0x111111))  // light cyan
        XCTAssertEqual(MapColor(hex: 0x1C74C8).readableTextColor, MapColor(hex: 0xFFFFFF))  // blue
        XCTAssertEqual(MapColor(hex: 0x000000).readableTextColor, MapColor(hex: 0xFFFFFF))
        for palette in [MapPalette.light, .dark] {
            for fill in palette.bubbleRamp { XCTAssertEqual(fill.readableTextColor, MapColor(hex: 0xFFFFFF)) }
        }
    }

    func testBubbleLabelIsDrawnInTheReadableColour() {
        // A white-on-blue label: the centre of "8" is light, the fill around it blue.
        var scene = Scene()
        scene.bubbles = [SceneBubble(id: .cluster(1), center: ScreenPoint(x: 50, y: 50), radius: 15, count: 888,
                                     label: "888", step: 0)]
        let image = drawOnTransparent(scene)
        var light = 0
        for y in 44...56 { for x in 40...60 { let p = image.pixel(x: x, y: y); if p.r > 200 && p.g > 200 && p.b > 200 { light += 1 } } }
        XCTAssertGreaterThan(light, 15)
        let fill = image.pixel(x: 50, y: 39)
        XCTAssertEqual(Int(fill.b), 0xC8, accuracy: 6)
    }

    func testItemsOffScreenDrawNothing() {
        var scene = Scene()
        scene.bubbles = [SceneBubble(id: .cluster(1), center: ScreenPoint(x: 5000, y: 60), radius: 20, count: 5,
                                     label: "5", step: 0),
                         SceneBubble(id: .cluster(2), center: ScreenPoint(x: -40, y: 60), radius: 20, count: 5,
                                     label: "5", step: 0)]
        scene.pins = [ScenePin(id: .point(1), pointIndex: 1, center: ScreenPoint(x: 100, y: -30), name: "a",
                               label: nil, color: 0xFF0000),
                      ScenePin(id: .point(2), pointIndex: 2, center: ScreenPoint(x: -60, y: 60), name: "b",
                               label: "$1", color: 0xFF0000)]
        let renderer = SceneRenderer()
        let image = drawOnTransparent(scene, renderer: renderer)
        XCTAssertEqual(countOpaque(image), 0)
        XCTAssertEqual(renderer.lastDrawnItemCount, 0)
        XCTAssertEqual(renderer.cachedSpriteCount, 0, "culled items don't even make sprites")
        // Partly visible items are drawn.
        scene.bubbles[1].center.x = -10
        let partly = drawOnTransparent(scene, renderer: renderer)
        XCTAssertGreaterThan(countOpaque(partly), 50)
        XCTAssertEqual(renderer.lastDrawnItemCount, 1)
    }

    func testLabelCapsuleIsDrawnWhereHitTestingLooks() {
        var scene = Scene()
        let pin = ScenePin(id: .point(1), pointIndex: 1, center: ScreenPoint(x: 40, y: 60), name: "Loft",
                           label: "$120", color: 0x2F78C2)
        scene.pins = [pin]
        let image = drawOnTransparent(scene)
        let rect = SceneHitTester.labelRect(for: pin.center, text: "$120")
        // Inside the capsule (away from its rounded ends): opaque.
        for x in stride(from: Int(rect.minX + rect.height / 2), to: Int(rect.maxX - rect.height / 2), by: 3) {
            XCTAssertEqual(image.pixel(x: x, y: Int(rect.minY) + 3).a, 255, "x \(x)")
        }
        // Well right of it: nothing.
        XCTAssertEqual(image.pixel(x: Int(rect.maxX) + 8, y: Int(pin.center.y)).a, 0)
        XCTAssertEqual(SceneHitTester.hit(scene, at: ScreenPoint(x: rect.maxX - 4, y: rect.midYForTest)),
                       .pin(.point(1), pointIndex: 1))
    }

    /// Issue 32 item 5: a selected pin keeps its own (category) colour and is ringed in the
    /// selection ink, which is no category's colour (it used to turn orange, "park" in Madrid).
    func testSelectedPinIsDrawnLastInItsColourWithASelectionRing() {
        var scene = Scene()
        var selected = ScenePin(id: .point(1), pointIndex: 1, center: ScreenPoint(x: 50, y: 50), name: "a",
                                label: nil, color: 0x2F78C2)
        selected.isSelected = true
        let other = ScenePin(id: .point(2), pointIndex: 2, center: ScreenPoint(x: 52, y: 50), name: "b",
                             label: nil, color: 0x00AA00)
        scene.pins = [selected, other]
        let image = drawOnTransparent(scene)
        // Between the white dot and the outline of the selected pin: its own blue, not the green
        // pin's (drawn last), and not the old orange.
        let p = image.pixel(x: 50, y: 44)
        XCTAssertLessThan(Int(p.r), 90)
        XCTAssertGreaterThan(Int(p.b), 150)
        XCTAssertLessThan(Int(p.g), 150)
        // Just outside its white outline: the light palette's selection ink (near black).
        let ring = image.pixel(x: 50, y: 38)
        XCTAssertEqual(ring.a, 255)
        XCTAssertLessThan(max(Int(ring.r), Int(ring.g), Int(ring.b)), 70)
    }

    func testCalloutMeasurerWrapsAndCaps() {
        let short = CalloutMeasurer.size(title: "Prado", lines: ["Museum"], maxWidth: 280)
        XCTAssertGreaterThanOrEqual(short.width, 120)
        XCTAssertLessThan(short.width, 200)
        let long = CalloutMeasurer.size(title: "Prado", lines: [String(repeating: "very long text ", count: 20)],
                                        maxWidth: 240)
        XCTAssertEqual(long.width, 240)
        XCTAssertGreaterThan(long.height, short.height + 30, "wraps onto more lines")
        let many = CalloutMeasurer.size(title: "Prado", lines: (0..<100).map { "property \($0): value" },
                                        maxWidth: 240, maxHeight: 200)
        XCTAssertEqual(many.height, 200)
        XCTAssertEqual(CalloutMeasurer.size(title: "A <b>b</b>", lines: [], maxWidth: 300),
                       CalloutMeasurer.size(title: "A <b>b</b>", lines: [], maxWidth: 300))
    }

    func testCalloutFillsItsFrameAndFadesOrGrows() {
        var scene = Scene()
        let size = CalloutMeasurer.size(title: "Prado Museum", lines: ["Art museum", "open 10–20"])
        let pin = ScreenPoint(x: 100, y: 110)
        let frame = CalloutPlacement.frame(above: pin, size: size)
        scene.callout = SceneCallout(pointIndex: 0, frame: frame, anchor: pin, title: "Prado Museum",
                                     lines: ["Art museum", "open 10–20"])
        let full = drawOnTransparent(scene, width: 200, height: 130)
        // Corners of the frame (inset past the rounding) are painted; outside the frame only shadow.
        XCTAssertEqual(full.pixel(x: Int(frame.minX) + 6, y: Int(frame.minY) + 6).a, 255)
        XCTAssertEqual(full.pixel(x: Int(frame.maxX) - 6, y: Int(frame.maxY) - 6).a, 255)
        // The arrow reaches down towards the pin.
        XCTAssertEqual(full.pixel(x: Int(pin.x), y: Int(frame.maxY) + 4).a, 255)
        scene.callout?.progress = 0.5
        scene.callout?.fades = true
        let faded = drawOnTransparent(scene, width: 200, height: 130)
        XCTAssertEqual(Int(faded.pixel(x: Int(frame.minX) + 6, y: Int(frame.minY) + 6).a), 128, accuracy: 3)
        scene.callout?.fades = false
        let grown = drawOnTransparent(scene, width: 200, height: 130)
        XCTAssertEqual(grown.pixel(x: Int(frame.minX) + 6, y: Int(frame.minY) + 6).a, 0, "half size: the corner is empty")
    }
}

private extension ScreenRect {
    var midYForTest: Double { y + height / 2 }
}

/// The base map while animating: scaled tiles of the nearest level, close to the exact frame.
final class AnimatedBaseMapTests: XCTestCase {
    func testAnimatedFramesUseLevelTilesAndStayCloseToExact() {
        let size = ScreenSize(width: 320, height: 200)
        let cam = Camera(center: GeoCoordinate(latitude: 48, longitude: 8), zoom: 4.3, viewportSize: size)
        let exact = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        let exactImage = ImageSurface(width: 320, height: 200)
        exactImage.withContext { exact.draw(in: $0, camera: cam) }
        let animated = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        animated.tilesPerAnimationFrame = 100
        let image = ImageSurface(width: 320, height: 200)
        image.withContext { animated.draw(in: $0, camera: cam, isAnimating: true) }
        // Level 4 tiles (zoom 4.3 rounds to 4), whole ones: keys at an integer zoom.
        XCTAssertGreaterThan(animated.cache.renderedTileCount, 0)
        let diff = PixelDiff.compare(image, exactImage, channelTolerance: 40)
        XCTAssertLessThan(diff.differingFraction, 0.05, "scaled tiles look like the exact map")
        // A later frame at another fractional zoom of the same level renders nothing new.
        let before = animated.cache.renderedTileCount
        var next = cam
        next.setZoom(4.2)
        image.withContext { animated.draw(in: $0, camera: next, isAnimating: true) }
        XCTAssertEqual(animated.cache.renderedTileCount, before)
    }

    func testMissingLevelTilesAreBuiltWithinTheBudgetUsingAFallback() {
        let size = ScreenSize(width: 640, height: 400)
        let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        renderer.tilesPerAnimationFrame = 2
        let image = ImageSurface(width: 640, height: 400)
        var cam = Camera(center: GeoCoordinate(latitude: 48, longitude: 8), zoom: 5, viewportSize: size)
        image.withContext { renderer.draw(in: $0, camera: cam); renderer.draw(in: $0, camera: cam) }  // at rest: level 5 tiles
        let rested = renderer.cache.renderedTileCount
        cam.setZoom(5.6)  // rounds to level 6: missing, level 5 stands in
        image.withContext { renderer.draw(in: $0, camera: cam, isAnimating: true) }
        XCTAssertEqual(renderer.cache.renderedTileCount - rested, 2, "only the budget is rendered")
        // No holes: every pixel is painted (map or water).
        XCTAssertEqual(image.pixel(x: 5, y: 5).a, 255)
        XCTAssertEqual(image.pixel(x: 634, y: 394).a, 255)
    }
}

/// Frames at rest are reused only while nothing that shows has changed.
final class RestingFrameReuseTests: XCTestCase {
    func testRepeatedFramesAtRestAreReusedUntilTheSceneOrCameraChanges() {
        let size = ScreenSize(width: 240, height: 160)
        let camera = Camera(center: GeoCoordinate(latitude: 38.7, longitude: -9.2), zoom: 6, viewportSize: size)
        func scene(_ x: Double) -> Scene {
            var s = Scene()
            s.bubbles = [SceneBubble(id: .cluster(1), center: ScreenPoint(x: x, y: 80), radius: 20, count: 150,
                                     label: "150", step: 1)]
            return s
        }
        func fresh(_ s: Scene, _ cam: Camera) -> ImageSurface {
            let r = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
            let o = SceneRenderer()
            o.scene = s
            r.overlays = [o]
            let image = ImageSurface(width: 240, height: 160, scale: 2)
            image.withContext { cr in for _ in 0..<2 { r.draw(in: cr, camera: cam) } }
            return image
        }
        let renderer = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
        let overlay = SceneRenderer()
        renderer.overlays = [overlay]
        let image = ImageSurface(width: 240, height: 160, scale: 2)
        func draw(_ s: Scene, _ cam: Camera) {
            overlay.scene = s
            image.withContext { renderer.draw(in: $0, camera: cam) }
        }
        for _ in 0..<4 { draw(scene(60), camera) }
        XCTAssertEqual(PixelDiff.compare(image, fresh(scene(60), camera), channelTolerance: 0).differingPixels, 0)
        draw(scene(150), camera)
        XCTAssertEqual(PixelDiff.compare(image, fresh(scene(150), camera), channelTolerance: 0).differingPixels, 0,
                       "a changed scene is drawn, not the kept frame")
        var moved = camera
        moved.pan(by: 30, 0)
        for _ in 0..<3 { draw(scene(150), moved) }
        XCTAssertEqual(PixelDiff.compare(image, fresh(scene(150), moved), channelTolerance: 0).differingPixels, 0)
        renderer.palette = .dark
        draw(scene(150), moved)
        let dark = MapFrameRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed, palette: .dark)
        let o = SceneRenderer()
        o.scene = scene(150)
        dark.overlays = [o]
        let expected = ImageSurface(width: 240, height: 160, scale: 2)
        expected.withContext { cr in for _ in 0..<2 { dark.draw(in: cr, camera: moved) } }
        XCTAssertEqual(PixelDiff.compare(image, expected, channelTolerance: 0).differingPixels, 0)
    }
}
