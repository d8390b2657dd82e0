import CCairo
import MapModel
@testable import MapRender
import XCTest

/// Sprites made from cached bubble bodies and the shadow blur: the same pixels as drawn from scratch.
final class MarkSpriteTests: XCTestCase {
    private func bytes(_ image: ImageSurface) -> [UInt32] {
        cairo_surface_flush(image.surface)
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        let data = cairo_image_surface_get_data(image.surface)!
        var out: [UInt32] = []
        for y in 0..<image.pixelHeight {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<image.pixelWidth { out.append(row[x]) }
        }
        return out
    }

    /// A labelled bubble whose body comes from the cache (a bubble of another count made it first)
    /// has exactly the pixels, size and anchor of one whose body and count are drawn in one go.
    func testLabelledBubbleFromACachedBodyEqualsOneDrawnWhole() {
        let looks = [BubbleLook(), BubbleLook(fill: 0x3366CC, ring: [.init(color: 0xCC3333, twentyFourths: 10),
                                                                   .init(color: 0x33AA33, twentyFourths: 14)])]
        for scale in [1.0, 2.0] {
            for palette in [MapPalette.light, .dark] {
                for (step, r) in [(0, 15.0), (1, 20.0), (2, 26.0)] {
                    for look in looks {
                        for (hovered, selected) in [(false, false), (true, false), (false, true)] {
                            _ = MarkSprites.bubble(step: step, radius: r, hovered: hovered, selected: selected,
                                                   label: "7", look: look, palette: palette, scale: scale)
                            let label = ["12", "3.4k", "999"][step]
                            let cached = MarkSprites.bubble(step: step, radius: r, hovered: hovered, selected: selected,
                                                            label: label, look: look, palette: palette, scale: scale)
                            let c = r + MarkSprites.bubbleMargin, size = 2 * c
                            let fill = MarkSprites.fill(step: step, look: look, palette: palette)
                            let whole = Sprite(width: size, height: size, anchorX: c, anchorY: c, scale: scale) { cr in
                                MarkSprites.drawBubbleBody(step: step, radius: r, hovered: hovered, selected: selected,
                                                           look: look, palette: palette, scale: scale, in: cr)
                                MarkSprites.drawCentredText(label, font: MarkSprites.bubbleFont(step: step),
                                                            color: fill.readableTextColor, centreX: c, centreY: c,
                                                            maxWidth: 2 * r - 7, in: cr)
                            }
                            let what = "scale \(scale) \(palette.name) step \(step) hovered \(hovered) selected \(selected)"
                            XCTAssertEqual(cached.image.pixelWidth, whole.image.pixelWidth, what)
                            XCTAssertEqual(cached.image.pixelHeight, whole.image.pixelHeight, what)
                            XCTAssertEqual(cached.anchorX, whole.anchorX, what)
                            XCTAssertEqual(cached.anchorY, whole.anchorY, what)
                            XCTAssertTrue(bytes(cached.image) == bytes(whole.image), what)
                        }
                    }
                }
            }
        }
    }

    /// The blur as first written (bounds-checked arrays): the oracle for the fast one.
    private func referenceBlur(_ alpha: [Int], width w: Int, height h: Int, radius r: Int) -> [Int] {
        var a = alpha
        var tmp = [Int](repeating: 0, count: max(w, h))
        let div = 2 * r + 1
        for _ in 0..<3 {
            for y in 0..<h {
                var sum = 0
                for k in 0...min(r, w - 1) { sum += a[y * w + k] }
                for x in 0..<w {
                    tmp[x] = sum / div
                    let add = x + r + 1, drop = x - r
                    if add < w { sum += a[y * w + add] }
                    if drop >= 0 { sum -= a[y * w + drop] }
                }
                for x in 0..<w { a[y * w + x] = tmp[x] }
            }
            for x in 0..<w {
                var sum = 0
                for k in 0...min(r, h - 1) { sum += a[k * w + x] }
                for y in 0..<h {
                    tmp[y] = sum / div
                    let add = y + r + 1, drop = y - r
                    if add < h { sum += a[add * w + x] }
                    if drop >= 0 { sum -= a[drop * w + x] }
                }
                for y in 0..<h { a[y * w + x] = tmp[y] }
            }
        }
        return a.map { min(255, $0) }
    }

    func testShadowBlurEqualsTheReferenceBlur() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        for (w, h, r) in [(1, 1, 1), (3, 7, 2), (44, 44, 2), (66, 66, 3), (5, 90, 9), (120, 13, 1), (31, 32, 40)] {
            let image = ImageSurface(pixelWidth: w, pixelHeight: h, scale: 1)
            cairo_surface_flush(image.surface)
            let stride = Int(cairo_image_surface_get_stride(image.surface))
            let data = cairo_image_surface_get_data(image.surface)!
            var alpha: [Int] = []
            for y in 0..<h {
                let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w {
                    let a = next() % 3 == 0 ? 0 : Int(next() % 256)
                    alpha.append(a)
                    row[x] = UInt32(a) << 24
                }
            }
            cairo_surface_mark_dirty(image.surface)
            SoftShadow.boxBlurAlpha(image, radius: r)
            let expected = referenceBlur(alpha, width: w, height: h, radius: r)
            XCTAssertEqual(bytes(image).map { Int($0 >> 24) }, expected, "\(w)×\(h) radius \(r)")
            XCTAssertTrue(bytes(image).allSatisfy { $0 & 0xFFFFFF == 0 }, "only alpha is written")
        }
    }
}
