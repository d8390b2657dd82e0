import ClusterCore
import CCairo
import Foundation
@testable import MapRender
import TileTestSupport
import XCTest

/// `CoverageRasterizer.addPolyline` strokes a line as one outline: checked pixel by pixel against
/// cairo's own stroker (round joins; round caps for wide lines, square ones for thin) on seeded
/// random lines with sharp bends, hairpins, segments shorter than the width and closed rings —
/// the cases where an outline could leave a hole or cover outside the stroke.
final class PolylineOutlineTests: XCTestCase {
    private let size = 64
    /// Both strokes are drawn 4× magnified and averaged down: coverage then counts how much of
    /// each pixel the shape covers, not how each rasteriser antialiases (an area-accumulating
    /// rasteriser doubles the soft edge where two pieces of one line share a border, as when a
    /// way runs back over itself, which says nothing about the shape).
    private let zoom = 4

    /// Coverage (0…1) per pixel of black on white, read back from the green channel, averaged
    /// over `zoom × zoom` blocks.
    private func coverage(_ s: ImageSurface) -> [Double] {
        var out = [Double](repeating: 0, count: size * size)
        for y in 0..<(size * zoom) {
            for x in 0..<(size * zoom) {
                out[(y / zoom) * size + x / zoom] += (1 - Double(s.pixel(x: x, y: y).g) / 255) / Double(zoom * zoom)
            }
        }
        return out
    }

    private func white() -> ImageSurface {
        let s = ImageSurface(width: size * zoom, height: size * zoom, opaque: true)
        s.withContext { cr in cairo_set_source_rgb(cr, 1, 1, 1); cairo_paint(cr) }
        return s
    }

    private func ours(_ xs: [Double], _ ys: [Double], halfWidth h: Double, closed: Bool, dump: String? = nil) -> [Double] {
        let s = white()
        let r = CoverageRasterizer(width: size * zoom, height: size * zoom)
        let k = Double(zoom)
        let zx = xs.map { $0 * k }, zy = ys.map { $0 * k }
        zx.withUnsafeBufferPointer { x in
            zy.withUnsafeBufferPointer { y in
                r.addPolyline(x.baseAddress!, y.baseAddress!, count: x.count, halfWidth: h * k, closed: closed, roundEnds: h >= 1)
            }
        }
        r.compositeOffset(into: s.surface, originX: 0, originY: 0, red: 0, green: 0, blue: 0, alpha: 1)
        if let dump { try? s.writePNG(to: URL(fileURLWithPath: dump + "-ours.png")) }
        return coverage(s)
    }

    private func cairos(_ xs: [Double], _ ys: [Double], halfWidth h: Double, closed: Bool, dump: String? = nil) -> [Double] {
        let s = white()
        s.withContext { cr in
            cairo_scale(cr, Double(zoom), Double(zoom))
            cairo_move_to(cr, xs[0], ys[0])
            for i in 1..<xs.count { cairo_line_to(cr, xs[i], ys[i]) }
            if closed { cairo_close_path(cr) }
            cairo_set_line_width(cr, 2 * h)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_set_line_cap(cr, h >= 1 ? CAIRO_LINE_CAP_ROUND : CAIRO_LINE_CAP_SQUARE)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_stroke(cr)
        }
        if let dump { try? s.writePNG(to: URL(fileURLWithPath: dump + "-cairo.png")) }
        return coverage(s)
    }

    func testRandomLinesMatchCairosRoundStroke() {
        var rng = SeededRandom(seed: 11)
        for trial in 0..<90 {
            let h = [0.4, 0.8, 1.5, 3, 6, 11][trial % 6]
            let closed = trial % 5 == 4
            let count = 2 + Int(rng.next() % 9)
            // Steps of 0.4–20 px in any direction: sharp bends, hairpins, segments shorter than the width.
            var xs = [14 + rng.unit() * 36], ys = [14 + rng.unit() * 36]
            for _ in 1..<count {
                let angle = rng.unit() * 2 * Double.pi, step = 0.4 + rng.unit() * rng.unit() * 20
                xs.append(min(58, max(6, xs.last! + cos(angle) * step)))
                ys.append(min(58, max(6, ys.last! + sin(angle) * step)))
            }
            let reverses = trial % 7 == 3 || (closed && count == 2)
            if trial % 7 == 3 {  // an exact hairpin: the way runs back over its last segment
                xs.append(xs[xs.count - 2]); ys.append(ys[ys.count - 2])
            }
            if closed { xs.append(xs[0]); ys.append(ys[0]) }
            let dump = ProcessInfo.processInfo.environment["OUTLINE_DUMP"].map { "\($0)/t\(trial)" }
            let a = ours(xs, ys, halfWidth: h, closed: closed, dump: dump), b = cairos(xs, ys, halfWidth: h, closed: closed, dump: dump)
            var worst = 0.0, inkA = 0.0, inkB = 0.0
            for i in a.indices {
                worst = max(worst, abs(a[i] - b[i]))
                inkA += a[i]; inkB += b[i]
            }
            let what = "trial \(trial): h \(h), closed \(closed), points \(zip(xs, ys).map { "(\($0), \($1))" })"
            // Arcs as chords within 0.3 px of the magnified circle: a pixel may differ by a few
            // percent; a hole, a missing join or a stray triangle by much of a pixel.
            XCTAssertLessThan(worst, 0.2, what)
            if reverses {
                // Where the two sides of a way running back over itself coincide, their soft
                // edges add up (as the quads of the old stroker's did): up to a few percent more ink.
                XCTAssertGreaterThan(inkA, inkB - max(0.5, inkB * 0.02), what)
                XCTAssertLessThan(inkA, inkB + max(0.5, inkB * 0.15), what)
            } else {
                XCTAssertEqual(inkA, inkB, accuracy: max(0.5, inkB * 0.02), what)
            }
        }
    }

    func testADotAndDegenerateLines() {
        // Every point the same: a round dot for a wide line, nothing for a thin one.
        let dot = ours([40, 40, 40], [40, 40, 40], halfWidth: 4, closed: false)
        XCTAssertEqual(dot[40 * size + 40], 1, accuracy: 0.01)
        XCTAssertEqual(dot.reduce(0, +), Double.pi * 16, accuracy: 3.5)  // an octagon
        XCTAssertEqual(ours([40, 40], [40, 40], halfWidth: 0.5, closed: false).reduce(0, +), 0)
        // Repeated points inside a line change nothing.
        let plain = ours([10, 50, 50], [10, 10, 60], halfWidth: 3, closed: false)
        let repeated = ours([10, 10, 50, 50, 50, 50], [10, 10, 10, 10, 60, 60], halfWidth: 3, closed: false)
        XCTAssertEqual(plain, repeated)
    }
}

private extension SeededRandom {
    /// A double in 0..<1.
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
