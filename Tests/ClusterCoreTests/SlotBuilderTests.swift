import XCTest
@testable import ClusterCore

/// The slot builder (`LevelBuilder.buildBySlots`, issue 14) against the older level builder,
/// and its pair bands against brute force: the same clusters, to the bit.
final class SlotBuilderTests: XCTestCase {
    /// Mostly sparse points (bands serve several zooms), a dense city (one band per zoom), a pile
    /// on one spot, the antimeridian, the poles and invalid points.
    func testSlotBuilderEqualsTheOlderBuilderToTheBit() {
        let points = Fixtures.uniform(12_000, seed: 51) + Fixtures.denseCity(2000, seed: 52)
            + Fixtures.sameSpot(200) + Fixtures.antimeridian(500, seed: 53) + Fixtures.poles(300, seed: 54)
            + Fixtures.withInvalid(300, seed: 55)
        let categories = (0..<points.count).map { Int32($0 % 7) - 1 }
        let values = (0..<points.count).map { $0 % 13 == 0 ? Double.nan : Double($0 % 101) }
        let optionSets: [HierarchicalClusterer.Options] = [
            .init(), .init(maxZoom: 18, radius: 60, extent: 256), .init(minZoom: 3, maxZoom: 12, minPoints: 1, radius: 25),
        ]
        for options in optionSets {
            for bandLength in [8, 1] {
                let slots = HierarchicalClusterer(points: points, categories: categories, values: values, options: options,
                                                  maxBandLength: bandLength)
                let older = HierarchicalClusterer(points: points, categories: categories, values: values, options: options,
                                                  maxBandLength: bandLength, bySlots: false)
                assertSameClusters(slots, older, "\(options) bands of \(bandLength)")
            }
        }
    }

    /// A pile too dense for a sweep (its candidate pairs exceed the budget: radius queries) and
    /// too dense for a band of several zooms.
    func testAPileTooDenseForASweepEqualsTheOlderBuilder() {
        let points = Fixtures.sameSpot(500) + Fixtures.denseCity(400, seed: 56)
        let slots = HierarchicalClusterer(points: points, categories: [], values: [], options: .init(), maxBandLength: 8)
        let older = HierarchicalClusterer(points: points, categories: [], values: [], options: .init(), maxBandLength: 8,
                                          bySlots: false)
        assertSameClusters(slots, older, "a pile", minClusters: 50)
    }

    /// Sorting the alive slots straight from the slots (`sortAlive`) gives the entries, in the
    /// same order, and the same centres as compacting them and sorting a `CellIndex` (on two
    /// threads: over 65,536 alive).
    func testSortingTheSlotsEqualsACellIndexOverTheCompactedItems() {
        let points = Fixtures.uniform(100_000, seed: 57) + Fixtures.denseCity(3000, seed: 58) + Fixtures.withInvalid(500, seed: 59)
        let slots = LevelBuilder.Slots(points: points)
        defer { slots.deallocate() }
        let alive = slots.mergeSome(killing: 0.3, seed: 60)
        for radius in [40.0 / (512 * 512), 40.0 / (512 * 32)] {
            let cell = NeighborGraph.cellSize(radius: radius)
            let distance = { (_: Int) in NeighborGraph.searchDistance(radius: radius) }
            let direct = CellIndex.SortScratch(capacity: slots.n), compacted = CellIndex.SortScratch()
            guard let sorted = LevelBuilder.sortAlive(slots, count: alive, cell: cell, centres: true, scratch: direct) else {
                return XCTFail("a key and a slot fit in 64 bits")
            }
            let band = LevelBuilder.compactAndSort(slots, count: alive, cell: cell, level: 10, lastZoom: 9,
                                                   scratch: compacted, searchDistance: distance)
            XCTAssertEqual(sorted.cell, band.cell)
            XCTAssertEqual(sorted.width, band.width)
            XCTAssertEqual(sorted.columns.keys, band.keys)
            XCTAssertEqual(sorted.columns.x, band.x)
            XCTAssertEqual(sorted.columns.y, band.y)
            XCTAssertEqual(sorted.columns.slots, band.slots)
            XCTAssertEqual(sorted.columns.refs, band.refs)
            XCTAssertEqual(Array(UnsafeBufferPointer(start: direct.cx, count: alive)),
                           Array(UnsafeBufferPointer(start: compacted.cx, count: alive)))
            XCTAssertEqual(Array(UnsafeBufferPointer(start: direct.cy, count: alive)),
                           Array(UnsafeBufferPointer(start: compacted.cy, count: alive)))
        }
    }

