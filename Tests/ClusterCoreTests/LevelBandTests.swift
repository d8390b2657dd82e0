import XCTest
@testable import ClusterCore

/// Levels carried down in a `LevelBand` (issue 14) against levels sorted from scratch.
final class LevelBandTests: XCTestCase {
    /// Simulates levels the way `LevelBuilder` makes them — items visited in order, some merged
    /// into clusters that take their origin's place — carries a band down through them, and
    /// checks that every level's entries, in band order, are exactly a `CellIndex` built from
    /// scratch over that level's items with the same cells.
    func testACarriedLevelEqualsOneSortedFromScratch() {
        var rng = SeededRandom(seed: 21)
        let n = 6000
        // Level items in visiting order: reference, Double coordinates.
        var refs = (0..<n).map { UInt32($0) }
        var xs = (0..<n).map { _ in rng.unit() }, ys = (0..<n).map { _ in rng.unit() }
        // A hot spot so that cells hold several entries and clusters land in occupied cells.
        for i in stride(from: 0, to: n, by: 3) {
            xs[i] = 0.5 + rng.unit() * 0.001
            ys[i] = 0.5 + rng.unit() * 0.001
        }
        let cell = 0.002, scratch = CellIndex.SortScratch()
        var band = makeBand(refs, xs, ys, level: 10, cell: cell, scratch: scratch)
        var nextRef = UInt32(n)
        var carried = 0
        for level in stride(from: 9, through: 4, by: -1) {
            // Merge about 2 % of the items: each chosen origin takes the next one or two items.
            var newRefs: [UInt32] = [], newXs: [Double] = [], newYs: [Double] = []
            var newPosition = [UInt32](repeating: LevelBand.dead, count: refs.count)
            var clusters: [LevelBand.NewCluster] = []
            var i = 0
            while i < refs.count {
                if rng.unit() < 0.02 && i + 2 < refs.count {
                    let take = rng.unit() < 0.5 ? 2 : 3
                    let cx = (i..<(i + take)).map { xs[$0] }.reduce(0, +) / Double(take)
                    let cy = (i..<(i + take)).map { ys[$0] }.reduce(0, +) / Double(take)
                    clusters.append(.init(position: UInt32(newRefs.count), x: cx, y: cy, ref: nextRef))
                    newRefs.append(nextRef)
                    newXs.append(cx)
                    newYs.append(cy)
                    nextRef += 1
                    i += take
                } else {
                    newPosition[i] = UInt32(newRefs.count)
                    newRefs.append(refs[i])
                    newXs.append(xs[i])
                    newYs.append(ys[i])
                    i += 1
                }
            }
            newPosition.withUnsafeBufferPointer { band.carry(toLevel: level, newPosition: $0.baseAddress!, clusters: clusters) }
            (refs, xs, ys) = (newRefs, newXs, newYs)
            carried += 1

            let fresh = makeBand(refs, xs, ys, level: level, cell: cell, scratch: scratch)
            XCTAssertEqual(fresh.cell, band.cell)
            var alive: [(Float, Float, UInt32, UInt32)] = []
            for e in 0..<band.entryCount where band.positions[e] != LevelBand.dead {
                alive.append((band.x[e], band.y[e], band.positions[e], band.refs[e]))
            }
            XCTAssertEqual(alive.count, refs.count, "level \(level)")
            XCTAssertEqual(alive.map(\.0), fresh.x, "x at level \(level)")
            XCTAssertEqual(alive.map(\.1), fresh.y, "y at level \(level)")
            XCTAssertEqual(alive.map(\.2), fresh.positions, "positions at level \(level)")
            XCTAssertEqual(alive.map(\.3), fresh.refs, "references at level \(level)")
        }
        XCTAssertGreaterThan(band.deadCount, 300, "the simulation merged items")

        // The stored levels: each holds exactly the items that were on it.
        let levels = band.finish()
        XCTAssertEqual(levels.map(\.level), (4...10).reversed().map(UInt8.init))
        XCTAssertEqual(levels.last?.count, refs.count)
        var onLowest: [UInt32] = []
        levels.last!.forEachItem(minX: 0, minY: 0, maxX: 1, maxY: 1) { onLowest.append($0) }
        XCTAssertEqual(Set(onLowest), Set(refs))
        XCTAssertEqual(onLowest.count, refs.count)
    }

