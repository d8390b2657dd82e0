import ClusterCore
import Foundation
@testable import MapRender
import TileTestSupport
import XCTest

/// The dashes of thin lines are deposited in C (`CTileRaster/dash.c`); the cells must be exactly
/// those of the Swift code it replaced (kept below as the oracle), for seeded random dashed lines
/// of every direction, length and width a tile gives, inside, across and outside the raster.
final class DashKernelTests: XCTestCase {
    func testDashesDepositWhatTheSwiftCodeDid() {
        let (w, h) = (97, 64)
        var rng = SeededRandom(seed: 0xDA5E_0001)
        var covered = 0
        for round in 0..<200 {
            let raster = HairlineRasterizer(width: w, height: h)
            var reference = ReferenceDashes(width: w, height: h)
            let lineWidth = [0.5, 1, 1.3, 2, 2.6][round % 5]
            let dashes = [Double.random(in: 0.5...6, using: &rng), Double.random(in: 0.5...6, using: &rng)]
            let count = Int.random(in: 2...12, using: &rng)
            // Mostly inside, some points well outside (clipped pieces), a few repeated (no length).
            var xs = (0..<count).map { _ in Double.random(in: -20...Double(w + 20), using: &rng) }
            var ys = (0..<count).map { _ in Double.random(in: -20...Double(h + 20), using: &rng) }
            if round % 7 == 0 { xs[1] = xs[0]; ys[1] = ys[0] }
            if round % 11 == 0 { ys = ys.map { $0.rounded() } }  // axis-aligned pieces on pixel borders
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    raster.addDashedLine(x.baseAddress!, y.baseAddress!, count: count, dashes: dashes, lineWidth: lineWidth)
                }
            }
            reference.addDashedLine(xs, ys, dashes: dashes, lineWidth: lineWidth)
            // One dash on its own too (the entry point the painter's base map could use).
            let (ax, ay) = (Double.random(in: -5...Double(w + 5), using: &rng), Double.random(in: -5...Double(h + 5), using: &rng))
            let (bx, by) = (ax + Double.random(in: -9...9, using: &rng), ay + Double.random(in: -9...9, using: &rng))
            raster.addDash(ax, ay, bx, by, lineWidth: lineWidth)
            reference.addDash(ax, ay, bx, by, lineWidth: lineWidth)
            var differing = 0
            for y in 0..<h {
                for x in 0..<w where raster.coverage(x, y) != reference.cells[y * w + x] { differing += 1 }
            }
            covered += reference.cells.filter { $0 > 0 }.count
            XCTAssertEqual(differing, 0, "round \(round): cells differ from the Swift dashes")
            XCTAssertEqual(raster.dirtyRows.map { [$0.lowerBound, $0.upperBound] }, reference.dirtyRows.map { [$0.lowerBound, $0.upperBound] },
                           "round \(round): rows to composite")
        }
        XCTAssertGreaterThan(covered, 10_000, "the dashes cover pixels to compare")
    }
}

/// `HairlineRasterizer.addDash` and the painter's dash walk as they were in Swift (session 9).
private struct ReferenceDashes {
    let width: Int
    let height: Int
    var cells: [Float]
    var dirtyRows: ClosedRange<Int>?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        cells = [Float](repeating: 0, count: width * height)
    }

    mutating func addDashedLine(_ xs: [Double], _ ys: [Double], dashes: [Double], lineWidth: Double) {
        var index = 0
        var left = dashes[0]
        for i in 1..<xs.count {
            let ax = xs[i - 1], ay = ys[i - 1]
            let dx = xs[i] - ax, dy = ys[i] - ay
            let len = (dx * dx + dy * dy).squareRoot()
            guard len > 0 else { continue }
            let ux = (xs[i] - ax) / len, uy = (ys[i] - ay) / len
            var t = 0.0
            while t < len {
                let step = min(left, len - t)
                if index % 2 == 0 {
                    addDash(ax + ux * t, ay + uy * t, ax + ux * (t + step), ay + uy * (t + step), lineWidth: lineWidth)
                }
                t += step
                left -= step
                if left <= 1e-9 {
                    index += 1
                    if index == dashes.count { index = 0 }
                    left = dashes[index]
                }
            }
        }
    }

    private static func cellFloor(_ v: Double, below n: Int) -> Int {
        Int(min(max(v, -8), Double(n + 8)) + 8) - 8
    }

    private mutating func deposit(_ a: Int, _ cell: Int, _ c: Float, _ xMajor: Bool) {
        if xMajor { cells[cell * width + a] += c } else { cells[a * width + cell] += c }
    }

    mutating func addDash(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lineWidth: Double) {
        guard (x0 + y0 + x1 + y1).isFinite else { return }
        let dx = x1 - x0, dy = y1 - y0
        let adx = abs(dx), ady = abs(dy)
        guard adx > 0 || ady > 0 else { return }
        let pad = lineWidth + 2
        if max(x0, x1) < -pad || min(x0, x1) > Double(width) + pad || max(y0, y1) < -pad || min(y0, y1) > Double(height) + pad {
            return
        }
        let xMajor = adx >= ady
        let (a0, b0, a1) = xMajor ? (dx > 0 ? (x0, y0, x1) : (x1, y1, x0)) : (dy > 0 ? (y0, x0, y1) : (y1, x1, y0))
        let major = xMajor ? adx : ady, minor = xMajor ? ady : adx
        let slope = xMajor ? dy / dx : dx / dy
        let span = lineWidth * (major * major + minor * minor).squareRoot() / major
        let limit = xMajor ? width : height, across = xMajor ? height : width
        let half = span / 2
        let first = max(0, Self.cellFloor(a0, below: limit)), last = min(limit - 1, Self.cellFloor(a1, below: limit))
        guard first <= last else { return }
        let bA = b0 + (max(a0, Double(first)) - a0) * slope, bB = b0 + (min(a1, Double(last + 1)) - a0) * slope
        let reachLo = max(0, Self.cellFloor(min(bA, bB) - half, below: across))
        let reachHi = min(across - 1, Self.cellFloor(max(bA, bB) + half, below: across))
        guard reachLo <= reachHi else { return }
        let rows = xMajor ? reachLo...reachHi : first...last
        dirtyRows = dirtyRows.map { min($0.lowerBound, rows.lowerBound)...max($0.upperBound, rows.upperBound) } ?? rows
        var from = max(a0, Double(first))
        for a in first...last {
            let to = min(a1, Double(a + 1))
            let along = to - from
            let centre = b0 + (0.5 * (from + to) - a0) * slope
            from = to
            if along <= 0 { continue }
            let lo = centre - half, hi = centre + half
            let cLo = Self.cellFloor(lo, below: across), cHi = Self.cellFloor(hi, below: across)
            if cLo == cHi {
                if cLo >= 0 && cLo < across { deposit(a, cLo, Float((hi - lo) * along), xMajor) }
                continue
            }
            if cLo >= 0 && cLo < across { deposit(a, cLo, Float((Double(cLo + 1) - lo) * along), xMajor) }
            if cHi >= 0 && cHi < across { deposit(a, cHi, Float((hi - Double(cHi)) * along), xMajor) }
            var cell = max(0, cLo + 1)
            let whole = Float(along)
            while cell < min(cHi, across) {
                deposit(a, cell, whole, xMajor)
                cell += 1
            }
        }
    }
}
