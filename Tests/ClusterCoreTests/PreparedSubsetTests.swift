import XCTest
@testable import ClusterCore

/// Subset builds from `PreparedPoints` (projection and first band's order reused) against their
/// oracle — a fresh build of exactly the chosen points — including sequences of small filter
/// changes, groups, options the preparation doesn't serve, and inputs big enough for the
/// two-thread paths.
final class PreparedSubsetTests: XCTestCase {
    /// Hot spots plus noise plus a few invalid points.
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

    /// Every item at a zoom as text naming its points by input index (members, counts,
    /// positions, expansion zooms): equal lists mean equal clusters.
    private func canonical(_ index: any PointClusterer, zoom: Int, input: (Int) -> Int) -> [String] {
        index.clusters(in: .world, zoom: Double(zoom)).map { item in
            switch item.kind {
            case .point(let i): return "p \(input(i)) \(item.coordinate.latitude) \(item.coordinate.longitude)"
            case .cluster(let id):
                return "c \(item.count) \(item.coordinate.latitude) \(item.coordinate.longitude) "
                    + "ez \(index.expansionZoom(of: id) ?? -1) \(index.leaves(of: id).map(input).sorted())"
            }
        }.sorted()
    }

    /// The subset equals a fresh build of its chosen points at every zoom.
    private func assertEqualsOracle(_ subset: SubsetClusterer, _ pts: [GeoCoordinate], _ selection: PointSelection,
                                    _ method: ClusteringMethod, _ label: String, file: StaticString = #filePath,
                                    line: UInt = #line) {
        let chosen = selection.chosenIndices
        let oracle = method.build(points: chosen.map { pts[$0] })
        XCTAssertEqual(subset.indexedCount, chosen.filter { pts[$0].isValid }.count, label, file: file, line: line)
        for z in subset.minZoom...(subset.maxZoom + 1) {
            let got = canonical(subset, zoom: z) { $0 }, want = canonical(oracle, zoom: z) { chosen[$0] }
            XCTAssertEqual(got, want, "\(label), zoom \(z)", file: file, line: line)
            if got != want { return }
        }
    }

    func testPreparedSubsetsEqualFreshBuilds() {
        let n = 3_000
        let pts = points(n, seed: 11)
        let options = HierarchicalClusterer.Options(maxZoom: 14)
        let prepared = PreparedPoints(points: pts, options: options)
        XCTAssertFalse(prepared.order.isEmpty, "the prepared order is used")
        var r = SeededRandom(seed: 12)
        let selections: [(String, PointSelection)] = [
            ("none", PointSelection(count: n, all: false)),
            ("all", PointSelection(count: n, all: true)),
            ("1 %", PointSelection(count: n) { _ in r.uniform(0, 1) < 0.01 }),
            ("half", PointSelection(count: n) { _ in r.uniform(0, 1) < 0.5 }),
            ("99 %", PointSelection(count: n) { _ in r.uniform(0, 1) < 0.99 }),
            ("a band", PointSelection(count: n) { $0 % 10 < 3 }),
        ]
        // Served (default and shorter bands) and not served (other radius, minPoints 3, grid): the same clusters.
        let methods: [(String, ClusteringMethod)] = [
            ("hierarchical", .hierarchical(options)),
            ("other radius", .hierarchical(HierarchicalClusterer.Options(maxZoom: 14, radius: 60))),
            ("minPoints 3", .hierarchical(HierarchicalClusterer.Options(maxZoom: 14, minPoints: 3))),
            ("grid", .grid(GridClusterer.Options(maxZoom: 14))),
        ]
        for (methodName, method) in methods {
            for (name, selection) in selections {
                let used = LevelBuilder.preparedBands.count
                let subset = SubsetClusterer(points: pts, selection: selection, method: method, prepared: prepared)
                assertEqualsOracle(subset, pts, selection, method, "\(methodName), \(name)")
                // The prepared order serves big selections with the options it was made for, nothing else.
                let served = methodName == "hierarchical" && selection.chosenCount >= n / 16
                XCTAssertEqual(LevelBuilder.preparedBands.count > used, served, "\(methodName), \(name): prepared path taken")
            }
        }
        // No selection: every point.
        let all = SubsetClusterer(points: pts, method: .hierarchical(options), prepared: prepared)
        assertEqualsOracle(all, pts, PointSelection(count: n, all: true), .hierarchical(options), "no selection")
    }