    /// The whole clusterer with bands (the default) and with every level sorted from scratch:
    /// the same items at every zoom (coordinates to the bit), children, leaves, expansion zooms
    /// and aggregates.
    func testClustererWithBandsEqualsOneSortedFromScratch() {
        // Mostly sparse (so that bands form), with a dense city, a same-spot pile and the antimeridian.
        let points = Fixtures.uniform(24_000, seed: 31) + Fixtures.denseCity(1500, seed: 32)
            + Fixtures.sameSpot(30) + Fixtures.antimeridian(1000, seed: 33)
        let categories = (0..<points.count).map { Int32($0 % 5) }
        let values = (0..<points.count).map { Double($0 % 97) }
        for options in [HierarchicalClusterer.Options(), .init(maxZoom: 18, radius: 60, extent: 256)] {
            let banded = HierarchicalClusterer(points: points, categories: categories, values: values, options: options,
                                               maxBandLength: 8)
            let scratch = HierarchicalClusterer(points: points, categories: categories, values: values, options: options,
                                                maxBandLength: 1)
            XCTAssertTrue(banded.levels.contains { !$0.highest.isEmpty }, "some levels share a band")
            XCTAssertTrue(scratch.levels.allSatisfy { $0.highest.isEmpty })
            for z in options.minZoom...(options.maxZoom + 1) {
                XCTAssertEqual(banded.itemCount(atZoom: z), scratch.itemCount(atZoom: z), "zoom \(z)")
                let a = banded.clusters(in: .world, zoom: Double(z)), b = scratch.clusters(in: .world, zoom: Double(z))
                XCTAssertEqual(Set(a), Set(b), "items at zoom \(z)")
                XCTAssertEqual(a.count, b.count, "zoom \(z)")
                let box = GeoBounds(west: -4.2, south: 40, east: -3.2, north: 40.8)
                XCTAssertEqual(Set(banded.clusters(in: box, zoom: Double(z))), Set(scratch.clusters(in: box, zoom: Double(z))))
                for item in a where item.isCluster {
                    let id = item.clusterID!
                    XCTAssertEqual(banded.children(of: id), scratch.children(of: id))
                    XCTAssertEqual(banded.leaves(of: id), scratch.leaves(of: id))
                    XCTAssertEqual(banded.expansionZoom(of: id), scratch.expansionZoom(of: id))
                    XCTAssertEqual(banded.aggregates(of: item), scratch.aggregates(of: item))
                }
            }
        }
    }

    /// Random boxes at every zoom (including fractional zooms and boxes across 180°) give the
    /// same items with bands as without.
    func testBoxQueriesWithBandsEqualOnesSortedFromScratch() {
        let points = Fixtures.uniform(20_000, seed: 41) + Fixtures.denseCity(1000, seed: 42)
            + Fixtures.antimeridian(500, seed: 43)
        let options = HierarchicalClusterer.Options(maxZoom: 18, radius: 60, extent: 256)
        let banded = HierarchicalClusterer(points: points, categories: [], values: [], options: options, maxBandLength: 8)
        let scratch = HierarchicalClusterer(points: points, categories: [], values: [], options: options, maxBandLength: 1)
        XCTAssertTrue(banded.levels.contains { !$0.highest.isEmpty }, "some levels share a band")
        var rng = SeededRandom(seed: 44)
        for _ in 0..<600 {
            let zoom = rng.uniform(0, 20)
            let span = 360 / pow(2, zoom) * rng.uniform(1, 6)
            let west = rng.uniform(-180, 180), south = rng.uniform(-80, 80)
            let box = GeoBounds(west: west, south: south, east: west + span, north: min(85, south + span / 2))
            let a = banded.clusters(in: box, zoom: zoom), b = scratch.clusters(in: box, zoom: zoom)
            XCTAssertEqual(a.count, b.count, "zoom \(zoom) box \(box)")
            XCTAssertEqual(Set(a), Set(b), "zoom \(zoom) box \(box)")
        }
    }

    private func makeBand(_ refs: [UInt32], _ xs: [Double], _ ys: [Double], level: Int, cell: Double,
                          scratch: CellIndex.SortScratch) -> LevelBand {
        refs.withUnsafeBufferPointer { r in
            xs.withUnsafeBufferPointer { x in
                ys.withUnsafeBufferPointer { y in
                    LevelBand(items: r.baseAddress!, xs: x.baseAddress!, ys: y.baseAddress!, count: refs.count,
                              level: level, minimumCell: cell, scratch: scratch)
                }
            }
        }
    }
}
