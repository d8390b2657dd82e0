import XCTest
@testable import ClusterCore

/// `PreparedPoints` made on several threads, and updated after live changes, against their
/// oracles: the same preparation on one thread, a reference made here (projection and a plain
/// sort by cell key, then input index), and a fresh preparation of the changed points. Odd
/// sizes (0, 1, 2, primes, word edges), every point on one spot, points across the
/// antimeridian, invalid points.
final class PreparedPointsTests: XCTestCase {
    private let options = HierarchicalClusterer.Options(maxZoom: 14)

    private func random(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        return (0..<n).map { i in
            if i % 89 == 7 { return GeoCoordinate(latitude: .nan, longitude: 10) }
            if i % 3 == 0 { return GeoCoordinate(latitude: 40 + r.uniform(-0.2, 0.2), longitude: 8 + r.uniform(-0.2, 0.2)) }
            return GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180))
        }
    }

    /// Named inputs of odd sizes and shapes.
    private func inputs() -> [(String, [GeoCoordinate])] {
        var r = SeededRandom(seed: 5)
        let antimeridian = (0..<1_009).map { i in
            GeoCoordinate(latitude: r.uniform(-5, 5), longitude: i % 2 == 0 ? 180 - r.uniform(0, 0.01) : -180 + r.uniform(0, 0.01))
        }
        return [
            ("0", []), ("1", random(1, seed: 1)), ("2", random(2, seed: 2)), ("63", random(63, seed: 3)),
            ("64", random(64, seed: 4)), ("65", random(65, seed: 6)), ("997", random(997, seed: 7)),
            ("7919", random(7_919, seed: 8)),
            ("one spot", Array(repeating: GeoCoordinate(latitude: 51.5, longitude: -0.12), count: 4_001)),
            ("antimeridian", antimeridian),
            ("all invalid", Array(repeating: GeoCoordinate(latitude: 91, longitude: 0), count: 131)),
        ]
    }

    /// Every column of `a` equals `b`'s, bit for bit.
    private func assertSame(_ a: PreparedPoints, _ b: PreparedPoints, _ label: String, file: StaticString = #filePath,
                            line: UInt = #line) {
        XCTAssertEqual(a.count, b.count, label, file: file, line: line)
        XCTAssertEqual(a.x.map(\.bitPattern), b.x.map(\.bitPattern), "\(label): x", file: file, line: line)
        XCTAssertEqual(a.y.map(\.bitPattern), b.y.map(\.bitPattern), "\(label): y", file: file, line: line)
        XCTAssertEqual(a.valid, b.valid, "\(label): valid", file: file, line: line)
        XCTAssertEqual(a.validCount, b.validCount, "\(label): valid count", file: file, line: line)
        XCTAssertEqual(a.lastZoom, b.lastZoom, "\(label): first band", file: file, line: line)
        XCTAssertEqual(a.cell, b.cell, "\(label): cell", file: file, line: line)
        XCTAssertEqual(a.order, b.order, "\(label): order", file: file, line: line)
        XCTAssertEqual(a.orderX.map(\.bitPattern), b.orderX.map(\.bitPattern), "\(label): order x", file: file, line: line)
        XCTAssertEqual(a.orderY.map(\.bitPattern), b.orderY.map(\.bitPattern), "\(label): order y", file: file, line: line)
    }

    /// The reference: projected as the build projects, valid points sorted by (cell key, index).
    private func assertMatchesReference(_ p: PreparedPoints, _ pts: [GeoCoordinate], _ label: String) {
        XCTAssertEqual(p.validCount, pts.filter(\.isValid).count, label)
        for (i, c) in pts.enumerated() {
            let valid = p.valid[i >> 6] >> UInt64(i & 63) & 1 == 1
            XCTAssertEqual(valid, c.isValid, "\(label): valid \(i)")
            if c.isValid {
                XCTAssertEqual(p.x[i], Float(WebMercator.x(longitude: c.longitude)), "\(label): x \(i)")
                XCTAssertEqual(p.y[i], Float(WebMercator.y(latitude: c.latitude)), "\(label): y \(i)")
            }
        }
        guard p.validCount > 0 else { return XCTAssertTrue(p.order.isEmpty, label) }
        let key = { (i: Int) in CellIndex.key(p.x[i], p.y[i], cell: p.cell, width: p.width) }
        let want = pts.indices.filter { pts[$0].isValid }.sorted { (key($0), $0) < (key($1), $1) }
        XCTAssertEqual(p.order.map(Int.init), want, "\(label): order")
        XCTAssertEqual(p.orderX, want.map { p.x[$0] }, "\(label): order x")
    }

    func testThreadedPreparationEqualsOneThreadAndTheReference() {
        for (name, pts) in inputs() {
            let one = PreparedPoints(points: pts, options: options, parts: 1)
            assertMatchesReference(one, pts, name)
            for parts in [2, 3, 7] {
                assertSame(PreparedPoints(points: pts, options: options, parts: parts), one, "\(name), \(parts) parts")
            }
        }
    }

    /// Random live changes — moves, removals (invalid coordinates), additions at the end — give
    /// the same columns as preparing the new points afresh, on one thread or several.
    func testUpdatesEqualFreshPreparations() {
        for (name, pts) in inputs() {
            var r = SeededRandom(seed: UInt64(pts.count) + 17)
            let old = PreparedPoints(points: pts, options: options, parts: 1)
            for round in 0..<3 {
                var next = pts
                var changed: [Int] = []
                for _ in 0..<(pts.count / 50 + round) where !pts.isEmpty {
                    let i = Int(r.next() % UInt64(pts.count))
                    changed.append(i)
                    switch r.next() % 3 {
                    case 0: next[i] = GeoCoordinate(latitude: .nan, longitude: .nan)
                    case 1: next[i] = GeoCoordinate(latitude: next[i].latitude, longitude: next[i].longitude)  // unchanged
                    default: next[i] = GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180))
                    }
                }
                if round == 2, let first = pts.first {
                    next.append(contentsOf: Array(repeating: first, count: 5))  // additions, one on an old point
                    next.append(GeoCoordinate(latitude: -20, longitude: 179.9999))
                }
                // Small changes keep the first band's zooms (an order to merge into); else all is made afresh.
                let fresh = PreparedPoints(points: next, options: options, parts: 1, lastZoom: old.order.isEmpty ? nil : old.lastZoom)
                for parts in [1, 2, 5] {
                    let label = "\(name), round \(round), \(parts) parts"
                    let merges = PreparedPoints.updatesMerged.count
                    assertSame(old.updated(points: next, changed: changed, parts: parts), fresh, label)
                    // A few changes are merged into the old order (if any is left), never a fresh preparation.
                    XCTAssertEqual(PreparedPoints.updatesMerged.count > merges, !old.order.isEmpty && next.contains(where: \.isValid),
                                   "\(label): merged")
                }
                assertSame(old.updated(points: next, from: pts), fresh, "\(name), round \(round), found by comparing")
            }
        }
    }

    /// Big changes take the fresh path; a change of density keeps the old first band (its order
    /// still the reference order of its cells).
    func testLargeChangesAndNewFirstBandsEqualFreshPreparations() {
        let pts = random(5_000, seed: 21)
        let old = PreparedPoints(points: pts, options: options)
        var r = SeededRandom(seed: 22)
        let moved = pts.map { _ in GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180)) }
        assertSame(old.updated(points: moved, from: pts), PreparedPoints(points: moved, options: options), "all moved")
        // Everything piled on a few spots: a sweep over 8 zooms would fail, the first band is shorter.
        let piled = (0..<5_000).map { i in GeoCoordinate(latitude: Double(i % 4), longitude: Double(i % 3)) }
        let dense = PreparedPoints(points: piled, options: options)
        let grown = piled + (0..<1_200).map { _ in GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180)) }
        let updated = dense.updated(points: grown, from: piled + [])
        assertSame(updated, PreparedPoints(points: grown, options: options, parts: 1, lastZoom: dense.lastZoom), "grown")
        assertMatchesReference(updated, grown, "grown")
        let shrunk = Array(pts.prefix(100))
        assertSame(old.updated(points: shrunk, changed: []), PreparedPoints(points: shrunk, options: options), "shrunk")
    }

    /// A cache following the previous version's makes the same prepared points, starting from
    /// the old ones; an unmade old cache is not followed (nothing to start from).
    func testCacheFollowsThePreviousVersion() {
        let pts = random(3_001, seed: 31)
        var next = pts
        next[10] = GeoCoordinate(latitude: 1, longitude: 2)
        next.append(GeoCoordinate(latitude: 3, longitude: 4))
        let old = PreparedPointsCache()
        let unmade = PreparedPointsCache()
        unmade.follow(old, oldPoints: pts)
        XCTAssertNil(unmade.ifMade)
        let first = old.prepared(points: pts, options: options)
        XCTAssertTrue(old.prepared(points: pts, options: options) === first, "kept")
        let new = PreparedPointsCache()
        new.follow(old, oldPoints: pts)
        assertSame(new.prepared(points: next, options: options),
                   PreparedPoints(points: next, options: options, parts: nil, lastZoom: first.lastZoom), "followed")
        assertSame(unmade.prepared(points: next, options: options), PreparedPoints(points: next, options: options), "unmade")
    }

    /// Subsets built from updated prepared points equal fresh builds of their chosen points,
    /// on inputs big enough for every two-thread path.
    func testSubsetsFromUpdatedPointsEqualFreshBuilds() {
        let n = 150_001
        let pts = random(n, seed: 41)
        var next = pts
        var r = SeededRandom(seed: 42)
        for _ in 0..<1_500 { next[Int(r.next() % UInt64(n))] = GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180)) }
        next += (0..<997).map { _ in GeoCoordinate(latitude: 40 + r.uniform(-0.2, 0.2), longitude: 8 + r.uniform(-0.2, 0.2)) }
        let prepared = PreparedPoints(points: pts, options: options).updated(points: next, from: pts)
        let selection = PointSelection(count: next.count) { $0 % 5 != 2 }
        let used = LevelBuilder.preparedBands.count
        let subset = SubsetClusterer(points: next, selection: selection, method: .hierarchical(options), prepared: prepared)
        XCTAssertGreaterThan(LevelBuilder.preparedBands.count, used, "the prepared path is taken")
        let chosen = selection.chosenIndices
        let oracle = HierarchicalClusterer(points: chosen.map { next[$0] }, options: options)
        for z in stride(from: 0, through: 15, by: 3) {
            let got = subset.clusters(in: .world, zoom: Double(z)).map { "\($0.count) \($0.coordinate.latitude) \($0.coordinate.longitude)" }
            let want = oracle.clusters(in: .world, zoom: Double(z)).map { "\($0.count) \($0.coordinate.latitude) \($0.coordinate.longitude)" }
            XCTAssertEqual(got.sorted(), want.sorted(), "zoom \(z)")
        }
    }
}
