import Foundation
import XCTest
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

/// Issue 32 item 1: places can be kept out of clustering (efremidze/Cluster's
/// `shouldClusterAnnotation`): Lisbon's priced stays by its dataset, any data by `--no-clustering`.
final class KeepApartTests: XCTestCase {
    var lisbon: PointSet {
        get throws {
            var url = URL(fileURLWithPath: #filePath)
            for _ in 0..<3 { url.deleteLastPathComponent() }
            return try PointSetLoader.load(path: url.appendingPathComponent("data/points/lisbon.geojson").path)
        }
    }

    func testLisbonShowsItsSixPricesAtEveryZoom() throws {
        let ds = try XCTUnwrap(DatasetCatalog.dataset(id: "lisbon"))
        XCTAssertTrue(ds.keepsPlacesApart)
        let apart = MapDataSession(pointSets: [try lisbon], datasets: [ds])
        let clustered = MapDataSession(pointSets: [try lisbon])
        XCTAssertFalse(clustered.keepsPlacesApart)
        for zoom in [3.0, 8, 12, 14, 16] {
            let cam = Camera(center: GeoCoordinate(latitude: 38.714, longitude: -9.139), zoom: zoom,
                             viewportSize: ScreenSize(width: 1100, height: 700))
            let items = apart.visibleItems(for: cam)
            XCTAssertEqual(items.count, 6, "zoom \(zoom)")
            XCTAssertFalse(items.contains { $0.item.isCluster }, "zoom \(zoom)")
            var scene = SceneBuilder().build(camera: cam, items: items, places: apart.places, state: SceneState())
            apart.decorateBubbles(in: &scene)
            XCTAssertTrue(scene.bubbles.isEmpty)
            XCTAssertEqual(scene.pins.count, 6)
            if zoom <= 14 {
                XCTAssertTrue(clustered.visibleItems(for: cam).contains { $0.item.isCluster }, "the same data clusters without it, zoom \(zoom)")
            }
        }
    }

    func testTheOptionKeepsAnyDataApart() throws {
        XCTAssertTrue(try LaunchOptions.parse(["--no-clustering"]).noClustering)
        XCTAssertFalse(try LaunchOptions.parse([]).noClustering)
        var csv = "name,lat,lon\n"
        for i in 0..<50 { csv += "p\(i),\(40 + Double(i) * 0.001),\(-3.7)\n" }
        let set = try PointSetLoader.load(text: csv, name: "row.csv")
        let cam = Camera(center: GeoCoordinate(latitude: 40.02, longitude: -3.7), zoom: 10, viewportSize: ScreenSize(width: 800, height: 600))
        XCTAssertEqual(MapDataSession(pointSets: [set], keepPlacesApart: true).visibleItems(for: cam).count, 50)
        XCTAssertLessThan(MapDataSession(pointSets: [set]).visibleItems(for: cam).count, 5)
    }
}
