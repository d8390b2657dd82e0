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
        let replay = EarthquakeReplay(set: set, dataset: ds, daysPerSecond: 480)
        while replay.shown < 5700 { replay.advance(seconds: 0.25) }
        let session = replay.session
        guard let coloring = session.bubbleColoring, case .maximum = coloring else { return XCTFail("\(String(describing: session.bubbleColoring))") }
        var blank = 0, total = 0
        for item in session.clusterer.clusters(in: .world, zoom: 2) where item.isCluster {
            total += 1
            let agg = session.clusterer.aggregates(of: item)
            if agg.maximum == nil { blank += 1 }
            let id = try XCTUnwrap(item.clusterID)
            XCTAssertNotNil(session.clusterer.item(for: id), "item(for:) of \(id.rawValue)")
            XCTAssertEqual(session.clusterer.item(for: id)?.count, item.count)
            XCTAssertNotNil(session.look(of: agg, coloring: coloring).fill, "no colour for \(agg)")
        }
        XCTAssertEqual(blank, 0, "\(blank) of \(total) clusters without a maximum")
    }
}
