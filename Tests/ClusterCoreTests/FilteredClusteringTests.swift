import XCTest
@testable import ClusterCore

/// Filtered and grouped clustering against its oracle — a fresh build of exactly the points
/// that pass — on random data, for both algorithms; totals against brute force.
final class FilteredClusteringTests: XCTestCase {
    private static let methods: [(String, ClusteringMethod)] = [
        ("hierarchical", .hierarchical(HierarchicalClusterer.Options(maxZoom: 14))),
        ("hierarchical minPoints 3", .hierarchical(HierarchicalClusterer.Options(maxZoom: 12, minPoints: 3))),
        ("grid", .grid(GridClusterer.Options(maxZoom: 14))),
    ]

    /// Hot spots plus noise plus a few invalid points, so that every zoom has clusters.
    private func points(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        let centres = (0..<6).map { _ in (r.uniform(-60, 60), r.uniform(-170, 170)) }
        return (0..<n).map { i in
            if i % 97 == 5 { return GeoCoordinate(latitude: .nan, longitude: 0) }
            if i % 4 == 0 { return GeoCoordinate(latitude: r.uniform(-80, 80), longitude: r.uniform(-180, 180)) }
            let c = centres[i % centres.count]
            let s = i % 3 == 0 ? 2.0 : 0.05
            return GeoCoordinate(latitude: c.0 + r.uniform(-s, s), longitude: c.1 + r.uniform(-s, s))
        }
    }

    /// Every item at a zoom, as text that names its points by input index: equal lists mean
    /// equal clusters (members, counts, positions, expansion zooms).
    private func canonical(_ index: any PointClusterer, zoom: Int, input: (Int) -> Int) -> [String] {
        index.clusters(in: .world, zoom: Double(zoom)).map { item in
            switch item.kind {
            case .point(let i): return "p \(input(i)) \(item.coordinate.latitude) \(item.coordinate.longitude)"
            case .cluster(let id):
                let leaves = index.leaves(of: id).map(input).sorted()
                XCTAssertEqual(leaves.count, item.count)
                let children = index.children(of: id).reduce(0) { $0 + $1.count }
                XCTAssertEqual(children, item.count, "children add up")
                return "c \(item.count) \(item.coordinate.latitude) \(item.coordinate.longitude) "
                    + "ez \(index.expansionZoom(of: id) ?? -1) \(leaves)"
            }
        }.sorted()
    }

    private func selections(_ n: Int, seed: UInt64) -> [(String, PointSelection)] {
        var r = SeededRandom(seed: seed)
        return [
            ("none", PointSelection(count: n, all: false)),
            ("all", PointSelection(count: n, all: true)),
            ("1 %", PointSelection(count: n) { _ in r.uniform(0, 1) < 0.01 }),
            ("half", PointSelection(count: n) { _ in r.uniform(0, 1) < 0.5 }),
            ("99 %", PointSelection(count: n) { _ in r.uniform(0, 1) < 0.99 }),
            ("a band", PointSelection(count: n) { $0 % 10 < 3 }),
        ]
    }

    func testFilteredClustersEqualAFreshBuildOfThePassingPoints() {
        let n = 2_500
        let pts = points(n, seed: 1)
        for (methodName, method) in Self.methods {
            for (name, selection) in selections(n, seed: 2) {
                let filtered = SubsetClusterer(points: pts, selection: selection, method: method)
                let chosen = selection.chosenIndices
                let oracle = method.build(points: chosen.map { pts[$0] })
                XCTAssertEqual(filtered.indexedCount, chosen.filter { pts[$0].isValid }.count)
                for z in filtered.minZoom...(filtered.maxZoom + 1) {
                    let got = canonical(filtered, zoom: z) { $0 }
                    let want = canonical(oracle, zoom: z) { chosen[$0] }
                    XCTAssertEqual(got, want, "\(methodName), \(name), zoom \(z)")
                    if got != want { return }
                }
            }
        }
    }

