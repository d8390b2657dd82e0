import XCTest
@testable import MapModel

/// Marks that would overlap are put side by side (issue 29 item 5): on random circles, no two
/// overlap afterwards, marks already apart don't move, and the layout moves with the map.
final class SideBySideLayoutTests: XCTestCase {
    struct Random {
        var state: UInt64
        mutating func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    static func assertApart(_ c: [(center: ScreenPoint, radius: Double)], _ p: [ScreenPoint], gap: Double,
                            file: StaticString = #filePath, line: UInt = #line) {
        for i in p.indices {
            for j in p.indices where j > i {
                let d = hypot(p[i].x - p[j].x, p[i].y - p[j].y)
                if d < c[i].radius + c[j].radius + gap - 1e-6 {
                    XCTFail("marks \(i) and \(j) overlap: \(d) < \(c[i].radius + c[j].radius + gap)", file: file, line: line)
                    return
                }
            }
        }
    }

    func testRandomPilesComeOutSideBySide() {
        var rng = Random(state: 11)
        let layout = SideBySideLayout()
        for round in 0..<60 {
            // From a few marks on one spot to hundreds spread over a screen, with piles.
            let n = [2, 3, 8, 40, 150, 400][round % 6]
            let spread = [0.0, 5, 60, 400, 1280][round % 5]
            var circles: [(center: ScreenPoint, radius: Double)] = []
            for _ in 0..<n {
                let pile = rng.next() < 0.3
                let x = pile ? 300 + rng.next() * 3 : rng.next() * spread
                let y = pile ? 200 + rng.next() * 3 : rng.next() * spread * 0.6
                circles.append((ScreenPoint(x: x, y: y), [8, 15, 20, 26, 12.5][Int(rng.next() * 5)]))
            }
            let placed = layout.centres(of: circles)
            Self.assertApart(circles, placed, gap: layout.gap)
            // Translation-invariant: the same pile one screen to the right lands one screen right.
            let shifted = layout.centres(of: circles.map { (ScreenPoint(x: $0.center.x + 1000, y: $0.center.y - 77), $0.radius) })
            for (a, b) in zip(placed, shifted) {
                XCTAssertEqual(b.x - a.x, 1000, accuracy: 1e-6)
                XCTAssertEqual(b.y - a.y, -77, accuracy: 1e-6)
            }
        }
    }

    func testMarksApartStayAndTheLargestOfAPileKeepsItsSpot() {
        let layout = SideBySideLayout()
        let apart: [(center: ScreenPoint, radius: Double)] = [(ScreenPoint(x: 0, y: 0), 20), (ScreenPoint(x: 100, y: 0), 20)]
        XCTAssertEqual(layout.centres(of: apart), apart.map(\.center))
        let pile: [(center: ScreenPoint, radius: Double)] = [(ScreenPoint(x: 50, y: 50), 15), (ScreenPoint(x: 51, y: 50), 26),
                                                             (ScreenPoint(x: 50, y: 52), 20)]
        let placed = layout.centres(of: pile)
        XCTAssertEqual(placed[1], pile[1].center, "the largest stays")
        Self.assertApart(pile, placed, gap: layout.gap)
        // Side by side, not scattered: each moved about as far as it had to.
        for i in [0, 2] {
            XCTAssertLessThan(hypot(placed[i].x - 51, placed[i].y - 50), 26 + 20 + 20 + 2 * layout.gap + 1)
        }
        // A huge pile (over 64 at one spot) packs on a grid, still apart.
        let many = (0..<300).map { (center: ScreenPoint(x: 10 + Double($0 % 3), y: 10), radius: Double(8 + $0 % 19)) }
        Self.assertApart(many, layout.centres(of: many), gap: layout.gap)
    }
}
