import XCTest
import Foundation
@testable import ClusterCore

/// "Same answers as supercluster", backed by a real implementation: a fixture recorded from the
/// C++ port on PyPI (scripts/record-supercluster-fixture.py) of 2,000 points — spread, in dense
/// hot spots and 50 on one spot — with the single points, and each cluster's count, centre and
/// expansion zoom, at every zoom.
final class SuperclusterFixtureTests: XCTestCase {
    struct Fixture: Decodable {
        struct Zoom: Decodable {
            let zoom: Int
            let points: [Int]
            /// [count, longitude, latitude, expansion zoom (−1: none)]
            let clusters: [[Double]]
        }
        let points: [[Double]]
        let zooms: [Zoom]
    }

    func testEveryZoomMatchesTheRecordedSupercluster() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/supercluster-2000.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        XCTAssertEqual(fixture.points.count, 2_000)
        let points = fixture.points.map { GeoCoordinate(latitude: $0[1], longitude: $0[0]) }
        let index = HierarchicalClusterer(points: points)   // supercluster's default options
        XCTAssertEqual(fixture.zooms.count, 18)
        for z in fixture.zooms {
            let items = index.clusters(in: .world, zoom: Double(z.zoom))
            let singles = items.compactMap { $0.isCluster ? nil : $0.pointIndex }.sorted()
            XCTAssertEqual(singles, z.points, "single points at zoom \(z.zoom)")
            var ours = items.filter(\.isCluster)
            XCTAssertEqual(ours.count, z.clusters.count, "clusters at zoom \(z.zoom)")
            for expected in z.clusters {
                let count = Int(expected[0]), lon = expected[1], lat = expected[2], expansion = Int(expected[3])
                // The same members give the same count and centre (ours are stored as Float).
                guard let k = ours.indices.filter({ ours[$0].count == count })
                    .min(by: { distance(ours[$0], lon, lat) < distance(ours[$1], lon, lat) }),
                      distance(ours[k], lon, lat) < 1e-4 else {
                    XCTFail("zoom \(z.zoom): no cluster of \(count) at \(lon), \(lat)")
                    continue
                }
                let id = try XCTUnwrap(ours[k].clusterID)
                XCTAssertEqual(index.expansionZoom(of: id), expansion, "expansion zoom of \(count) at \(lon), \(lat), zoom \(z.zoom)")
                ours.remove(at: k)
            }
        }
    }

    private func distance(_ item: ClusterItem, _ lon: Double, _ lat: Double) -> Double {
        max(abs(item.coordinate.longitude - lon), abs(item.coordinate.latitude - lat))
    }
}
