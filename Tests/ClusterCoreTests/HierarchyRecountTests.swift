import XCTest
import ClusterCore

/// The recount of an unfiltered build over a subset (issue 29 item 3's provisional frame),
/// against brute force over the build's own clusters: each unfiltered cluster at a zoom counts
/// its passing leaves, sits at their mean projected position, totals their values and
/// categories; clusters with no passing member are gone, those with one are that place.
final class HierarchyRecountTests: XCTestCase {
    static func data(_ n: Int, seed: UInt64) -> (points: [GeoCoordinate], categories: [Int32], values: [Double]) {
        var r = SeededRandom(seed: seed)
        var points: [GeoCoordinate] = []
        for i in 0..<n {
            switch i % 7 {
            case 0, 1, 2: points.append(GeoCoordinate(latitude: 48 + r.uniform(-0.5, 0.5), longitude: 2 + r.uniform(-0.5, 0.5)))
            case 3: points.append(GeoCoordinate(latitude: -33.9, longitude: 18.4))  // one shared spot
            case 4: points.append(GeoCoordinate(latitude: r.uniform(-10, 10), longitude: i % 2 == 0 ? r.uniform(179, 180) : r.uniform(-180, -179)))
            default: points.append(GeoCoordinate(latitude: r.uniform(-80, 80), longitude: r.uniform(-180, 180)))
            }
            if i % 97 == 5 { points[i] = GeoCoordinate(latitude: .nan, longitude: 0) }
        }
        let categories = (0..<n).map { _ in Int32(r.uniform(0, 1) < 0.1 ? -1 : Int32(r.uniform(0, 5))) }
        let values = (0..<n).map { _ in r.uniform(0, 1) < 0.15 ? Double.nan : (r.uniform(-50, 200) * 4).rounded() / 4 }
        return (points, categories, values)
    }

