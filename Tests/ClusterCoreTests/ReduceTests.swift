import XCTest
@testable import ClusterCore

/// Property aggregation with map/reduce, as supercluster's options.
final class ReduceTests: XCTestCase {
    func testSumAndMaxOverAClusterAndAPoint() {
        let points = [GeoCoordinate(latitude: 0, longitude: 0), GeoCoordinate(latitude: 0.0001, longitude: 0),
                      GeoCoordinate(latitude: 0.0002, longitude: 0), GeoCoordinate(latitude: 50, longitude: 50)]
        let prices = [10.0, 25.0, 5.0, 99.0]
        let index = HierarchicalClusterer(points: points)
        let items = index.clusters(in: .world, zoom: 3)
        let cluster = items.first { $0.isCluster }!
        let single = items.first { !$0.isCluster }!
        XCTAssertEqual(index.reduce(cluster, map: { prices[$0] }, reduce: { $0 += $1 }), 40)
        XCTAssertEqual(index.reduce(cluster, map: { prices[$0] }, reduce: { $0 = max($0, $1) }), 25)
        XCTAssertEqual(index.reduce(single, map: { prices[$0] }, reduce: { $0 += $1 }), 99)
        // Strings too: the names joined in leaf order.
        let names = ["a", "b", "c", "d"]
        let joined = index.reduce(cluster, map: { names[$0] }, reduce: { $0 += $1 })
        XCTAssertEqual(Set(joined), Set("abc"))
    }
}
