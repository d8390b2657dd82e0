import XCTest
@testable import ClusterCore

/// Dropping dead slots between bands (`LevelBuilder.Slots.compact`, issue 14: the per-slot items
/// were the largest dead weight at the 10M build's peak) changes no cluster.
final class SlotCompactionTests: XCTestCase {
    /// Compacting keeps the alive items in slot order, their visiting positions and the band a
    /// sort makes of them (slots renumbered); with a fully alive prefix (moved in whole words)
    /// and without, and big enough that the tail's pages are given back.
    func testCompactingKeepsTheAliveItemsInOrder() {
        let points = Fixtures.uniform(200_000, seed: 91) + Fixtures.denseCity(3000, seed: 92)
            + Fixtures.withInvalid(500, seed: 93)
        for keptPrefix in [0, 1000] {
            var slots = LevelBuilder.Slots(points: points)
            defer { slots.deallocate() }
            var alive = slots.n
            var rng = SeededRandom(seed: 94)
            for s in keptPrefix..<slots.n where rng.unit() < 0.6 {
                slots.kill(s)
                alive -= 1
            }
            for s in stride(from: 1, to: slots.n, by: 5) { slots.item[s].x += 1e-6 }  // not Float positions
            slots.snapshot()
            var before: [(s: Int, item: LevelBuilder.Slots.Item, rank: UInt32)] = []
            for s in 0..<slots.n where slots.isAlive(s) { before.append((s, slots.item[s], slots.rank(s))) }
            XCTAssertEqual(before.count, alive)
            let cell = NeighborGraph.cellSize(radius: 40.0 / (512 * 256))
            let scratch = CellIndex.SortScratch(capacity: slots.n)
            let sortedBefore = LevelBuilder.sortAlive(slots, count: alive, cell: cell, centres: true, scratch: scratch)!
            let centresBefore = Array(UnsafeBufferPointer(start: scratch.cx, count: alive))

            let capacity = slots.n
            slots.compact()
            XCTAssertEqual(slots.n, alive, "prefix \(keptPrefix)")
            XCTAssertEqual(slots.capacity, capacity)
            slots.snapshot()
            for (k, b) in before.enumerated() {
                XCTAssertTrue(slots.isAlive(k))
                XCTAssertEqual(slots.rank(k), b.rank, "visiting position of slot \(b.s)")
                XCTAssertEqual(slots.item[k].x.bitPattern, b.item.x.bitPattern)
                XCTAssertEqual(slots.item[k].y.bitPattern, b.item.y.bitPattern)
                XCTAssertEqual(slots.item[k].ref, b.item.ref)
                XCTAssertEqual(slots.item[k].count, b.item.count)
            }
            XCTAssertEqual((0..<slots.words).reduce(0) { $0 + slots.alive[$1].nonzeroBitCount }, alive, "no bit past the end")

            let sortedAfter = LevelBuilder.sortAlive(slots, count: alive, cell: cell, centres: true, scratch: scratch)!
            XCTAssertEqual(sortedAfter.columns.keys, sortedBefore.columns.keys)
            XCTAssertEqual(sortedAfter.columns.x, sortedBefore.columns.x)
            XCTAssertEqual(sortedAfter.columns.y, sortedBefore.columns.y)
            XCTAssertEqual(sortedAfter.columns.refs, sortedBefore.columns.refs)
            let newSlot = Dictionary(uniqueKeysWithValues: before.enumerated().map { (UInt32($0.element.s), UInt32($0.offset)) })
            XCTAssertEqual(sortedAfter.columns.slots, sortedBefore.columns.slots.map { newSlot[$0]! })
            XCTAssertEqual(Array(UnsafeBufferPointer(start: scratch.cx, count: alive)), centresBefore)
        }
    }

    /// Builds with and without compaction are the same to the bit: sparse points whose low zooms
    /// are mostly dead slots, a dense city, a pile, invalid points; bands of several zooms and of one.
    func testBuildsWithCompactedSlotsEqualBuildsWithout() {
        let points = Fixtures.uniform(30_000, seed: 95) + Fixtures.denseCity(3000, seed: 96) + Fixtures.sameSpot(100)
            + Fixtures.withInvalid(300, seed: 97)
        defer { LevelBuilder.compactsSlots = true }
        for bandLength in [8, 1] {
            LevelBuilder.compactsSlots = false
            let plain = HierarchicalClusterer(points: points, categories: [], values: [], options: .init(),
                                              maxBandLength: bandLength)
            LevelBuilder.compactsSlots = true
            let compacted = HierarchicalClusterer(points: points, categories: [], values: [], options: .init(),
                                                  maxBandLength: bandLength)
            assertSameClusters(compacted, plain, "bands of \(bandLength)")
            for (a, b) in zip(compacted.levels, plain.levels) {
                XCTAssertEqual(a.index.x, b.index.x, "level \(a.level)")
                XCTAssertEqual(a.index.y, b.index.y, "level \(a.level)")
                XCTAssertEqual(a.index.items, b.index.items, "level \(a.level)")
            }
        }
    }
}