    /// What a recount must give at `zoom` in `bounds`, made from the build's own items and leaves.
    static func bruteForce(_ build: HierarchicalClusterer, points: [GeoCoordinate], passing: PointSelection, zoom: Int, bounds: GeoBounds,
                           categories: [Int32], values: [Double]) -> [Int: (ClusterItem, ClusterAggregates)] {
        var expected: [Int: (ClusterItem, ClusterAggregates)] = [:]
        for item in build.clusters(in: .world, zoom: Double(zoom)) {
            let members = item.clusterID.map { build.leaves(of: $0) } ?? [item.pointIndex!]
            let kept = members.filter { passing[$0] }
            guard !kept.isEmpty else { continue }
            let shown: ClusterItem
            if kept.count == 1 {
                shown = ClusterItem(kind: .point(kept[0]), coordinate: points[kept[0]], count: 1)
            } else {
                var x = 0.0, y = 0.0
                for i in kept {
                    let p = WebMercator.project(points[i])
                    x += Double(Float(p.x))
                    y += Double(Float(p.y))
                }
                shown = ClusterItem(kind: item.kind, coordinate: WebMercator.unproject(x: x / Double(kept.count), y: y / Double(kept.count)),
                                    count: kept.count)
            }
            guard bounds.contains(shown.coordinate) else { continue }
            var a = ClusterAggregates(count: kept.count)
            let vs = kept.map { values[$0] }.filter { !$0.isNaN }
            a.valueCount = vs.count
            a.sum = vs.reduce(0, +)
            a.minimum = vs.min()
            a.maximum = vs.max()
            var tally: [Int32: Int] = [:]
            for i in kept where categories[i] >= 0 { tally[categories[i], default: 0] += 1 }
            a.categoryCounts = tally.map { CategoryCount(category: $0.key, count: $0.value) }
                .sorted { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
            expected[shown.featureID] = (shown, a)
        }
        return expected
    }

    func testARecountEqualsBruteForceAtEveryZoomForEveryShare() throws {
        let n = 2_000
        let (points, categories, values) = Self.data(n, seed: 7)
        let build = HierarchicalClusterer(points: points, categories: categories, values: values)
        let recount = HierarchyRecount(build: build)
        var r = SeededRandom(seed: 99)
        for share in [0.01, 0.3, 0.5, 0.9, 1.0] {
            let passing = PointSelection(count: n) { _ in r.uniform(0, 1) < share }
            let shown = recount.recount(passing: passing, categories: categories, values: values)
            let totals = recount.sameRecount(as: shown, categories: [], values: values.map { $0 * 2 })
            XCTAssertEqual(shown.passingCount, (0..<n).filter { passing[$0] && points[$0].isValid }.count)
            for zoom in [0, 2, 4, 6, 9, 13, 17] {
                for bounds in [GeoBounds.world, GeoBounds(west: -5, south: 40, east: 10, north: 55),
                               GeoBounds(west: 170, south: -20, east: -170, north: 20)] {
                    let expected = Self.bruteForce(build, points: points, passing: passing, zoom: zoom, bounds: bounds,
                                                   categories: categories, values: values)
                    let got = shown.clusters(in: bounds, zoom: Double(zoom))
                    let label = "share \(share) zoom \(zoom) box \(bounds)"
                    XCTAssertEqual(Set(got.map(\.featureID)), Set(expected.keys), label)
                    XCTAssertEqual(got.count, expected.count, label)
                    for item in got {
                        guard let (want, agg) = expected[item.featureID] else { continue }
                        XCTAssertEqual(item.count, want.count, label)
                        XCTAssertEqual(item.coordinate.latitude, want.coordinate.latitude, accuracy: 1e-9, label)
                        XCTAssertEqual(item.coordinate.longitude, want.coordinate.longitude, accuracy: 1e-9, label)
                        let a = shown.aggregates(of: item)
                        XCTAssertEqual(a.count, agg.count, label)
                        XCTAssertEqual(a.categoryCounts, agg.categoryCounts, label)
                        XCTAssertEqual(a.valueCount, agg.valueCount, label)
                        for kind in ClusterTotal.allCases {
                            let v = kind.value(of: a), w = kind.value(of: agg)
                            XCTAssertEqual(v == nil, w == nil, "\(label) \(kind)")
                            if let v, let w { XCTAssertEqual(v, w, accuracy: 1e-6 * max(1, abs(w)), "\(label) \(kind)") }
                        }
                        XCTAssertEqual(totals.aggregates(of: item).sum, 2 * a.sum, accuracy: 1e-6 * max(1, abs(a.sum)), label)
                        guard let id = item.clusterID, bounds == .world else { continue }
                        XCTAssertGreaterThanOrEqual(item.count, 2, "a cluster of one passing place shows as that place")
                        XCTAssertEqual(shown.item(for: id)?.count, item.count)
                        XCTAssertEqual(Set(shown.leaves(of: id)), Set(build.leaves(of: id).filter { passing[$0] }), label)
                        XCTAssertEqual(shown.children(of: id).reduce(0) { $0 + $1.count }, item.count, label)
                        let expansion = try XCTUnwrap(shown.expansionZoom(of: id))
                        XCTAssertGreaterThan(expansion, zoom)
                        if expansion <= build.maxZoom, item.count < 40 {
                            // At the expansion zoom its passing members show as more than one item.
                            let below = shown.clusters(in: .world, zoom: Double(expansion))
                                .filter { b in b.clusterID.map { Set(shown.leaves(of: $0)).isSubset(of: Set(shown.leaves(of: id))) }
                                    ?? shown.leaves(of: id).contains(b.pointIndex!) }
                            XCTAssertGreaterThan(below.count, 1, label)
                        }
                    }
                }
            }
        }
    }

    func testNothingPassingShowsNothingAndAllPassingIsTheBuild() {
        let (points, categories, values) = Self.data(1_500, seed: 3)
        let build = HierarchicalClusterer(points: points, categories: categories, values: values)
        let recount = HierarchyRecount(build: build)
        let none = recount.recount(passing: PointSelection(count: points.count, all: false))
        let all = recount.recount(passing: nil, categories: categories, values: values)
        for zoom in [0, 5, 10, 17] {
            XCTAssertTrue(none.clusters(in: .world, zoom: Double(zoom)).isEmpty)
            let want = build.clusters(in: .world, zoom: Double(zoom))
            let got = all.clusters(in: .world, zoom: Double(zoom))
            XCTAssertEqual(got.map(\.featureID).sorted(), want.map(\.featureID).sorted(), "zoom \(zoom)")
            let byID = Dictionary(uniqueKeysWithValues: want.map { ($0.featureID, $0) })
            for item in got {
                XCTAssertEqual(item.count, byID[item.featureID]?.count)
                XCTAssertEqual(item.coordinate.latitude, byID[item.featureID]!.coordinate.latitude, accuracy: 1e-9)
                XCTAssertEqual(all.aggregates(of: item).categoryCounts, build.aggregates(of: item).categoryCounts)
            }
        }
    }
}