    /// A range dragged a step at a time: each small change (≤ 1 % of the points added or
    /// removed) built from the prepared points equals a fresh build of what passes then.
    func testSequencesOfSmallFilterChangesEqualFreshBuilds() {
        let n = 4_000
        let pts = points(n, seed: 13)
        let method = ClusteringMethod.hierarchical(HierarchicalClusterer.Options(maxZoom: 14))
        let prepared = PreparedPoints(points: pts, options: HierarchicalClusterer.Options(maxZoom: 14))
        var r = SeededRandom(seed: 14)
        let value = (0..<n).map { _ in r.uniform(0, 10) }
        var previous: SubsetClusterer?
        for step in 0..<12 {
            // The lower end moves by 0.05 (≈ 0.5 % of the points) up, then back down past it.
            let lower = 5 + 0.05 * Double(step < 8 ? step : 16 - step)
            let selection = PointSelection(count: n) { value[$0] >= lower }
            let used = LevelBuilder.preparedBands.count
            let subset = SubsetClusterer(points: pts, selection: selection, method: method, prepared: prepared)
            XCTAssertGreaterThan(LevelBuilder.preparedBands.count, used, "the prepared path is taken")
            assertEqualsOracle(subset, pts, selection, method, "step \(step), mag ≥ \(lower)")
            if let previous { XCTAssertLessThanOrEqual(abs(previous.indexedCount - subset.indexedCount), n / 100 + 10) }
            previous = subset
        }
    }

    func testPreparedGroupsEqualFreshBuildsPerGroup() {
        let n = 2_500
        let pts = points(n, seed: 15)
        var r = SeededRandom(seed: 16)
        let groups: [Int32] = (0..<n).map { _ in r.uniform(0, 1) < 0.1 ? -1 : Int32(r.uniform(0, 4)) }
        let selection = PointSelection(count: n) { _ in r.uniform(0, 1) < 0.6 }
        let method = ClusteringMethod.hierarchical(HierarchicalClusterer.Options(maxZoom: 14))
        let prepared = PreparedPoints(points: pts, options: HierarchicalClusterer.Options(maxZoom: 14))
        let plain = SubsetClusterer(points: pts, selection: selection, groups: groups, method: method)
        let used = LevelBuilder.preparedBands.count
        let fast = SubsetClusterer(points: pts, selection: selection, groups: groups, method: method, prepared: prepared)
        XCTAssertGreaterThan(LevelBuilder.preparedBands.count, used, "the prepared path is taken")
        for z in 0...15 {
            XCTAssertEqual(canonical(fast, zoom: z) { $0 }, canonical(plain, zoom: z) { $0 }, "zoom \(z)")
        }
        XCTAssertEqual(fast.groupValues, plain.groupValues)
    }

    /// Past 200k points the prepared slots and order are filled by two threads: the same clusters
    /// as a build without preparation (item by item at every zoom).
    func testLargeInputsTakeTheTwoThreadPathsAndAgree() {
        let n = 210_000
        var r = SeededRandom(seed: 17)
        let pts = (0..<n).map { i in
            i % 1_001 == 7 ? GeoCoordinate(latitude: 95, longitude: 0)
                : GeoCoordinate(latitude: r.uniform(-85, 85), longitude: r.uniform(-180, 180))
        }
        let options = HierarchicalClusterer.Options(maxZoom: 8)
        let prepared = PreparedPoints(points: pts, options: options)
        let selection = PointSelection(count: n) { _ in r.uniform(0, 1) < 0.7 }
        let plain = SubsetClusterer(points: pts, selection: selection, method: .hierarchical(options))
        let used = LevelBuilder.preparedBands.count
        let fast = SubsetClusterer(points: pts, selection: selection, method: .hierarchical(options), prepared: prepared)
        XCTAssertGreaterThan(LevelBuilder.preparedBands.count, used, "the prepared path is taken")
        XCTAssertEqual(fast.indexedCount, plain.indexedCount)
        // The same levels: the same items in the same order.
        for z in 0...9 {
            XCTAssertEqual(fast.clusters(in: .world, zoom: Double(z)), plain.clusters(in: .world, zoom: Double(z)), "zoom \(z)")
        }
    }
}
