import XCTest
@testable import MapModel

final class SelectionGeometryTests: XCTestCase {
    func testHullOfSquareWithInteriorPoints() {
        let pts = [ScreenPoint(x: 0, y: 0), ScreenPoint(x: 10, y: 0), ScreenPoint(x: 10, y: 10),
                   ScreenPoint(x: 0, y: 10), ScreenPoint(x: 5, y: 5), ScreenPoint(x: 3, y: 7), ScreenPoint(x: 5, y: 0)]
        let h = ConvexHull.hull(of: pts)
        XCTAssertEqual(Set(h), Set([ScreenPoint(x: 0, y: 0), ScreenPoint(x: 10, y: 0), ScreenPoint(x: 10, y: 10), ScreenPoint(x: 0, y: 10)]))
        XCTAssertEqual(h.count, 4)
    }

    func testHullContainsEveryPointOnRandomInput() {
        var g = SystemRandomNumberGenerator()
        for _ in 0..<20 {
            let pts = (0..<50).map { _ in ScreenPoint(x: Double.random(in: 0...500, using: &g), y: Double.random(in: 0...500, using: &g)) }
            let h = ConvexHull.hull(of: pts)
            // Every point is on the inner side of (or on) every hull edge.
            for i in 0..<h.count {
                let a = h[i], b = h[(i + 1) % h.count]
                for p in pts {
                    let cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)
                    XCTAssertGreaterThanOrEqual(cross, -1e-9)
                }
            }
        }
    }

    func testHullOfDegenerateInputs() {
        XCTAssertEqual(ConvexHull.hull(of: []).count, 0)
        XCTAssertEqual(ConvexHull.hull(of: [ScreenPoint(x: 1, y: 1), ScreenPoint(x: 1, y: 1)]).count, 1)
    }

    func testFanCircleUpToEight() {
        let f = FanLayout()
        let o = f.offsets(count: 8)
        XCTAssertEqual(o.count, 8)
        let r = (o[0].x * o[0].x + o[0].y * o[0].y).squareRoot()
        for p in o { XCTAssertEqual((p.x * p.x + p.y * p.y).squareRoot(), r, accuracy: 1e-9) }
        XCTAssertEqual(o[0].x, 0, accuracy: 1e-9)
        XCTAssertLessThan(o[0].y, 0, "first member straight above")
    }

    func testFanSpiralGrowsAndKeepsSpacing() {
        let o = FanLayout().offsets(count: 30)
        var last = 0.0
        for p in o {
            let r = (p.x * p.x + p.y * p.y).squareRoot()
            XCTAssertGreaterThan(r, last)
            last = r
        }
        for i in 1..<o.count {
            let d = ((o[i].x - o[i - 1].x) * (o[i].x - o[i - 1].x) + (o[i].y - o[i - 1].y) * (o[i].y - o[i - 1].y)).squareRoot()
            XCTAssertGreaterThan(d, 15, "neighbours must not overlap")
        }
        XCTAssertTrue(FanLayout().prefersList(count: 51))
        XCTAssertFalse(FanLayout().prefersList(count: 50))
    }

    func testCalloutAboveThePin() {
        let f = CalloutPlacement.frame(above: ScreenPoint(x: 200, y: 300), size: ScreenSize(width: 100, height: 60))
        XCTAssertEqual(f.midXForTest, 200)
        XCTAssertLessThan(f.maxY, 300)
    }

    func testRevealShiftIsMinimal() {
        let vp = ScreenSize(width: 800, height: 600)
        // Fully inside: no movement.
        let inside = CalloutPlacement.revealShift(callout: ScreenRect(x: 100, y: 100, width: 100, height: 60),
                                                  pin: ScreenPoint(x: 150, y: 180), pinRadius: 6, viewport: vp)
        XCTAssertEqual(inside.dx, 0); XCTAssertEqual(inside.dy, 0)
        // Callout sticks out of the top by 30 px: move down just enough (30 + margin).
        let top = CalloutPlacement.revealShift(callout: ScreenRect(x: 100, y: -30, width: 100, height: 60),
                                               pin: ScreenPoint(x: 150, y: 50), pinRadius: 6, viewport: vp)
        XCTAssertEqual(top.dx, 0)
        XCTAssertEqual(top.dy, 30 + CalloutPlacement.viewportMargin)
        // Off the right edge.
        let right = CalloutPlacement.revealShift(callout: ScreenRect(x: 750, y: 100, width: 100, height: 60),
                                                 pin: ScreenPoint(x: 800, y: 180), pinRadius: 6, viewport: vp)
        XCTAssertEqual(right.dx, -(850 - 800 + CalloutPlacement.viewportMargin))
    }
}

private extension ScreenRect {
    var midXForTest: Double { x + width / 2 }
}
