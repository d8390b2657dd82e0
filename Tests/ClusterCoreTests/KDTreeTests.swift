import XCTest
@testable import ClusterCore

/// The static kd-tree and the cell index against brute force on seeded random inputs.
final class KDTreeTests: XCTestCase {
    func randomPoints(_ n: Int, seed: UInt64, duplicates: Bool = false) -> (x: [Double], y: [Double]) {
        var r = SeededRandom(seed: seed)
        var xs: [Double] = [], ys: [Double] = []
        for i in 0..<n {
            if duplicates && i % 7 == 0 && i > 0 {
                xs.append(xs[i / 2]); ys.append(ys[i / 2])
            } else {
                xs.append(r.unit() * 100); ys.append(r.unit() * 100)
            }
        }
        return (xs, ys)
    }

    func testRangeMatchesBruteForce() {
        for (seed, n, nodeSize) in [(1 as UInt64, 0, 64), (2, 1, 64), (3, 1000, 64), (4, 3000, 8), (5, 2500, 2)] {
            let (xs, ys) = randomPoints(n, seed: seed, duplicates: true)
            let tree = KDTree(x: xs, y: ys, nodeSize: nodeSize)
            var r = SeededRandom(seed: seed + 100)
            for _ in 0..<60 {
                let x0 = r.unit() * 110 - 5, y0 = r.unit() * 110 - 5
                let x1 = x0 + r.unit() * 40, y1 = y0 + r.unit() * 40
                let expected = (0..<n).filter { xs[$0] >= x0 && xs[$0] <= x1 && ys[$0] >= y0 && ys[$0] <= y1 }
                XCTAssertEqual(tree.range(minX: x0, minY: y0, maxX: x1, maxY: y1).sorted(), expected)
                var buffer: [UInt32] = [99]
                tree.range(minX: x0, minY: y0, maxX: x1, maxY: y1, into: &buffer)
                XCTAssertEqual(buffer.dropFirst().map(Int.init).sorted(), expected)
            }
        }
    }

    func testWithinMatchesBruteForce() {
        for (seed, n, nodeSize) in [(11 as UInt64, 2000, 64), (12, 3000, 4), (13, 50, 64)] {
            let (xs, ys) = randomPoints(n, seed: seed, duplicates: true)
            let tree = KDTree(x: xs, y: ys, nodeSize: nodeSize)
            var r = SeededRandom(seed: seed + 100)
            for _ in 0..<60 {
                let qx = r.unit() * 100, qy = r.unit() * 100, rad = r.unit() * 15
                let expected = (0..<n).filter {
                    let dx = xs[$0] - qx, dy = ys[$0] - qy
                    return dx * dx + dy * dy <= rad * rad
                }
                XCTAssertEqual(tree.within(x: qx, y: qy, radius: rad).sorted(), expected)
            }
            // Every point finds itself with radius 0.
            for i in stride(from: 0, to: n, by: 97) {
                XCTAssertTrue(tree.within(x: xs[i], y: ys[i], radius: 0).contains(i))
            }
        }
    }

    func testFloatTreeMatchesBruteForceOnFloatCoordinates() {
        let (xs, ys) = randomPoints(2000, seed: 21)
        let tree = StaticKDTree<Float>(x: xs.map { $0 / 100 }, y: ys.map { $0 / 100 })
        let fx = xs.map { Double(Float($0 / 100)) }, fy = ys.map { Double(Float($0 / 100)) }
        let expected = (0..<2000).filter { fx[$0] >= 0.2 && fx[$0] <= 0.45 && fy[$0] >= 0.3 && fy[$0] <= 0.9 }
        XCTAssertEqual(tree.range(minX: 0.2, minY: 0.3, maxX: 0.45, maxY: 0.9).sorted(), expected)
    }

