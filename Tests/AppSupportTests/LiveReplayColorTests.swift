import XCTest
import Foundation
import ClusterCore
import GeoData
@testable import AppSupport

final class LiveReplayColorTests: XCTestCase {
    func testReplayedClustersKeepTheirColour() throws {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data").path
        let ds = try XCTUnwrap(DatasetCatalog.dataset(id: "earthquakes"))
        let set = try PointSetLoader.load(path: ds.path(in: dir), options: ds.loadOptions)
        var blank = 0, total = 0
        for speed in [120.0, 480, 960] {
            let replay = EarthquakeReplay(set: set, dataset: ds, daysPerSecond: 120)
            var steps = 0
            while replay.shown < 9000 {
                replay.advance(seconds: 0.25)
                steps += 1
                if steps == 8 { replay.daysPerSecond = speed }  // `]` pressed after two seconds
            }
            let session = replay.session
            guard let coloring = session.bubbleColoring, case .maximum = coloring else {
                return XCTFail("\(String(describing: session.bubbleColoring))")
            }
            for z in 0...8 {
                for item in session.clusterer.clusters(in: .world, zoom: Double(z)) where item.isCluster {
                    total += 1
                    let agg = session.clusterer.aggregates(of: item)
                    let id = try XCTUnwrap(item.clusterID)
                    XCTAssertEqual(session.clusterer.item(for: id)?.count, item.count)
                    if agg.maximum?.isFinite != true || session.look(of: agg, coloring: coloring).fill == PlaceColors.defaultPin {
                        blank += 1
                        if blank < 4 { XCTFail("speed \(speed) zoom \(z): cluster of \(item.count), aggregates \(agg)") }
                    }
                }
            }
        }
        XCTAssertEqual(blank, 0, "\(blank) of \(total) clusters without a maximum")
    }
}
