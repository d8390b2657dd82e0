import ClusterCore
import CCairo
import Foundation
@testable import MapRender
import GoldenSupport
import TileTestSupport
import XCTest

/// A tile's thin dashed lines are deposited band by band through a ring of rows (`TileDashes`,
/// `ctr_hairline_composite_dashes`); the pixels must be those of the same dashes deposited in the
/// order added into a whole `HairlineRasterizer` and composited at once (the code it replaced),
/// for seeded random dashed lines: short and long dashes (a deeper ring, and pieces too long for
/// any ring), lines crossing each other and the raster's edges, a raster placed anywhere on the
/// surface, opaque and translucent colours.
final class BandedDashesTests: XCTestCase {
    func testBandedDashesGiveThePixelsOfDashesDepositedInOrder() {
        var rng = SeededRandom(seed: 0xBA4D_0001)
        var painted = 0
        for round in 0..<120 {
            let (w, h) = ([97, 256, 512][round % 3], [64, 200, 512][(round / 3) % 3])
            let (sw, sh) = (w + 40, h + 30)
            let origin = (Int.random(in: -30...30, using: &rng), Int.random(in: -30...30, using: &rng))
            let lineWidth = [0.5, 0.8, 1, 1.6, 2][round % 5]
            // Footpath dashes mostly; every seventh round long ones (a deeper ring), every eleventh
            // longer than a ring holds (the whole raster instead).
            let scale = round % 11 == 0 ? 120.0 : (round % 7 == 0 ? 14 : 1)
            let dashes = [Double.random(in: 0.5...4, using: &rng) * scale, Double.random(in: 0.5...3, using: &rng)]
            let color = MapColor(hex: [0x8A7F72, 0x3366CC, 0xFFFFFF][round % 3], alpha: round % 4 == 0 ? 0.55 : 1)
            var lines: [([Double], [Double])] = []
            for _ in 0..<Int.random(in: 1...30, using: &rng) {
                let count = Int.random(in: 2...14, using: &rng)
                var x = Double.random(in: -20...Double(w + 20), using: &rng), y = Double.random(in: -20...Double(h + 20), using: &rng)
                var xs: [Double] = [], ys: [Double] = []
                for _ in 0..<count {
                    xs.append(x); ys.append(y)
                    x += Double.random(in: -40...40, using: &rng); y += Double.random(in: -40...40, using: &rng)
                }
                lines.append((xs, ys))
            }
            let expected = surface(sw, sh), actual = surface(sw, sh)
            // In order, into the whole raster (as the painter did).
            let whole = HairlineRasterizer(width: w, height: h)
            for (xs, ys) in lines {
                xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeBufferPointer { y in
                        whole.addDashedLine(x.baseAddress!, y.baseAddress!, count: xs.count, dashes: dashes, lineWidth: lineWidth)
                    }
                }
            }
            whole.composite(into: expected.surface, originX: origin.0, originY: origin.1, color: color)
            // Banded.
            let raster = HairlineRasterizer(width: w, height: h)
            let banded = TileDashes()
            for (xs, ys) in lines {
                xs.withUnsafeBufferPointer { x in
                    ys.withUnsafeBufferPointer { y in banded.addDashedLine(x.baseAddress!, y.baseAddress!, count: xs.count, dashes: dashes) }
                }
            }
            banded.composite(with: raster, lineWidth: lineWidth, into: actual.surface, originX: origin.0, originY: origin.1, color: color)
            XCTAssertEqual(banded.count, 0, "the pieces are used up")
            let diff = PixelDiff.compare(actual, expected, channelTolerance: 0)
            XCTAssertEqual(diff.differingPixels, 0, "round \(round): pixels differ from the dashes deposited in order")
            painted += PixelDiff.compare(expected, surface(sw, sh), channelTolerance: 0).differingPixels
            // Both rasterisers are left clear: the next rule starts from nothing.
            XCTAssertNil(raster.dirtyRows)
            XCTAssertTrue((0..<h).allSatisfy { y in (0..<w).allSatisfy { raster.coverage($0, y) == 0 } })
        }
        XCTAssertGreaterThan(painted, 50_000, "the dashes paint pixels to compare")
    }

    /// A light grey surface with a pattern (so a wrong blend shows).
    private func surface(_ w: Int, _ h: Int) -> ImageSurface {
        let s = ImageSurface(width: w, height: h, opaque: true)
        s.withContext { cr in
            cairo_set_source_rgb(cr, 0.93, 0.92, 0.9)
            cairo_paint(cr)
            cairo_set_source_rgb(cr, 0.4, 0.6, 0.3)
            for i in stride(from: 0, to: w, by: 23) {
                cairo_rectangle(cr, Double(i), 0, 9, Double(h))
            }
            cairo_fill(cr)
        }
        return s
    }
}