    func testParallelSortGivesTheSameTree() {
        let (xs, ys) = randomPoints(300_000, seed: 31)
        var coords = [Double](repeating: 0, count: 600_000)
        for i in 0..<300_000 { coords[2 * i] = xs[i]; coords[2 * i + 1] = ys[i] }
        let a = KDTree(interleaved: coords, parallel: false)
        let b = KDTree(interleaved: coords, parallel: true)
        XCTAssertEqual(a.ids, b.ids)
    }

    func testCellIndexMatchesBruteForce() {
        var r = SeededRandom(seed: 41)
        let n = 4000
        var xs = (0..<n).map { _ in r.unit() }, ys = (0..<n).map { _ in r.unit() }
        xs[0] = 1; ys[0] = 0; xs[1] = 0; ys[1] = 1  // edges of the unit square
        for cell in [0.001, 0.013, 0.2] {
            let index = CellIndex(xs: xs, ys: ys, cell: cell)
            let fx = xs.map { Double(Float($0)) }, fy = ys.map { Double(Float($0)) }
            for _ in 0..<40 {
                let x0 = r.unit() * 1.2 - 0.1, y0 = r.unit() * 1.2 - 0.1
                let x1 = x0 + r.unit() * 0.5, y1 = y0 + r.unit() * (r.unit() < 0.2 ? 1.2 : 0.3)
                var got: [Int] = []
                index.forEachInRange(minX: x0, minY: y0, maxX: x1, maxY: y1) { got.append(Int(index.items[$0])) }
                let expected = (0..<n).filter { fx[$0] >= x0 && fx[$0] <= x1 && fy[$0] >= y0 && fy[$0] <= y1 }
                XCTAssertEqual(got.sorted(), expected)

                let qx = r.unit(), qy = r.unit(), rad = r.unit() * 0.05
                var near: [Int] = []
                index.forEachWithin(qx: qx, qy: qy, r: rad) { near.append(Int(index.items[$0])) }
                let expectedNear = (0..<n).filter {
                    let dx = fx[$0] - qx, dy = fy[$0] - qy
                    return dx * dx + dy * dy <= rad * rad
                }
                XCTAssertEqual(near.sorted(), expectedNear)
            }
        }
    }

    /// The query directory of stored levels changes how a row's first entry is found, never
    /// which entries are visited or their order: compared with the searching index on uniform
    /// and clumped points (blocks holding many entries), grid edges and boxes off the square.
    func testCellIndexDirectoryVisitsTheSamePositions() {
        var r = SeededRandom(seed: 43)
        let n = 20_000
        var xs = (0..<n).map { i in i % 3 == 0 ? 0.41 + r.unit() * 0.002 : r.unit() }
        var ys = (0..<n).map { i in i % 3 == 0 ? 0.7 + r.unit() * 0.001 : r.unit() }
        xs[0] = 1; ys[0] = 0; xs[1] = 0; ys[1] = 1; xs[2] = 1; ys[2] = 1; xs[3] = 0; ys[3] = 0
        for cell in [0.0001, 0.0007, 0.013, 0.2] {
            let plain = CellIndex(xs: xs, ys: ys, cell: cell)
            var directed = plain
            directed.buildDirectory()
            XCTAssertFalse(directed.directory.isEmpty)
            XCTAssertLessThanOrEqual(directed.directory.count, n / 4)
            for q in 0..<300 {
                let x0 = q < 150 ? r.unit() * 1.2 - 0.1 : 0.405 + r.unit() * 0.01
                let y0 = q < 150 ? r.unit() * 1.2 - 0.1 : 0.695 + r.unit() * 0.01
                let x1 = x0 + r.unit() * (q % 2 == 0 ? 0.01 : 0.3), y1 = y0 + r.unit() * (q % 3 == 0 ? 0.005 : 0.2)
                var expected: [Int] = [], got: [Int] = []
                plain.forEachInRange(minX: x0, minY: y0, maxX: x1, maxY: y1) { expected.append($0) }
                directed.forEachInRange(minX: x0, minY: y0, maxX: x1, maxY: y1) { got.append($0) }
                XCTAssertEqual(got, expected, "cell \(cell) box \(q)")
                if got != expected { return }
            }
            var all: [Int] = []
            directed.forEachInRange(minX: 0, minY: 0, maxX: 1, maxY: 1) { all.append($0) }
            XCTAssertEqual(all.count, n)
        }
    }

