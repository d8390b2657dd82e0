import XCTest
@testable import ClusterCore

/// `leaves(of:)` means "all leaves" whatever the static type it is called through.
final class LeavesDefaultTests: XCTestCase {
    func testLeavesOfMeansAllOnTheConcreteTypesAndTheProtocol() {
        let points = (0..<25).map { GeoCoordinate(latitude: 10 + Double($0) * 1e-4, longitude: 20) }
        let h = HierarchicalClusterer(points: points)
        let g = GridClusterer(points: points, categories: [], values: [])
        for (concrete, general): (([ClusterItem], (ClusterID) -> [Int]), any PointClusterer) in
            [((h.clusters(in: .world, zoom: 2), { h.leaves(of: $0) }), h), ((g.clusters(in: .world, zoom: 2), { g.leaves(of: $0) }), g)] {
            let (items, leavesOf) = concrete
            XCTAssertEqual(items.count, 1)
            let id = items[0].clusterID!
            XCTAssertEqual(leavesOf(id).count, 25)
            XCTAssertEqual(general.leaves(of: id).count, 25)
            XCTAssertEqual(general.leaves(of: id, limit: 10, offset: 0).count, 10)
        }
    }
}
