import XCTest
@testable import ClusterCore

/// The interim of a small filter change (issue 29 item 3): a `LiveSubsetIndex` adopted from a
/// subset's exact build, changed to a new selection in one repaired batch. After each change it
/// holds exactly the new selection's points under their input indices, keeps the live index's
/// rules (cluster invariants, the hierarchical algorithm's rules, points on one spot together),
/// and aggregates add up; the exact build of the same selection (what settles) equals its oracle.
final class LiveSubsetIndexTests: XCTestCase {
    static let options = HierarchicalClusterer.Options(minZoom: 0, maxZoom: 18, minPoints: 2, radius: 60, extent: 256, nodeSize: 64)
    static let method = ClusteringMethod.hierarchical(options)

    /// Hot spots (one of them a single spot with many points) plus noise plus a few invalid points.
    static func points(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        let centres = (0..<5).map { _ in (r.uniform(-60, 60), r.uniform(-170, 170)) }
        return (0..<n).map { i in
            if i % 97 == 5 { return GeoCoordinate(latitude: .nan, longitude: 0) }
            if i % 4 == 0 { return GeoCoordinate(latitude: r.uniform(-80, 80), longitude: r.uniform(-180, 180)) }
            if i % 29 == 3 { return GeoCoordinate(latitude: 12.5, longitude: 33.25) }
            let c = centres[i % centres.count]
            let s = i % 3 == 0 ? 3.0 : 0.05
            return GeoCoordinate(latitude: c.0 + r.uniform(-s, s), longitude: c.1 + r.uniform(-s, s))
        }
    }

    /// Every item at a zoom naming its points by input index (equal lists: equal clusters).
    static func canonical(_ index: any PointClusterer, zoom: Int, input: (Int) -> Int = { $0 }) -> [String] {
        index.clusters(in: .world, zoom: Double(zoom)).map { item in
            switch item.kind {
            case .point(let i): return "p \(input(i)) \(item.coordinate.latitude) \(item.coordinate.longitude)"
            case .cluster(let id):
                return "c \(item.count) \(item.coordinate.latitude) \(item.coordinate.longitude) "
                    + "ez \(index.expansionZoom(of: id) ?? -1) \(index.leaves(of: id).map(input).sorted())"
            }
        }.sorted()
    }

    /// The interim's rules, with the points it must hold (others masked as skipped).
    func checkInterim(_ live: LiveSubsetIndex, _ pts: [GeoCoordinate], _ target: PointSelection, categories: [Int32],
                      values: [Double], _ label: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(live.selection, target, label, file: file, line: line)
        let masked = pts.indices.map { target[$0] ? pts[$0] : GeoCoordinate(latitude: .nan, longitude: .nan) }
        assertClusterInvariants(live, points: masked, categories: categories, values: values, file: file, line: line)
        XCTAssertEqual(hierarchicalRuleViolations(live, options: Self.options), [], label, file: file, line: line)
        assertSameSpotTogether(live, coordinates: pts, alive: { target[$0] }, file: file, line: line)
    }

    /// The settled build equals the oracle: a fresh build of exactly the chosen points.
    func checkSettled(_ subset: SubsetClusterer, _ pts: [GeoCoordinate], _ target: PointSelection, _ label: String,
                      file: StaticString = #filePath, line: UInt = #line) {
        let chosen = target.chosenIndices
        let oracle = Self.method.build(points: chosen.map { pts[$0] })
        for z in [0, 3, 6, 9, 12, 15, 19] {
            XCTAssertEqual(Self.canonical(subset, zoom: z), Self.canonical(oracle, zoom: z) { chosen[$0] }, "\(label) zoom \(z)",
                           file: file, line: line)
        }
    }

    func testAnAdoptedIndexShowsItsBuildUntilChanged() throws {
        let pts = Self.points(2_000, seed: 3)
        var r = SeededRandom(seed: 4)
        let selection = PointSelection(count: pts.count) { _ in r.uniform(0, 1) < 0.5 }
        let subset = SubsetClusterer(points: pts, selection: selection, method: Self.method)
        let live = try XCTUnwrap(LiveSubsetIndex(adopting: subset, points: pts))
        XCTAssertEqual(live.skippedCount, subset.skippedCount)
        for z in [0, 4, 8, 12, 19] { XCTAssertEqual(Self.canonical(live, zoom: z), Self.canonical(subset, zoom: z), "zoom \(z)") }
        XCTAssertEqual(live.changeCount(to: selection, limit: 0), 0)
        XCTAssertNil(live.changeCount(to: PointSelection(count: pts.count, all: true), limit: 10), "over the limit")
        // Grouped builds have no one index to adopt.
        let groups = pts.indices.map { Int32($0 % 3) }
        XCTAssertNil(LiveSubsetIndex(adopting: SubsetClusterer(points: pts, selection: selection, groups: groups, method: Self.method),
                                     points: pts))
    }

