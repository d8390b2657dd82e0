import XCTest
@testable import ClusterCore

/// Invariants of the hierarchical clusterer on every zoom for several seeded inputs.
final class HierarchicalClustererTests: XCTestCase {
    func check(_ points: [GeoCoordinate], _ options: HierarchicalClusterer.Options = .init(),
               minClusters: Int = 1, file: StaticString = #filePath, line: UInt = #line) {
        let index = HierarchicalClusterer(points: points, options: options)
        let clusters = assertClusterInvariants(index, points: points, file: file, line: line)
        XCTAssertGreaterThanOrEqual(clusters, minClusters, file: file, line: line)
    }

    func testUniform() { check(Fixtures.uniform(2000, seed: 1), minClusters: 100) }
    func testDenseCity() { check(Fixtures.denseCity(2500, seed: 2), minClusters: 100) }
    func testAntimeridian() { check(Fixtures.antimeridian(600, seed: 3), minClusters: 50) }
    func testPoles() { check(Fixtures.poles(500, seed: 4), minClusters: 50) }
    func testInvalidPointsAreSkippedAndCounted() {
        let points = Fixtures.withInvalid(800, seed: 5)
        check(points)
        let index = HierarchicalClusterer(points: points)
        XCTAssertEqual(index.skippedCount, points.filter { !$0.isValid }.count)
        XCTAssertGreaterThan(index.skippedCount, 50)
    }
    func testNoPointsAndOnePoint() {
        let empty = HierarchicalClusterer(points: [])
        XCTAssertEqual(empty.clusters(in: .world, zoom: 3), [])
        XCTAssertNil(empty.expansionZoom(of: ClusterID(rawValue: 5)))
        let one = HierarchicalClusterer(points: [GeoCoordinate(latitude: 1, longitude: 2)])
        for z in 0...18 { XCTAssertEqual(one.clusters(in: .world, zoom: Double(z)).map(\.pointIndex), [0]) }
        let onlyInvalid = HierarchicalClusterer(points: [GeoCoordinate(latitude: .nan, longitude: 0)])
        XCTAssertEqual(onlyInvalid.skippedCount, 1)
        XCTAssertEqual(onlyInvalid.clusters(in: .world, zoom: 0), [])
    }

    func testSameSpotNeverSplits() {
        let points = Fixtures.sameSpot(300)
        let index = HierarchicalClusterer(points: points)
        check(points)
        for z in 0...16 {
            let items = index.clusters(in: .world, zoom: Double(z))
            XCTAssertEqual(items.count, 1)
            XCTAssertEqual(items[0].count, 300)
            XCTAssertEqual(index.expansionZoom(of: items[0].clusterID!), 17)
        }
        XCTAssertEqual(index.clusters(in: .world, zoom: 17).count, 300)
    }

    func testOtherOptions() {
        let points = Fixtures.denseCity(1500, seed: 6) + Fixtures.uniform(500, seed: 7)
        check(points, .init(minZoom: 2, maxZoom: 12, minPoints: 3, radius: 60, extent: 256, nodeSize: 16))
        check(points, .init(maxZoom: 18, minPoints: 5, radius: 20))
        check(points, .init(minZoom: 0, maxZoom: 5))
    }

    func testLevelsAreBuiltWithTheGraphOnBigInputs() {
        // Big enough for the neighbour sweep (≥ 2048 items per level) and several clumps.
        let points = Fixtures.denseCity(6000, seed: 8) + Fixtures.uniform(4000, seed: 9)
        check(points, minClusters: 500)
    }

    func testDeterministic() {
        let points = Fixtures.denseCity(3000, seed: 10)
        let a = HierarchicalClusterer(points: points), b = HierarchicalClusterer(points: points)
        for z in 0...17 {
            XCTAssertEqual(a.clusters(in: .world, zoom: Double(z)), b.clusters(in: .world, zoom: Double(z)))
        }
    }

    func testZoomIsFlooredAndClamped() {
        let points = Fixtures.denseCity(1000, seed: 11)
        let index = HierarchicalClusterer(points: points, options: .init(minZoom: 2, maxZoom: 10))
        XCTAssertEqual(index.clusters(in: .world, zoom: 5.9), index.clusters(in: .world, zoom: 5))
        XCTAssertEqual(index.clusters(in: .world, zoom: 0), index.clusters(in: .world, zoom: 2))
        XCTAssertEqual(index.clusters(in: .world, zoom: -3), index.clusters(in: .world, zoom: 2))
        XCTAssertEqual(index.clusters(in: .world, zoom: 30), index.clusters(in: .world, zoom: 11))
        XCTAssertEqual(index.clusters(in: .world, zoom: .infinity).count, 1000)
        XCTAssertEqual(index.clusters(in: .world, zoom: .nan), [])
        XCTAssertEqual(index.clusters(in: .world, zoom: 11).count, 1000)
        XCTAssertNotEqual(index.clusters(in: .world, zoom: 10).count, 1000)
    }

    func testAllocationFreeVariantMatches() {
        let index = HierarchicalClusterer(points: Fixtures.uniform(1000, seed: 12))
        var buffer: [ClusterItem] = []
        let box = GeoBounds(west: -30, south: -20, east: 60, north: 50)
        for z in 0...17 {
            index.clusters(in: box, zoom: Double(z), into: &buffer)
            XCTAssertEqual(buffer, index.clusters(in: box, zoom: Double(z)))
        }
    }

    func testAggregates() {
        let points = Fixtures.denseCity(2000, seed: 13)
        var r = SeededRandom(seed: 14)
        let categories: [Int32] = (0..<2000).map { i in i % 9 == 0 ? -1 : Int32(100 + Int(r.next() % 4)) }
        let values: [Double] = (0..<2000).map { i in i % 7 == 0 ? .nan : r.uniform(-50, 50) }
        let index = HierarchicalClusterer(points: points, categories: categories, values: values)
        assertClusterInvariants(index, points: points, categories: categories, values: values)
        XCTAssertEqual(index.aggregates(of: ClusterItem(kind: .point(9), coordinate: points[9], count: 1)).categoryCounts, [])
        let p1 = index.aggregates(of: ClusterItem(kind: .point(1), coordinate: points[1], count: 1))
        XCTAssertEqual(p1.categoryCounts, [CategoryCount(category: categories[1], count: 1)])
        XCTAssertEqual(p1.minimum, values[1])
        // Without inputs, clusters only know their count.
        let plain = HierarchicalClusterer(points: points)
        let top = plain.clusters(in: .world, zoom: 0)[0]
        XCTAssertEqual(plain.aggregates(of: top), ClusterAggregates(count: top.count))
    }
}
