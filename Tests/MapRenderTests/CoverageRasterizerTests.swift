import CCairo
import Foundation
@testable import MapRender
import XCTest

final class CoverageRasterizerTests: XCTestCase {
    private func surface(_ w: Int, _ h: Int) -> ImageSurface {
        let s = ImageSurface(width: w, height: h, opaque: true)
        s.withContext { cr in cairo_set_source_rgb(cr, 1, 1, 1); cairo_paint(cr) }
        return s
    }

    private func green(_ s: ImageSurface, _ x: Int, _ y: Int) -> Int { Int(s.pixel(x: x, y: y).g) }

    func testCoverageIsTheAreaInsideEachPixel() {
        let s = surface(10, 10)
        let r = CoverageRasterizer(width: 10, height: 10)
        // A square from (2, 2) to (6.5, 5.25): full pixels inside, halves and quarters at its edges.
        r.addRing([2, 6.5, 6.5, 2], [2, 2, 5.25, 5.25])
        r.compositeOffset(into: s.surface, originX: 0, originY: 0, red: 1, green: 0, blue: 0, alpha: 1)
        // Green drops from 255 to 0 in proportion to coverage.
        XCTAssertEqual(green(s, 3, 3), 0, "inside")
        XCTAssertEqual(green(s, 1, 3), 255, "outside")
        XCTAssertEqual(green(s, 6, 3), 128, accuracy: 2, "half a pixel wide")
        XCTAssertEqual(green(s, 3, 5), 191, accuracy: 2, "a quarter of a pixel high")
        XCTAssertEqual(green(s, 6, 5), 223, accuracy: 2, "an eighth at the corner")
    }

    func testHolesCutOutAndOverlapsDoNotDarken() {
        let s = surface(20, 20)
        let r = CoverageRasterizer(width: 20, height: 20)
        r.addRing([1, 19, 19, 1], [1, 1, 19, 19])          // outer, one way
        r.addRing([5, 5, 15, 15], [5, 15, 15, 5])          // hole, the other way
        r.addRing([0, 8, 8, 0], [0, 0, 8, 8])              // overlaps the outer ring's corner
        r.compositeOffset(into: s.surface, originX: 0, originY: 0, red: 0, green: 0, blue: 0, alpha: 0.5)
        XCTAssertEqual(green(s, 10, 10), 255, "the hole is empty")
        XCTAssertEqual(green(s, 3, 3), 128, accuracy: 2, "overlap: still one coat of 50 %")
        XCTAssertEqual(green(s, 17, 17), 128, accuracy: 2)
        // The accumulation is cleared: compositing again draws nothing.
        r.compositeOffset(into: s.surface, originX: 0, originY: 0, red: 0, green: 0, blue: 0, alpha: 1)
        XCTAssertEqual(green(s, 3, 3), 128, accuracy: 2)
    }

    func testShapesBeyondTheEdgesAreClippedAndOffsetsApply() {
        let s = surface(10, 10)
        let r = CoverageRasterizer(width: 4, height: 4)
        // Covers far more than the 4×4 rasteriser: exactly its 4×4 pixels, placed at (3, 3).
        r.addRing([-100, 100, 100, -100], [-50, -50, 70, 70])
        r.compositeOffset(into: s.surface, originX: 3, originY: 3, red: 0, green: 0, blue: 0, alpha: 1)
        XCTAssertEqual(green(s, 3, 3), 0)
        XCTAssertEqual(green(s, 6, 6), 0)
        XCTAssertEqual(green(s, 2, 3), 255)
        XCTAssertEqual(green(s, 7, 6), 255)
        XCTAssertEqual(green(s, 6, 7), 255)
        // Degenerate input does nothing rather than trap.
        r.addEdge(.nan, 0, 1, 1)
        r.addEdge(0, .infinity, 1, 1)
        r.addRing([1, 2], [1, 2])
        r.compositeOffset(into: s.surface, originX: -100, originY: 500, red: 0, green: 0, blue: 0, alpha: 1)
    }
}