    /// The command line's form — unchosen points given as missing coordinates to a plain build,
    /// as if those features had no geometry — clusters the same.
    func testMaskedBuildEqualsTheSubsetBuild() {
        let n = 2_000
        let pts = points(n, seed: 3)
        for (methodName, method) in Self.methods {
            for (name, selection) in selections(n, seed: 4) {
                let masked = method.build(points: pts.indices.map { selection[$0] ? pts[$0] : GeoCoordinate(latitude: .nan, longitude: .nan) })
                let subset = SubsetClusterer(points: pts, selection: selection, method: method)
                for z in subset.minZoom...(subset.maxZoom + 1) {
                    XCTAssertEqual(canonical(masked, zoom: z) { $0 }, canonical(subset, zoom: z) { $0 }, "\(methodName), \(name), zoom \(z)")
                }
            }
        }
    }

    func testGroupsNeverMixAndEachEqualsAFreshBuild() {
        let n = 2_000
        let pts = points(n, seed: 5)
        var r = SeededRandom(seed: 6)
        let groups: [Int32] = (0..<n).map { _ in r.uniform(0, 1) < 0.1 ? -1 : Int32(r.uniform(0, 4)) }
        for (methodName, method) in Self.methods {
            for (name, selection) in selections(n, seed: 7) {
                let grouped = SubsetClusterer(points: pts, selection: selection, groups: groups, method: method)
                let oracles: [(chosen: [Int], index: any PointClusterer)] = Set(groups).sorted().map { g in
                    let chosen = (0..<n).filter { selection[$0] && groups[$0] == g }
                    return (chosen, method.build(points: chosen.map { pts[$0] }))
                }
                for z in grouped.minZoom...(grouped.maxZoom + 1) {
                    var union: [String] = []
                    for (chosen, oracle) in oracles { union += canonical(oracle, zoom: z) { chosen[$0] } }
                    let items = grouped.clusters(in: .world, zoom: Double(z))
                    for item in items {
                        let members = item.clusterID.map { grouped.leaves(of: $0) } ?? [item.pointIndex!]
                        XCTAssertEqual(Set(members.map { groups[$0] }).count, 1, "a bubble never mixes groups")
                        XCTAssertEqual(grouped.groupValue(of: item), groups[members[0]])
                    }
                    XCTAssertEqual(canonical(grouped, zoom: z) { $0 }, union.sorted(), "\(methodName), \(name), zoom \(z)")
                }
            }
        }
    }

    func testTotalsMatchBruteForce() {
        let n = 3_000
        let pts = points(n, seed: 8)
        var r = SeededRandom(seed: 9)
        let values: [Double] = (0..<n).map { _ in r.uniform(0, 1) < 0.2 ? .nan : (r.uniform(-50, 500) * 4).rounded() / 4 }
        let categories: [Int32] = (0..<n).map { _ in r.uniform(0, 1) < 0.1 ? -1 : Int32(r.uniform(0, 5)) }
        let selection = PointSelection(count: n) { $0 % 3 != 0 }
        for (methodName, method) in Self.methods {
            let index = SubsetClusterer(points: pts, selection: selection, categories: categories, values: values, method: method)
            for z in [0, 3, 6, 9] {
                for item in index.clusters(in: .world, zoom: Double(z)) {
                    let members = item.clusterID.map { index.leaves(of: $0) } ?? [item.pointIndex!]
                    let vs = members.map { values[$0] }.filter { !$0.isNaN }
                    var counts: [Int32: Int] = [:]
                    for m in members where categories[m] >= 0 { counts[categories[m], default: 0] += 1 }
                    let common = counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
                    let a = index.aggregates(of: item)
                    let where_ = "\(methodName), zoom \(z), \(item.kind)"
                    XCTAssertEqual(a.count, members.count, where_)
                    XCTAssertEqual(ClusterTotal.sum.value(of: a), vs.isEmpty ? nil : vs.reduce(0, +), where_)
                    XCTAssertEqual(ClusterTotal.minimum.value(of: a), vs.min(), where_)
                    XCTAssertEqual(ClusterTotal.maximum.value(of: a), vs.max(), where_)
                    if let mean = ClusterTotal.mean.value(of: a) {
                        XCTAssertEqual(mean, vs.reduce(0, +) / Double(vs.count), accuracy: 1e-9, where_)
                    } else {
                        XCTAssertTrue(vs.isEmpty, where_)
                    }
                    XCTAssertEqual(ClusterTotal.mostCommon.value(of: a), common.map(Double.init), where_)
                }
            }
        }
    }

