import CCairo
import ClusterCore
import CSpriteBlend
import MapModel
@testable import MapRender
import GoldenSupport
import XCTest

/// Drawing split over two cores (sprite batches, scaled tile blits, direct paints in bands) gives
/// the pixels one thread would (sprites exactly; the base map up to rounding, see below).
final class BandedDrawingTests: XCTestCase {
    /// A background with colour and alpha varying per pixel, so every blend is exercised.
    private func background(_ w: Int, _ h: Int, scale: Double = 1) -> ImageSurface {
        let image = ImageSurface(width: w, height: h, scale: scale)
        image.withContext { cr in
            let g = cairo_pattern_create_linear(0, 0, Double(w), Double(h))!
            cairo_pattern_add_color_stop_rgba(g, 0, 0.9, 0.2, 0.1, 1)
            cairo_pattern_add_color_stop_rgba(g, 0.5, 0.1, 0.6, 0.9, 0.6)
            cairo_pattern_add_color_stop_rgba(g, 1, 0.3, 0.9, 0.3, 0.95)
            cairo_set_source(cr, g)
            cairo_paint(cr)
            cairo_pattern_destroy(g)
        }
        return image
    }

    /// Made-up sprites (translucent discs with an opaque bar) and real marks: a bubble with its
    /// count, a selected pin, a price capsule (solid runs, soft shadows, anti-aliased text).
    private func sprites(scale: Double) -> [Sprite] {
        let style = BubbleStyle()
        let marks = [
            MarkSprites.bubble(step: 1, radius: 17, hovered: false, selected: true, label: "312", palette: .light, scale: scale),
            MarkSprites.pin(color: 0xD6336C, selected: true, hovered: false, style: style, palette: .light, scale: scale),
            MarkSprites.capsule(text: "$120", selected: false, style: style, palette: .dark, scale: scale),
        ]
        return marks + (0..<6).map { n in
            Sprite(width: 30 + Double(n) * 7, height: 20 + Double(n) * 5, anchorX: 4, anchorY: 3, scale: scale) { cr in
                cairo_arc(cr, 12, 10, 8 + Double(n), 0, 2 * .pi)
                cairo_set_source_rgba(cr, Double(n) / 6, 0.4, 1 - Double(n) / 6, 0.3 + Double(n) * 0.12)
                cairo_fill(cr)
                cairo_rectangle(cr, 2, 2, 10, 6)
                cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 1)
                cairo_fill(cr)
            }
        }
    }

    /// Sprites composited by the batch (one core and two, every kernel this CPU runs) equal cairo's
    /// paints, with and without alpha, clipped, at scale 1 and 2.
    func testSpriteBatchEqualsCairoPaints() {
        for scale in [1.0, 2.0] {
            let w = 300, h = 240
            let list = sprites(scale: scale)
            var rng = SeededRandom(seed: 7)
            var placements: [(Sprite, Double, Double, Double)] = []
            for k in 0..<400 {
                let alpha = k % 3 == 0 ? 1 : rng.unit()
                placements.append((list[k % list.count], rng.unit() * 340 - 20, rng.unit() * 280 - 20, alpha))
            }
            // Enough sprite pixels that the batch does use both cores when allowed.
            let pixels = placements.reduce(0) { $0 + $1.0.image.pixelWidth * $1.0.image.pixelHeight }
            XCTAssertGreaterThanOrEqual(pixels, SpriteBatch.minimumPixelsForBands)
            let expected = background(w, h, scale: scale)
            expected.withContext { cr in
                cairo_rectangle(cr, 10, 7, 270, 220)
                cairo_clip(cr)
                for (s, x, y, a) in placements { s.paint(in: cr, x: x, y: y, alpha: a, deviceScale: scale) }
            }
            let kernels = [CSB_KERNEL_PORTABLE, CSB_KERNEL_AVX2, CSB_KERNEL_AVX512].map { Int32($0) }.filter(csb_kernel_supported)
            for (bothCores, kernel) in [false, true].flatMap({ b in kernels.map { (b, $0) } }) {
                let image = background(w, h, scale: scale)
                let batch = SpriteBatch()
                batch.usesBothCores = bothCores
                batch.kernel = kernel
                image.withContext { cr in
                    cairo_rectangle(cr, 10, 7, 270, 220)
                    cairo_clip(cr)
                    for (s, x, y, a) in placements { batch.add(s, x: x, y: y, alpha: a, deviceScale: scale) }
                    batch.flush(into: cr)
                }
                let diff = PixelDiff.compare(image, expected, channelTolerance: 0)
                XCTAssertEqual(diff.differingPixels, 0,
                               "scale \(scale), both cores \(bothCores), kernel \(kernel): max delta \(diff.maxChannelDelta)")
            }
        }
    }

    /// A zoom animation's frames from scaled tiles, and direct paints, are the same on one core
    /// and on two.
    func testBaseMapBandsEqualOneThread() {
        for scale in [1.0, 2.0] {
            var cam = Camera(center: GeoCoordinate(latitude: 46, longitude: 8), zoom: 4, viewportSize: ScreenSize(width: 640, height: 400))
            func frames(bothCores: Bool) -> [ImageSurface] {
                let renderer = BaseMapRenderer(coarse: TestMaps.coarse, detailed: TestMaps.detailed)
                renderer.usesBothCores = bothCores
                var out: [ImageSurface] = []
                var c = cam
                for (z, animating) in [(4.0, false), (4.3, true), (4.45, true), (4.7, true), (4.7, false)] {
                    c.setZoom(z)
                    let image = ImageSurface(width: 640, height: 400, scale: scale)
                    image.withContext { renderer.draw(in: $0, camera: c, isAnimating: animating) }
                    out.append(image)
                }
                return out
            }
            let one = frames(bothCores: false), two = frames(bothCores: true)
            for (k, (a, b)) in zip(one, two).enumerated() {
                // Scaled tiles: pixman may round a bilinear weight differently under the band's
                // clip (one level at most). Direct paints: each band culls its own lines, which
                // may move a line's pixel or two by a few levels.
                let direct = k == 0
                let diff = PixelDiff.compare(a, b, channelTolerance: direct ? 8 : 1)
                XCTAssertLessThanOrEqual(diff.differingPixels, direct ? 20 : 0,
                                         "scale \(scale), frame \(k): max delta \(diff.maxChannelDelta)")
                // And a wrong band (shifted, missing, painted twice) would show far more.
                XCTAssertLessThan(PixelDiff.compare(a, b, channelTolerance: 0).differingFraction, 0.005)
            }
            cam.setZoom(4)
        }
    }
}
