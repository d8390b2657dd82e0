import CCairo
import ClusterCore
import CSpriteBlend
@testable import MapRender
import XCTest

/// Every sprite compositing kernel this CPU runs (AVX-512, AVX2, portable) gives exactly the bytes
/// of the Swift compositing it replaced (`SwiftSpriteCompositor`), on random sprites, targets,
/// opacities, clips, origins and bands. (`BandedDrawingTests` checks each against cairo's paints.)
final class SpriteKernelTests: XCTestCase {
    private let kernels = [CSB_KERNEL_PORTABLE, CSB_KERNEL_AVX2, CSB_KERNEL_AVX512].map { Int32($0) }

    /// A sprite of random valid premultiplied pixels in stretches (transparent, translucent,
    /// opaque, of random lengths), so that its rows have runs of every kind and length.
    private func randomSprite(_ rng: inout SeededRandom) -> ImageSurface {
        let w = 1 + Int(rng.next() % 90), h = 1 + Int(rng.next() % 50)
        let image = ImageSurface(pixelWidth: w, pixelHeight: h, scale: 1)
        cairo_surface_flush(image.surface)
        let stride = Int(cairo_image_surface_get_stride(image.surface)) / 4
        let data = UnsafeMutableRawPointer(cairo_image_surface_get_data(image.surface)!).bindMemory(to: UInt32.self,
                                                                                                    capacity: stride * h)
        for y in 0..<h {
            var x = 0
            while x < w {
                let kind = rng.next() % 3, length = 1 + Int(rng.next() % (kind == 2 ? 40 : 12))
                for k in x..<min(w, x + length) {
                    let a = kind == 0 ? 0 : kind == 2 ? 255 : UInt32(rng.next() % 256)
                    // Each colour channel at most the alpha (valid premultiplied, as cairo makes).
                    var p = a << 24
                    for shift in [16, 8, 0] as [UInt32] { p |= UInt32(rng.next() % UInt64(a + 1)) << shift }
                    data[y * stride + k] = p
                }
                x += length
            }
        }
        cairo_surface_mark_dirty(image.surface)
        return image
    }

    func testKernelsEqualTheSwiftCompositing() {
        let best = csb_best_kernel()
        XCTAssertTrue(csb_kernel_supported(best))
        var tested = Set<Int32>()
        for seed in 0..<8 as Range<UInt64> {
            var rng = SeededRandom(seed: 100 + seed)
            let sprites = (0..<16).map { _ in randomSprite(&rng) }
            let runs = sprites.map { SpriteRuns($0) }
            let w = 40 + Int(rng.next() % 360), h = 30 + Int(rng.next() % 260)
            let stride = w + Int(rng.next() % 9)
            let background = (0..<(stride * h)).map { _ in UInt32(truncatingIfNeeded: rng.next()) }
            let items: [csb_item] = (0..<200).map { k in
                let r = runs[Int(rng.next() % UInt64(runs.count))]
                let alpha: UInt32 = k % 3 == 0 ? UInt32(1 + rng.next() % 254) : 255
                return csb_item(pixels: r.pixels, row_start: r.rowStart, runs: r.runs, stride: r.stride, width: r.width,
                                height: r.height, x: Int(rng.next() % UInt64(w + 120)) - 100,
                                y: Int(rng.next() % UInt64(h + 80)) - 60, alpha: alpha)
            }
            // A clip inside the image (sometimes all of it), and user (0, 0) shifted.
            let whole = seed % 3 == 0
            let cx0 = whole ? 0 : Int(rng.next() % UInt64(w / 2)), cy0 = whole ? 0 : Int(rng.next() % UInt64(h / 2))
            let cx1 = whole ? w : cx0 + 1 + Int(rng.next() % UInt64(w - cx0)), cy1 = whole ? h : cy0 + 1 + Int(rng.next() % UInt64(h - cy0))
            let ox = Int(rng.next() % 21) - 10, oy = Int(rng.next() % 21) - 10
            func target(_ data: UnsafeMutablePointer<UInt32>) -> csb_target {
                csb_target(data: data, stride: stride, origin_x: ox, origin_y: oy, clip_x0: cx0, clip_y0: cy0,
                           clip_x1: cx1, clip_y1: cy1)
            }
            var expected = background
            expected.withUnsafeMutableBufferPointer {
                SwiftSpriteCompositor.compositeBand(items, into: target($0.baseAddress!), rows: cy0..<cy1)
            }
            XCTAssertNotEqual(expected, background)
            for kernel in kernels where csb_kernel_supported(kernel) {
                tested.insert(kernel)
                // In one piece, in bands of a few rows, and split in two as on two cores.
                let bands = [0, 1 + Int(rng.next() % 40)]
                for bandRows in bands {
                    var image = background
                    image.withUnsafeMutableBufferPointer { buffer in
                        withUnsafePointer(to: target(buffer.baseAddress!)) { t in
                            let split = (cy0 + cy1) / 2
                            csb_composite(items, items.count, t, cy0, split, bandRows, kernel)
                            csb_composite(items, items.count, t, split, cy1, bandRows, kernel)
                        }
                    }
                    let first = image.indices.first { image[$0] != expected[$0] }
                    XCTAssertNil(first, "seed \(seed), kernel \(kernel), bands of \(bandRows): first differing pixel \(first ?? 0)")
                }
            }
            withExtendedLifetime((sprites, runs)) {}
        }
        // The portable kernel always, and on this x86-64 machine the SIMD ones too.
        XCTAssertTrue(tested.contains(Int32(CSB_KERNEL_PORTABLE)))
        XCTAssertTrue(tested.contains(best))
    }
}
