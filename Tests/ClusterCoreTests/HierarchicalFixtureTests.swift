import XCTest
@testable import ClusterCore

/// Small inputs whose expected output was worked out by hand from supercluster's rules.
final class HierarchicalFixtureTests: XCTestCase {
    // A and B are 0.01° apart on the equator: 2.78e-5 of the world's width. The radius at zoom z
    // is 40 / (512 · 2^z): 3.8e-5 at zoom 11 (they merge), 1.9e-5 at zoom 12 (they don't).
    // C is 100° away and never joins them.
    let points = [GeoCoordinate(latitude: 0, longitude: 0), GeoCoordinate(latitude: 0, longitude: 0.01),
                  GeoCoordinate(latitude: 0, longitude: 100)]

    func testTwoCloseAndOneFar() {
        let index = HierarchicalClusterer(points: points)
        for z in 12...17 {
            XCTAssertEqual(index.clusters(in: .world, zoom: Double(z)).map(\.featureID), [0, 1, 2], "zoom \(z)")
        }
        for z in 0...11 {
            let items = index.clusters(in: .world, zoom: Double(z))
            XCTAssertEqual(items.count, 2, "zoom \(z)")
            guard let cluster = items.first(where: \.isCluster) else { return XCTFail("no cluster at \(z)") }
            // The cluster forms at zoom 11 from A, item 0 of level 12: id = (0 << 5) + 12 + 3.
            // Below, it has no new neighbours and is carried down unchanged, id and all.
            XCTAssertEqual(cluster.clusterID?.rawValue, 15)
            XCTAssertEqual(cluster.count, 2)
            XCTAssertEqual(cluster.coordinate.latitude, 0, accuracy: 1e-9)
            XCTAssertEqual(cluster.coordinate.longitude, 0.005, accuracy: 2e-5)  // Float storage
            XCTAssertEqual(index.expansionZoom(of: cluster.clusterID!), 12)
            XCTAssertEqual(index.leaves(of: cluster.clusterID!), [0, 1])
            XCTAssertEqual(items.first(where: { !$0.isCluster })?.pointIndex, 2)
        }
        XCTAssertEqual(index.children(of: ClusterID(rawValue: 15)).map(\.featureID), [0, 1])
        XCTAssertEqual(index.children(of: ClusterID(rawValue: 14)), [], "nothing formed at zoom 10")
        XCTAssertEqual(index.children(of: ClusterID(rawValue: 16)), [], "no cluster at zoom 12")
        XCTAssertNil(index.expansionZoom(of: ClusterID(rawValue: 2)), "a point id is not a cluster")
    }

    func testWeightedCentre() {
        // Three points at one spot and one 0.002° east: the centre is at 1/4 of the way.
        let pts = Array(repeating: GeoCoordinate(latitude: 10, longitude: 20), count: 3)
            + [GeoCoordinate(latitude: 10, longitude: 20.002)]
        let index = HierarchicalClusterer(points: pts)
        let top = index.clusters(in: .world, zoom: 5)
        XCTAssertEqual(top.count, 1)
        XCTAssertEqual(top[0].count, 4)
        XCTAssertEqual(top[0].coordinate.longitude, 20.0005, accuracy: 2e-5)
        XCTAssertEqual(top[0].coordinate.latitude, 10, accuracy: 2e-5)
    }

    func testMinPointsKeepsSmallGroupsApart() {
        let index = HierarchicalClusterer(points: points, options: .init(minPoints: 3))
        for z in 0...17 { XCTAssertEqual(index.clusters(in: .world, zoom: Double(z)).count, 3) }
    }

    func testBoxesAcrossTheAntimeridian() {
        let pts = [GeoCoordinate(latitude: 0, longitude: 179.5), GeoCoordinate(latitude: 0, longitude: -179.5),
                   GeoCoordinate(latitude: 0, longitude: 0)]
        let index = HierarchicalClusterer(points: pts)
        func ids(_ w: Double, _ e: Double) -> [Int] {
            index.clusters(in: GeoBounds(west: w, south: -10, east: e, north: 10), zoom: 10).map(\.featureID).sorted()
        }
        XCTAssertEqual(ids(179, -179), [0, 1], "crossing box: both sides")
        XCTAssertEqual(ids(-179, 179), [2], "the complement")
        XCTAssertEqual(ids(179, 181), [0, 1], "east past 180 wraps")
        XCTAssertEqual(ids(-200, 160), [0, 1, 2], "360° wide is the whole world")
        XCTAssertEqual(ids(170, 180), [0], "east edge of exactly 180")
        XCTAssertEqual(ids(-185, -175), [0, 1], "west past -180 wraps")
        // The crossing box returns the eastern part first.
        XCTAssertEqual(index.clusters(in: GeoBounds(west: 179, south: -10, east: -179, north: 10), zoom: 10)
            .map(\.featureID), [0, 1])
        XCTAssertEqual(index.clusters(in: GeoBounds(west: .nan, south: -10, east: 1, north: 10), zoom: 10), [])
    }

    func testClusterIDEncoding() {
        let id = ClusterID(originIndex: 1234, zoom: 7, inputCount: 5000)
        XCTAssertEqual(id.rawValue, (1234 << 5) + 8 + 5000)
        XCTAssertEqual(id.originIndex(inputCount: 5000), 1234)
        XCTAssertEqual(id.zoom(inputCount: 5000), 7)
        XCTAssertNil(ClusterID(rawValue: 10).zoom(inputCount: 5000))
        XCTAssertNil(ClusterID(rawValue: 5000 + 32).zoom(inputCount: 5000), "zoom field 0 is never used")
    }
}

final class CountLabelTests: XCTestCase {
    func testSuperclusterRuleExtendedToMillions() {
        let cases: [(Int, String)] = [
            (0, "0"), (2, "2"), (999, "999"), (1000, "1k"), (1234, "1.2k"), (1250, "1.3k"), (1950, "2k"),
            (9999, "10k"), (10_000, "10k"), (15_000, "15k"), (15_499, "15k"), (15_500, "16k"), (999_499, "999k"),
            (999_500, "1M"), (1_000_000, "1M"), (1_234_567, "1.2M"), (9_960_000, "10M"), (15_000_000, "15M"),
        ]
        for (n, label) in cases { XCTAssertEqual(abbreviatedCount(n), label, "\(n)") }
        XCTAssertEqual(ClusterItem(kind: .point(0), coordinate: GeoCoordinate(latitude: 0, longitude: 0), count: 1234)
            .abbreviatedCount, "1.2k")
    }
}