    /// The same with scratch big enough (≥ 4 MB) that the gather gives the packed keys' pages
    /// back chunk by chunk as it reads them (`gatherChunk`): nothing it still reads goes.
    func testSortingBigLevelsEqualsACellIndexOverTheCompactedItems() {
        let points = Fixtures.uniform(600_000, seed: 65) + Fixtures.denseCity(3000, seed: 66)
        let slots = LevelBuilder.Slots(points: points)
        defer { slots.deallocate() }
        let alive = slots.mergeSome(killing: 0.05, seed: 67)
        XCTAssertGreaterThanOrEqual(alive * 8, LargeBuffer.hugeThreshold, "scratch whose pages can be given back")
        let radius = 40.0 / (512 * 1024)
        let cell = NeighborGraph.cellSize(radius: radius)
        let direct = CellIndex.SortScratch(capacity: slots.n), compacted = CellIndex.SortScratch()
        guard let sorted = LevelBuilder.sortAlive(slots, count: alive, cell: cell, centres: true, scratch: direct) else {
            return XCTFail("a key and a slot fit in 64 bits")
        }
        let band = LevelBuilder.compactAndSort(slots, count: alive, cell: cell, level: 11, lastZoom: 10, scratch: compacted) {
            _ in NeighborGraph.searchDistance(radius: radius)
        }
        XCTAssertEqual(sorted.columns.keys, band.keys)
        XCTAssertEqual(sorted.columns.x, band.x)
        XCTAssertEqual(sorted.columns.y, band.y)
        XCTAssertEqual(sorted.columns.slots, band.slots)
        XCTAssertEqual(sorted.columns.refs, band.refs)
        XCTAssertEqual(Array(UnsafeBufferPointer(start: direct.cx, count: alive)),
                       Array(UnsafeBufferPointer(start: compacted.cx, count: alive)))
    }

    /// A band's stored levels are the same whether `finish` merges and gathers its entries in one
    /// part or in several on as many threads (big bands use two): every level's coordinates,
    /// items, query directory, level ranges and counts, and so the clusters.
    func testBandsFinishedInPartsEqualOneFinishedInOne() {
        let points = Fixtures.uniform(30_000, seed: 62) + Fixtures.denseCity(3000, seed: 63) + Fixtures.sameSpot(100)
            + Fixtures.withInvalid(300, seed: 64)
        defer { PairBand.forcedFinishParts = nil }
        PairBand.forcedFinishParts = 1
        let one = HierarchicalClusterer(points: points, categories: [], values: [], options: .init(), maxBandLength: 8)
        for parts in [2, 3] {
            PairBand.forcedFinishParts = parts
            let many = HierarchicalClusterer(points: points, categories: [], values: [], options: .init(), maxBandLength: 8)
            assertSameClusters(many, one, "finished in \(parts) parts")
            XCTAssertEqual(many.levels.count, one.levels.count)
            for (a, b) in zip(many.levels, one.levels) {
                XCTAssertEqual(a.level, b.level)
                XCTAssertEqual(a.count, b.count, "level \(a.level)")
                XCTAssertEqual(a.index.x, b.index.x, "level \(a.level)")
                XCTAssertEqual(a.index.y, b.index.y, "level \(a.level)")
                XCTAssertEqual(a.index.items, b.index.items, "level \(a.level)")
                XCTAssertEqual(a.index.directory, b.index.directory, "level \(a.level)")
                XCTAssertEqual(a.highest, b.highest, "level \(a.level)")
                XCTAssertEqual(a.lowest, b.lowest, "level \(a.level)")
            }
            // Bands of several levels with clusters appended were finished (the path in parts).
            XCTAssertTrue(many.levels.contains { !$0.highest.isEmpty })
        }
    }

    /// A band's candidate pairs are the same whether its sweep runs in one part or in two on
    /// two threads, and they are exactly the pairs within the search distance of its lowest zoom,
    /// each with the highest zoom whose search distance covers it.
    func testPairSweepInPartsEqualsOneSweepAndBruteForce() {
        var rng = SeededRandom(seed: 61)
        let n = 3000
        var xs = (0..<n).map { _ in 0.3 + 0.01 * rng.unit() }, ys = (0..<n).map { _ in 0.6 + 0.01 * rng.unit() }
        for i in stride(from: 0, to: n, by: 9) {  // exact duplicates and near ones
            xs[i] = xs[i / 2]
            ys[i] = ys[i / 2] + (i % 2 == 0 ? 0 : 1e-9)
        }
        let slots = (0..<n).map(UInt32.init), refs = slots.map { $0 + 1_000_000 }
        let radius = { (z: Int) in 40 / (512 * pow(2, Double(z))) }
        let lastZoom = 9, level = 17
        func band(parts: Int) -> PairBand {
            let scratch = CellIndex.SortScratch()
            let index = xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    CellIndex(xs: x.baseAddress, ys: y.baseAddress, count: n,
                              cell: NeighborGraph.cellSize(radius: radius(lastZoom)), scratch: scratch)
                }
            }
            var band = slots.withUnsafeBufferPointer { s in
                refs.withUnsafeBufferPointer { r in
                    PairBand(index: index, scratch: scratch, slotOf: s.baseAddress!, refOf: r.baseAddress!, level: level,
                             lastZoom: lastZoom) { NeighborGraph.searchDistance(radius: radius($0)) }
                }
            }
            XCTAssertTrue(band.sweepPairs(budget: .max, parts: parts))
            return band
        }
        let one = band(parts: 1), two = band(parts: 2), three = band(parts: 3)
        let pairs = one.candidatePairs
        // Past the budget (the candidate checks plus one per entry), the sweep gives up.
        var tight = one
        XCTAssertFalse(tight.sweepPairs(budget: one.sweepWork + n - 1, parts: 1), "one check over the budget")
        var enough = one
        XCTAssertTrue(enough.sweepPairs(budget: one.sweepWork + n, parts: 1), "exactly the budget")
        XCTAssertGreaterThan(pairs.count, 1000)
        XCTAssertTrue(pairs.elementsEqual(two.candidatePairs) { $0 == $1 }, "two parts")
        XCTAssertTrue(pairs.elementsEqual(three.candidatePairs) { $0 == $1 }, "three parts")
        // Highest zoom first.
        XCTAssertTrue(zip(pairs, pairs.dropFirst()).allSatisfy { $0.2 >= $1.2 })

        // Brute force over the band's Float coordinates, by slot.
        var expected: [String: UInt8] = [:]
        for a in 0..<n {
            for b in (a + 1)..<n {
                let d = max(abs(Double(one.x[a]) - Double(one.x[b])), abs(Double(one.y[a]) - Double(one.y[b])))
                guard d <= NeighborGraph.searchDistance(radius: radius(lastZoom)) else { continue }
                var z = level - 1
                while NeighborGraph.searchDistance(radius: radius(z)) < d { z -= 1 }
                expected["\(min(one.slots[a], one.slots[b]))-\(max(one.slots[a], one.slots[b]))"] = UInt8(z)
            }
        }
        var found: [String: UInt8] = [:]
        for (a, b, z) in pairs {
            let sa = one.slots[Int(a)], sb = one.slots[Int(b)]
            found["\(min(sa, sb))-\(max(sa, sb))"] = z
        }
        XCTAssertEqual(found.count, pairs.count, "each pair once")
        XCTAssertEqual(found, expected)
    }
}