    /// Random small changes (a few % of the points, added and removed) on random data, each shown
    /// as an interim that keeps the rules, then settled by an exact build that equals its oracle
    /// and is adopted for the next change (as the window does).
    func testRandomSmallChangesKeepTheRulesAndSettleExactly() throws {
        for seed: UInt64 in [21, 22, 23] {
            let n = 2_500
            let pts = Self.points(n, seed: seed)
            var r = SeededRandom(seed: seed + 100)
            let categories = (0..<n).map { _ in Int32(r.next() % 4) - 1 }
            let values = (0..<n).map { i in i % 7 == 0 ? Double.nan : r.uniform(0, 100) }
            var target = PointSelection(count: n) { _ in r.uniform(0, 1) < 0.6 }
            var subset = SubsetClusterer(points: pts, selection: target, categories: categories, values: values, method: Self.method)
            var live = try XCTUnwrap(LiveSubsetIndex(adopting: subset, points: pts, categories: categories, values: values))
            for step in 0..<6 {
                let k = 1 + Int(r.next() % 60)
                for _ in 0..<k { let i = Int(r.next() % UInt64(n)); target[i].toggle() }
                let changed = try XCTUnwrap(live.changeCount(to: target, limit: n))
                let done = live.apply(to: target, points: pts, categories: categories, values: values)
                XCTAssertEqual(done.removed + done.added, changed)
                checkInterim(live, pts, target, categories: categories, values: values, "seed \(seed) step \(step)")
                if step % 2 == 1 {
                    // Settles: the exact build of the same points, then adopted for the next change.
                    subset = SubsetClusterer(points: pts, selection: target, categories: categories, values: values, method: Self.method)
                    checkSettled(subset, pts, target, "seed \(seed) step \(step)")
                    live = try XCTUnwrap(LiveSubsetIndex(adopting: subset, points: pts, categories: categories, values: values))
                    live.prepareForChanges()
                }
            }
        }
    }

    /// Removing every point of one hot spot: nothing is left there at any zoom, rules hold.
    func testRemovingAWholeClusterLeavesNothingThere() throws {
        let n = 2_000
        let pts = Self.points(n, seed: 5)
        let all = PointSelection(count: n, all: true)
        let subset = SubsetClusterer(points: pts, selection: all, method: Self.method)
        let live = try XCTUnwrap(LiveSubsetIndex(adopting: subset, points: pts))
        // The hot spot of centre 1 (its tight points and its spread ones).
        let spot = pts[6]  // i % 5 == 1, tight
        var target = all
        var removed = 0
        for i in 0..<n where pts[i].isValid && abs(pts[i].latitude - spot.latitude) < 4 && abs(pts[i].longitude - spot.longitude) < 4 {
            target[i] = false
            removed += 1
        }
        XCTAssertGreaterThan(removed, 100)
        XCTAssertEqual(live.apply(to: target, points: pts).removed, removed)
        checkInterim(live, pts, target, categories: [], values: [], "hot spot removed")
        let box = GeoBounds(west: spot.longitude - 3.5, south: spot.latitude - 3.5, east: spot.longitude + 3.5, north: spot.latitude + 3.5)
        for z in [2, 6, 10] {
            let there = live.clusters(in: box, zoom: Double(z)).filter { item in
                item.clusterID.map { live.leaves(of: $0).contains { !target[$0] } } ?? !target[item.featureID]
            }
            XCTAssertEqual(there, [], "zoom \(z): removed points still drawn")
        }
    }

    /// Adding many points on one spot (and some around it) at once: they stay together at every
    /// zoom, in one item with what was there, and the rules hold.
    func testAddingPointsOnOneSpotKeepsThemTogether() throws {
        let n = 2_000
        let pts = Self.points(n, seed: 6)
        let onSpot = pts.indices.filter { pts[$0] == GeoCoordinate(latitude: 12.5, longitude: 33.25) }
        XCTAssertGreaterThan(onSpot.count, 30)
        var before = PointSelection(count: n) { $0 % 2 == 0 }
        for i in onSpot.dropFirst(3) { before[i] = false }
        let subset = SubsetClusterer(points: pts, selection: before, method: Self.method)
        let live = try XCTUnwrap(LiveSubsetIndex(adopting: subset, points: pts))
        var target = before
        for i in onSpot { target[i] = true }
        for i in 0..<n where i % 2 == 1 && i % 50 == 1 { target[i] = true }
        live.apply(to: target, points: pts)
        checkInterim(live, pts, target, categories: [], values: [], "one spot added")
        for z in 0...18 {
            let holders = live.clusters(in: .world, zoom: Double(z)).filter { item in
                item.clusterID.map { Set(live.leaves(of: $0)).isSuperset(of: onSpot) } ?? false
            }
            XCTAssertEqual(holders.count, 1, "zoom \(z): the spot's \(onSpot.count) points in one bubble")
        }
        checkSettled(SubsetClusterer(points: pts, selection: target, method: Self.method), pts, target, "one spot added")
    }
}
