import CCairo
import ClusterCore
@testable import MapRender
import XCTest

/// `csb_blit_nearest` (through `ScaledBlitList`) against cairo's own nearest sampling of the same
/// blits: unscaled copies identical, scaled ones identical except where the sampled position lies
/// within a few thousandths of a pixel of a boundary between source pixels (pixman works in 16.16
/// fixed point, the kernel in double precision), on random tiles, scales, offsets, clips and bands.
final class NearestBlitTests: XCTestCase {
    private func randomTile(_ rng: inout SeededRandom, scale: Double) -> ImageSurface {
        let side = 8 + Int(rng.next() % 90)
        let tile = ImageSurface(width: side, height: side + Int(rng.next() % 20), scale: scale, opaque: true)
        cairo_surface_flush(tile.surface)
        let stride = Int(cairo_image_surface_get_stride(tile.surface)) / 4
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(tile.surface)!)
            .bindMemory(to: UInt32.self, capacity: stride * tile.pixelHeight)
        // Random colours with a random (ignored) top byte: the kernel must write it as opaque.
        for k in 0..<(stride * tile.pixelHeight) { data[k] = UInt32(truncatingIfNeeded: rng.next()) }
        cairo_surface_mark_dirty(tile.surface)
        return tile
    }

    private func pixels(_ image: ImageSurface) -> [UInt32] {
        cairo_surface_flush(image.surface)
        let stride = Int(cairo_image_surface_get_stride(image.surface)) / 4
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(image.surface)!)
            .bindMemory(to: UInt32.self, capacity: stride * image.pixelHeight)
        var out: [UInt32] = []
        for y in 0..<image.pixelHeight { for x in 0..<image.pixelWidth { out.append(data[y * stride + x]) } }
        return out
    }

    /// One random frame of blits (nearest, some bilinear, some inside a clip) drawn with and
    /// without the kernel; returns (pixels with, pixels without, how far each pixel's sampled
    /// position lies from a source pixel boundary in the nearest blit that painted it last).
    private func frame(seed: UInt64, scale: Double, unscaled: Bool, band: Bool)
        -> (kernel: [UInt32], cairo: [UInt32], slack: [Double]) {
        var rng = SeededRandom(seed: seed)
        let w = 60 + Int(rng.next() % 200), h = 50 + Int(rng.next() % 150)
        let background = (0..<(w * h * Int(scale * scale))).map { _ in UInt32(truncatingIfNeeded: rng.next()) | 0xFF00_0000 }
        var ops: [ScaledBlitList.Op] = []
        var tiles: [ImageSurface] = []
        func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
        var slack = [Double](repeating: .infinity, count: background.count)
        let pw = Int((Double(w) * scale).rounded())
        var clip: ScaledBlitList.Rect?
        for n in 0..<12 {
            let tile = randomTile(&rng, scale: scale)
            tiles.append(tile)
            let g = unscaled ? 1 : 0.55 + rng.unit() * 1.1
            // Unscaled tiles at whole device pixels (as exact tiles are); scaled ones anywhere.
            let x = unscaled ? snap(rng.unit() * Double(w) - 20) : rng.unit() * Double(w) - 20
            let y = unscaled ? snap(rng.unit() * Double(h) - 20) : rng.unit() * Double(h) - 20
            let tw = Double(tile.pixelWidth) / scale * g, th = Double(tile.pixelHeight) / scale * g
            // The rectangle a little past the tile's edge sometimes (PAD extends the edge pixels).
            let pad = n % 3 == 0 ? 2.0 : 0
            let rect = ScaledBlitList.Rect(x0: snap(x - pad), y0: snap(y - pad), x1: snap(x + tw + pad), y1: snap(y + th + pad))
            let bilinear = !unscaled && n % 4 == 3
            if n == 6 {
                let c = ScaledBlitList.Rect(x0: snap(Double(w) * 0.2), y0: snap(Double(h) * 0.1),
                                            x1: snap(Double(w) * 0.7), y1: snap(Double(h) * 0.8))
                ops.append(.clip(c))
                clip = c
            }
            ops.append(.tile(tile, x: x, y: y, g: g, rect: rect, filter: bilinear ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_NEAREST))
            if n == 9 { ops.append(.unclip); clip = nil }
            // Where the nearest samples of this blit fall, relative to boundaries (cairo's rule).
            let ph = Int((Double(h) * scale).rounded())
            for py in max(0, Int(rect.y0 * scale))..<min(ph, max(0, Int(rect.y1 * scale))) {
                for px in max(0, Int(rect.x0 * scale))..<min(pw, max(0, Int(rect.x1 * scale))) {
                    let ux = (Double(px) + 0.5) / scale, uy = (Double(py) + 0.5) / scale
                    var inside = ux >= rect.x0 && ux < rect.x1 && uy >= rect.y0 && uy < rect.y1
                    if let c = clip { inside = inside && ux >= c.x0 && ux < c.x1 && uy >= c.y0 && uy < c.y1 }
                    guard inside else { continue }
                    if bilinear { slack[py * pw + px] = -1; continue }  // drawn by cairo in both
                    let sx = (ux - x) / g * scale, sy = (uy - y) / g * scale
                    slack[py * pw + px] = min(abs(sx - sx.rounded()), abs(sy - sy.rounded()))
                }
            }
        }
        func draw(nearestInC: Bool) -> [UInt32] {
            let image = ImageSurface(width: w, height: h, scale: scale)
            cairo_surface_flush(image.surface)
            let stride = Int(cairo_image_surface_get_stride(image.surface)) / 4
            let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(image.surface)!)
                .bindMemory(to: UInt32.self, capacity: stride * image.pixelHeight)
            for y in 0..<image.pixelHeight { for x in 0..<pw { data[y * stride + x] = background[y * pw + x] } }
            cairo_surface_mark_dirty(image.surface)
            image.withContext { cr in
                cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
                if band {
                    // A band of rows, as the helper thread draws one.
                    cairo_rectangle(cr, 0, snap(Double(h) * 0.3), Double(w), snap(Double(h) * 0.45))
                    cairo_clip(cr)
                }
                ScaledBlitList.run(ops, in: cr, nearestInC: nearestInC) { $0.surface }
            }
            return pixels(image)
        }
        return (draw(nearestInC: true), draw(nearestInC: false), slack)
    }

    func testUnscaledCopiesAreExact() {
        for seed in 0..<6 as Range<UInt64> {
            for scale in [1.0, 2.0] {
                let r = frame(seed: 10 + seed, scale: scale, unscaled: true, band: seed % 2 == 1)
                XCTAssertEqual(r.kernel, r.cairo, "seed \(seed) scale \(scale)")
            }
        }
    }

    func testScaledCopiesSampleAsCairoDoes() {
        var compared = 0
        for seed in 0..<8 as Range<UInt64> {
            for scale in [1.0, 2.0] {
                let r = frame(seed: 40 + seed, scale: scale, unscaled: false, band: seed % 2 == 0)
                var differing = 0
                for k in r.kernel.indices where r.kernel[k] != r.cairo[k] {
                    differing += 1
                    // Only where the sample sits on (within 0.01 px of) a boundary between source pixels.
                    XCTAssertLessThan(r.slack[k], 0.01, "seed \(seed) scale \(scale) pixel \(k)")
                    XCTAssertGreaterThanOrEqual(r.slack[k], 0, "a bilinear blit differs: seed \(seed) pixel \(k)")
                    if differing > 20 { break }
                }
                XCTAssertLessThan(Double(differing), Double(r.kernel.count) * 0.01)
                compared += r.kernel.count
            }
        }
        XCTAssertGreaterThan(compared, 100_000)
    }

    /// Drawn in two bands on both cores, the frame is the one drawn on one thread.
    func testBandsOnBothCoresEqualOneThread() {
        var rng = SeededRandom(seed: 7)
        let tiles = (0..<9).map { _ in randomTile(&rng, scale: 1) }
        for g in [1.0, 1.19, 1.41] {
            let list = ScaledBlitList()
            for (n, tile) in tiles.enumerated() {
                let size = Double(tile.pixelWidth) * g
                let x = Double(n % 3) * 90 - 13.3, y = Double(n / 3) * 90 - 7.7
                list.append(.tile(tile, x: x, y: y, g: g, rect: ScaledBlitList.Rect(x0: x.rounded(), y0: y.rounded(),
                                                                                    x1: (x + size).rounded(), y1: (y + size).rounded()),
                                  filter: CAIRO_FILTER_NEAREST))
            }
            let ops = list.ops
            let one = ImageSurface(width: 240, height: 240), two = ImageSurface(width: 240, height: 240)
            one.withContext { cr in ScaledBlitList.run(ops, in: cr, nearestInC: true) { $0.surface } }
            two.withContext { cr in list.execute(in: cr, usingBothCores: true) }
            XCTAssertEqual(pixels(one), pixels(two), "g \(g)")
            XCTAssertNotEqual(pixels(one).filter { $0 == 0 }.count, pixels(one).count)
        }
    }
}
