import XCTest
@testable import ClusterCore

/// The grid clusterer: shared invariants, and each option changing what it should.
final class GridClustererTests: XCTestCase {
    func testInvariantsOnSeveralInputs() {
        for points in [Fixtures.uniform(1500, seed: 1), Fixtures.denseCity(1500, seed: 2),
                       Fixtures.antimeridian(400, seed: 3), Fixtures.poles(300, seed: 4),
                       Fixtures.withInvalid(600, seed: 5), Fixtures.sameSpot(50)] {
            let grid = GridClusterer(points: points)
            XCTAssertGreaterThan(assertClusterInvariants(grid, points: points), 0)
        }
        XCTAssertEqual(GridClusterer(points: []).clusters(in: .world, zoom: 3), [])
    }

    func testSameSpotSplitsOnlyAboveMaxZoom() {
        let grid = GridClusterer(points: Fixtures.sameSpot(20))
        let top = grid.clusters(in: .world, zoom: 16)
        XCTAssertEqual(top.count, 1)
        XCTAssertEqual(grid.expansionZoom(of: top[0].clusterID!), 17)
        XCTAssertEqual(grid.clusters(in: .world, zoom: 17).count, 20)
    }

    func testCellsAreAnchoredToTheWorldGrid() {
        // 4 points in one 64-px cell at zoom 3 and 2 in the next cell: two clusters whatever box.
        let cell = 360.0 / 32  // 64 px at zoom 3 (2048 px wide world) in degrees of longitude
        let pts = [0.1, 0.3, 0.5, 0.7].map { GeoCoordinate(latitude: 0.5, longitude: $0 * cell) }
            + [1.2, 1.4].map { GeoCoordinate(latitude: 0.5, longitude: $0 * cell) }
        let grid = GridClusterer(points: pts)
        for west in [-40.0, -5, 0.01] {
            let items = grid.clusters(in: GeoBounds(west: west, south: -10, east: 60, north: 10), zoom: 3)
            XCTAssertEqual(items.map(\.count).sorted(), [2, 4], "box from \(west)")
        }
        let four = grid.clusters(in: .world, zoom: 3).first { $0.count == 4 }!
        XCTAssertEqual(grid.leaves(of: four.clusterID!), [0, 1, 2, 3])
        XCTAssertEqual(grid.leaves(of: four.clusterID!, limit: 2, offset: 1), [1, 2])
    }

    func testMinCountForClustering() {
        let points = Fixtures.denseCity(800, seed: 6)
        let two = GridClusterer(points: points)
        let five = GridClusterer(points: points, options: .init(minCountForClustering: 5))
        assertClusterInvariants(five, points: points)
        for z in 0...16 {
            let a = two.clusters(in: .world, zoom: Double(z)), b = five.clusters(in: .world, zoom: Double(z))
            XCTAssertTrue(b.filter(\.isCluster).allSatisfy { $0.count >= 5 })
            XCTAssertGreaterThanOrEqual(b.count, a.count)
        }
        XCTAssertTrue((0...16).contains { z in
            two.clusters(in: .world, zoom: Double(z)).contains { $0.isCluster && $0.count < 5 }
        }, "the default does make small clusters")
    }

    func testPositions() {
        let points = Fixtures.denseCity(600, seed: 7)
        for position in GridClusterer.Position.allCases {
            let grid = GridClusterer(points: points, options: .init(position: position))
            for z in [4, 9, 12] {
                for item in grid.clusters(in: .world, zoom: Double(z)) {
                    guard let id = item.clusterID else { continue }
                    let leaves = grid.leaves(of: id, limit: .max)
                    let xs = leaves.map { WebMercator.x(longitude: points[$0].longitude) }
                    let ys = leaves.map { WebMercator.y(latitude: points[$0].latitude) }
                    let mx = xs.reduce(0, +) / Double(xs.count), my = ys.reduce(0, +) / Double(ys.count)
                    let (x, y) = WebMercator.project(item.coordinate)
                    switch position {
                    case .average:
                        XCTAssertEqual(x, mx, accuracy: 1e-12)
                        XCTAssertEqual(y, my, accuracy: 1e-12)
                    case .cellCenter:
                        let cu = 64 / (256 * pow(2, Double(z)))
                        XCTAssertEqual((x / cu - 0.5).rounded(), x / cu - 0.5, accuracy: 1e-6)
                        XCTAssertEqual((y / cu - 0.5).rounded(), y / cu - 0.5, accuracy: 1e-6)
                        XCTAssertEqual((x / cu).rounded(.down), (xs[0] / cu).rounded(.down))
                    case .nearestToAverage:
                        let d = zip(xs, ys).map { ($0 - mx) * ($0 - mx) + ($1 - my) * ($1 - my) }
                        let best = leaves[d.firstIndex(of: d.min()!)!]
                        XCTAssertEqual(item.coordinate, points[best])
                    case .first:
                        XCTAssertEqual(item.coordinate, points[leaves[0]])
                    }
                }
            }
        }
    }

    func testShouldClusterAndMaxZoom() {
        let points = Fixtures.denseCity(700, seed: 8)
        let grid = GridClusterer(points: points, options: .init(maxZoom: 10, shouldCluster: { $0 % 3 != 0 }))
        assertClusterInvariants(grid, points: points)
        for z in 0...11 {
            let items = grid.clusters(in: .world, zoom: Double(z))
            let loose = Set(items.compactMap(\.pointIndex))
            XCTAssertTrue(stride(from: 0, to: 700, by: 3).allSatisfy { loose.contains($0) }, "excluded points stay points")
            for c in items where c.isCluster {
                XCTAssertTrue(grid.leaves(of: c.clusterID!, limit: .max).allSatisfy { $0 % 3 != 0 })
            }
            XCTAssertEqual(items.contains(where: \.isCluster), z <= 10, "zoom \(z)")
        }
    }

    func testCellSizeChangesClusters() {
        let points = Fixtures.uniform(2000, seed: 9)
        let small = GridClusterer(points: points, options: .init(cellSize: 16))
        let big = GridClusterer(points: points, options: .init(cellSize: 128))
        XCTAssertGreaterThan(small.clusters(in: .world, zoom: 3).count, big.clusters(in: .world, zoom: 3).count)
    }

    func testAggregates() {
        let points = Fixtures.denseCity(900, seed: 10)
        let categories: [Int32] = (0..<900).map { Int32($0 % 4) - 1 }
        let values: [Double] = (0..<900).map { $0 % 5 == 0 ? .nan : Double($0) }
        let grid = GridClusterer(points: points, categories: categories, values: values)
        assertClusterInvariants(grid, points: points, categories: categories, values: values)
    }
}