    func testIdsAreApartFromPointsAndUnknownIdsAreHarmless() {
        let pts = points(2_000, seed: 10)
        let grouped = SubsetClusterer(points: pts, selection: PointSelection(count: 2_000) { $0 % 2 == 0 },
                                      groups: (0..<2_000).map { Int32($0 % 3) }, method: Self.methods[0].1)
        var ids = Set<Int>()
        for z in 0...15 {
            for item in grouped.clusters(in: .world, zoom: Double(z)) {
                if let id = item.clusterID {
                    XCTAssertGreaterThanOrEqual(id.rawValue, 2_000)
                    XCTAssertEqual(grouped.item(for: id)?.count, item.count)
                    ids.insert(id.rawValue)
                } else {
                    XCTAssertEqual(item.pointIndex! % 2, 0, "only chosen points are shown")
                }
            }
        }
        XCTAssertFalse(ids.isEmpty)
        for raw in [-1, 0, 1_999, 2_000, 2_001, Int.max >> 1] {
            XCTAssertTrue(grouped.leaves(of: ClusterID(rawValue: raw)).isEmpty || ids.contains(raw))
        }
        XCTAssertEqual(grouped.aggregates(of: ClusterItem(kind: .point(1), coordinate: pts[1], count: 1)).count, 0)
        XCTAssertEqual(ClusterTotal.abbreviated(1234), "1.2k")
        XCTAssertEqual(ClusterTotal.abbreviated(-2.5), "-2.5")
        XCTAssertEqual(ClusterTotal.abbreviated(12.345), "12.3", "three significant digits, as counts show")
        XCTAssertEqual(ClusterTotal.abbreviated(841.78), "842")
        XCTAssertEqual(ClusterTotal.abbreviated(6.254), "6.25")
        XCTAssertEqual(ClusterTotal.abbreviated(0.1234), "0.12")
        XCTAssertEqual(ClusterTotal.abbreviated(99.96), "100")
        XCTAssertEqual(ClusterTotal.abbreviated(999.6), "1k")
        XCTAssertEqual(ClusterTotal.abbreviated(7), "7")
    }
}

extension FilteredClusteringTests {
    /// The grid's `shouldCluster` predicate is asked about input indices, as without a filter.
    func testGridPredicateSeesInputIndices() {
        let pts = (0..<400).map { i in GeoCoordinate(latitude: 10 + Double(i % 20) * 0.001, longitude: 10 + Double(i / 20) * 0.001) }
        let selection = PointSelection(count: 400) { $0 % 2 == 0 }
        let options = GridClusterer.Options(shouldCluster: { $0 % 4 != 0 })  // input indices 0, 4, 8… stand alone
        let sub = SubsetClusterer(points: pts, selection: selection, method: .grid(options))
        let chosen = selection.chosenIndices
        let oracle = GridClusterer(points: chosen.map { pts[$0] },
                                   options: GridClusterer.Options(shouldCluster: { chosen[$0] % 4 != 0 }))
        for z in [0, 8, 14] {
            let alone = sub.clusters(in: .world, zoom: Double(z)).compactMap(\.pointIndex).sorted()
            XCTAssertEqual(alone, oracle.clusters(in: .world, zoom: Double(z)).compactMap(\.pointIndex).map { chosen[$0] }.sorted())
            XCTAssertTrue(alone.allSatisfy { $0 % 2 == 0 })
            if z == 0 { XCTAssertEqual(alone, chosen.filter { $0 % 4 == 0 }) }
        }
    }
}
