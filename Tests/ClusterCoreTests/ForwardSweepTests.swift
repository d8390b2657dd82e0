import XCTest
@testable import ClusterCore

/// The slot builder's forward sweep (`NeighborGraph.sweepForward`) against the general sweep,
/// and the band-length estimate (`LevelBuilder.sweepLikelyFits`).
final class ForwardSweepTests: XCTestCase {
    /// The same edges in the same order, and the same candidate count, as `sweep` with
    /// `forwardOnly`, in one part and in two (on two threads: over 65,536 entries), on points
    /// with clusters' centres (not Floats), duplicates and a dense spot.
    func testForwardSweepEqualsTheGeneralSweep() {
        let points = Fixtures.uniform(85_000, seed: 71) + Fixtures.denseCity(4000, seed: 72) + Fixtures.sameSpot(50)
        let slots = LevelBuilder.Slots(points: points)
        defer { slots.deallocate() }
        let alive = slots.mergeSome(killing: 0.2, seed: 73)
        for radius in [40.0 / (512 * 512), 40.0 / (512 * 128)] {
            let scratch = CellIndex.SortScratch(capacity: slots.n)
            guard let sorted = LevelBuilder.sortAlive(slots, count: alive, cell: NeighborGraph.cellSize(radius: radius),
                                                      centres: true, scratch: scratch) else {
                return XCTFail("a key and a slot fit in 64 bits")
            }
            let c = sorted.columns
            c.x.withUnsafeBufferPointer { xs in
            c.y.withUnsafeBufferPointer { ys in
            c.slots.withUnsafeBufferPointer { item in
            c.keys.withUnsafeBufferPointer { keys in
                var input = NeighborGraph.SweepInput(entries: alive, xs: xs.baseAddress!, ys: ys.baseAddress!,
                                                     item: item.baseAddress!, keys: keys.baseAddress!, shift: 0,
                                                     width: sorted.width, cell: sorted.cell,
                                                     cx: UnsafePointer(scratch.cx), cy: UnsafePointer(scratch.cy))
                input.forwardOnly = true
                let eps = NeighborGraph.searchDistance(radius: radius), r2 = radius * radius
                var expected: [UInt64] = [], expectedWork = 0
                for (from, to) in [(0, alive / 2), (alive / 2, alive)] {
                    guard let part = NeighborGraph.sweep(input, from: from, to: to, eps: eps, r2: r2, budget: .max) else {
                        return XCTFail("no budget")
                    }
                    expected += part.edges
                    expectedWork += part.work
                }
                XCTAssertGreaterThan(expected.count, 1000)
                guard let found = NeighborGraph.sweepEdges(input, radius: radius, budget: .max) else { return XCTFail("no budget") }
                XCTAssertEqual(found.edges, expected, "radius \(radius)")
                XCTAssertEqual(found.candidates, expectedWork, "radius \(radius)")
                var one = GrowingBuffer<UInt64>(capacity: 1)  // grows many times
                defer { one.deallocate() }
                let oneWork = NeighborGraph.sweepForward(input, from: 0, to: alive, eps: eps, r2: r2, budget: .max, into: &one)
                XCTAssertEqual(one.array, expected, "one part")
                XCTAssertEqual(oneWork, expectedWork)
                XCTAssertNil(NeighborGraph.sweepEdges(input, radius: radius, budget: 1), "past the budget")
            }}}}
        }
    }