extension LevelBuilder.Slots {
    /// Kills a fraction of the slots and moves a fifth of the others off their Float positions
    /// (a cluster's centre is not a Float), as a level's merges would; returns the alive count.
    func mergeSome(killing fraction: Double, seed: UInt64) -> Int {
        var rng = SeededRandom(seed: seed)
        var alive = n
        for s in 0..<n {
            if rng.unit() < fraction {
                kill(s)
                alive -= 1
            } else if rng.unit() < 0.2 {
                item[s].x += 1e-6 * rng.unit()
            }
        }
        return alive
    }
}

extension XCTestCase {
    /// Everything that defines the clusters: the cluster table (centres to the bit, counts,
    /// origins, children in order, zooms) and the items on every level.
    func assertSameClusters(_ a: HierarchicalClusterer, _ b: HierarchicalClusterer, _ what: String,
                                    minClusters: Int = 1000) {
        XCTAssertEqual(a.table.rows.map(\.x.bitPattern), b.table.rows.map(\.x.bitPattern), "centres x, \(what)")
        XCTAssertEqual(a.table.rows.map(\.y.bitPattern), b.table.rows.map(\.y.bitPattern), "centres y, \(what)")
        XCTAssertEqual(a.table.rows.map(\.count), b.table.rows.map(\.count), "counts, \(what)")
        XCTAssertEqual(a.table.rows.map(\.origin), b.table.rows.map(\.origin), "origins, \(what)")
        XCTAssertEqual(a.table.childStart, b.table.childStart, "children, \(what)")
        XCTAssertEqual(a.table.childItems, b.table.childItems, "children, \(what)")
        XCTAssertEqual(a.table.zoom, b.table.zoom, "zooms, \(what)")
        XCTAssertEqual(a.table.zoomStart, b.table.zoomStart, "zoom starts, \(what)")
        XCTAssertGreaterThan(a.table.rows.count, minClusters, "the points cluster, \(what)")
        // Queries find a cluster's zoom from the zoom ranges, not the zoom column.
        XCTAssertEqual(a.table.rows.indices.map { a.zoomOfCluster($0) }, a.table.zoom.map(Int.init), "zoom by range, \(what)")
        for z in a.minZoom...(a.maxZoom + 1) {
            var itemsA: [UInt32] = [], itemsB: [UInt32] = []
            a.level(forZoom: z).forEachItem(minX: -1, minY: -1, maxX: 2, maxY: 2) { itemsA.append($0) }
            b.level(forZoom: z).forEachItem(minX: -1, minY: -1, maxX: 2, maxY: 2) { itemsB.append($0) }
            XCTAssertEqual(itemsA.sorted(), itemsB.sorted(), "items at zoom \(z), \(what)")
            XCTAssertEqual(a.itemCount(atZoom: z), itemsA.count, "item count at zoom \(z), \(what)")
            let box = GeoBounds(west: -4.2, south: 40, east: -3.2, north: 40.8)
            XCTAssertEqual(Set(a.clusters(in: box, zoom: Double(z))), Set(b.clusters(in: box, zoom: Double(z))),
                           "box at zoom \(z), \(what)")
        }
        for c in stride(from: 0, to: a.table.rows.count, by: 7) {
            let item = a.makeItem(UInt32(a.inputCount + c))
            XCTAssertEqual(a.aggregates(of: item), b.aggregates(of: item), "aggregates, \(what)")
        }
    }
}