    /// A directory built from the keys in parts on several threads is the one built position by
    /// position: sizes around the smallest directory and the two-thread threshold, clumps (a
    /// part's edge inside one block, whole parts in one block) and empty blocks between parts.
    func testDirectoryInPartsEqualsOneBuiltInTurn() {
        var r = SeededRandom(seed: 44)
        for n in [1024, 1025, 4099, 131_071, 131_072, 140_000] {
            let xs = (0..<n).map { i in i % 2 == 0 ? 0.41 + r.unit() * 0.0001 : (i % 7 == 0 ? 0.9 : r.unit() * 0.5) }
            let ys = (0..<n).map { i in i % 2 == 0 ? 0.7 + r.unit() * 0.0001 : (i % 7 == 0 ? 0.95 : r.unit() * 0.5) }
            for cell in [0.0002, 0.01] {
                var inTurn = CellIndex(xs: xs, ys: ys, cell: cell)
                let keys = (0..<n).map { inTurn.key(at: $0) }
                let parted = inTurn
                inTurn.buildDirectory()
                XCTAssertFalse(inTurn.directory.isEmpty)
                for parts in [nil, 1, 2, 3, 8] {
                    var index = parted
                    keys.withUnsafeBufferPointer { index.buildDirectory(keys: $0, parts: parts) }
                    XCTAssertEqual(index.directoryShift, inTurn.directoryShift)
                    XCTAssertEqual(index.directory, inTurn.directory, "n \(n) cell \(cell) parts \(String(describing: parts))")
                    // The keys read through an order (a band's entries in stored order, `PairBand.finish`).
                    var order = (0..<n).map(UInt32.init)
                    for i in stride(from: n - 1, to: 0, by: -1) { order.swapAt(i, Int(r.next() % UInt64(i + 1))) }
                    var scattered = [UInt64](repeating: .max, count: n)
                    for p in 0..<n { scattered[Int(order[p])] = keys[p] }
                    var builder = CellIndex.DirectoryBuilder(capacity: n, width: parted.width)!
                    scattered.withUnsafeBufferPointer { s in
                        order.withUnsafeBufferPointer { builder.addAll(s.baseAddress!, through: $0.baseAddress!, count: n, parts: parts ?? 2) }
                    }
                    var throughOrder = parted
                    throughOrder.setDirectory(builder)
                    XCTAssertEqual(throughOrder.directory, inTurn.directory, "through an order, n \(n) parts \(String(describing: parts))")
                }
            }
        }
    }

    func testNeighborGraphMatchesRadiusQueries() {
        var r = SeededRandom(seed: 51)
        let n = 5000
        // Clumps, so there are many neighbours; centres not exactly on Float values.
        let xs = (0..<n).map { i in 0.3 + Double(i % 40) * 0.001 + r.unit() * 0.0004 }
        let ys = (0..<n).map { i in 0.6 + Double(i / 40 % 40) * 0.001 + r.unit() * 0.0004 }
        let rad = 0.0007
        let index = CellIndex(xs: xs, ys: ys, cell: NeighborGraph.cellSize(radius: rad))
        guard let graph = NeighborGraph.build(index: index, centreX: xs, centreY: ys, radius: rad, budget: 1 << 30) else {
            return XCTFail("graph not built")
        }
        let tree = StaticKDTree<Float>(x: xs, y: ys)
        for i in 0..<n {
            let expected = tree.within(x: xs[i], y: ys[i], radius: rad).filter { $0 != i }.sorted()
            let got = graph.targets[Int(graph.start[i])..<Int(graph.start[i + 1])].map(Int.init).sorted()
            XCTAssertEqual(got, expected, "item \(i)")
            if got != expected { break }
        }
        XCTAssertNil(NeighborGraph.build(index: index, centreX: xs, centreY: ys, radius: rad, budget: 10))
    }
}