    /// The C kernels behind `sweepForward` (AVX2 and portable) skip dead entries (either end of a
    /// pair) and stop past the budget like the general sweep; on one and two parts, with a buffer
    /// that grows.
    func testForwardSweepSkipsDeadEntriesAndKeepsTheBudget() {
        let points = Fixtures.uniform(70_000, seed: 76) + Fixtures.denseCity(3000, seed: 77) + Fixtures.sameSpot(40)
        let slots = LevelBuilder.Slots(points: points)
        defer { slots.deallocate() }
        let alive = slots.mergeSome(killing: 0.1, seed: 78)
        let radius = 40.0 / (512 * 64)
        let scratch = CellIndex.SortScratch(capacity: slots.n)
        guard let sorted = LevelBuilder.sortAlive(slots, count: alive, cell: NeighborGraph.cellSize(radius: radius),
                                                  centres: true, scratch: scratch) else {
            return XCTFail("a key and a slot fit in 64 bits")
        }
        var items = sorted.columns.slots
        for p in stride(from: 5, to: items.count, by: 13) { items[p] = LevelBand.dead }
        let c = sorted.columns
        c.x.withUnsafeBufferPointer { xs in
        c.y.withUnsafeBufferPointer { ys in
        items.withUnsafeBufferPointer { item in
        c.keys.withUnsafeBufferPointer { keys in
            var input = NeighborGraph.SweepInput(entries: alive, xs: xs.baseAddress!, ys: ys.baseAddress!,
                                                 item: item.baseAddress!, keys: keys.baseAddress!, shift: 0,
                                                 width: sorted.width, cell: sorted.cell,
                                                 cx: UnsafePointer(scratch.cx), cy: UnsafePointer(scratch.cy))
            input.forwardOnly = true
            let eps = NeighborGraph.searchDistance(radius: radius), r2 = radius * radius
            guard let general = NeighborGraph.sweep(input, from: 0, to: alive, eps: eps, r2: r2, budget: .max) else {
                return XCTFail("no budget")
            }
            XCTAssertGreaterThan(general.edges.count, 10_000)
            XCTAssertFalse(general.edges.contains { $0 >> 32 == UInt64(LevelBand.dead) || $0 & 0xFFFF_FFFF == UInt64(LevelBand.dead) })
            // Both kernels (AVX2 where the processor has it, and the portable one).
            defer { NeighborGraph.usePortableSweep(false) }
            for portable in [false, true] {
                NeighborGraph.usePortableSweep(portable)
                var one = GrowingBuffer<UInt64>(capacity: 3)
                defer { one.deallocate() }
                XCTAssertEqual(NeighborGraph.sweepForward(input, from: 0, to: alive, eps: eps, r2: r2, budget: .max, into: &one),
                               general.work)
                XCTAssertEqual(one.array, general.edges, "portable \(portable)")
                XCTAssertEqual(NeighborGraph.sweepEdges(input, radius: radius, budget: .max)?.edges, general.edges,
                               "two parts, portable \(portable)")
                // The budget: the general sweep's verdict, at the edge of it.
                for budget in [general.work + alive - 1, general.work + alive] {
                    var part = GrowingBuffer<UInt64>(capacity: 16)
                    defer { part.deallocate() }
                    let found = NeighborGraph.sweepForward(input, from: 0, to: alive, eps: eps, r2: r2, budget: budget, into: &part)
                    let expected = NeighborGraph.sweep(input, from: 0, to: alive, eps: eps, r2: r2, budget: budget)
                    XCTAssertEqual(found, expected?.work, "budget \(budget), portable \(portable)")
                }
            }
        }}}}
    }

    /// Uniform points fit a band of several zooms; a pile on one spot does not.
    func testSweepEstimateTellsSparseFromDense() {
        let sparse = LevelBuilder.Slots(points: Fixtures.uniform(50_000, seed: 74))
        defer { sparse.deallocate() }
        XCTAssertTrue(LevelBuilder.sweepLikelyFits(sparse, count: sparse.n, cell: NeighborGraph.cellSize(radius: 40.0 / (512 * 512))))
        let dense = LevelBuilder.Slots(points: Fixtures.uniform(20_000, seed: 75) + Fixtures.sameSpot(2000))
        defer { dense.deallocate() }
        XCTAssertFalse(LevelBuilder.sweepLikelyFits(dense, count: dense.n, cell: NeighborGraph.cellSize(radius: 40.0 / (512 * 512))))
    }
}
