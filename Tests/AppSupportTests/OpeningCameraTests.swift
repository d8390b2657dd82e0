import XCTest
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

/// Data opens on its bulk, split: the Lisbon stays all in view as six prices; a few outlying
/// places don't pull the view away from the rest.
final class OpeningCameraTests: XCTestCase {
    var lisbonFile: String {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.appendingPathComponent("data/points/lisbon.geojson").path
    }

    func testLisbonOpensWithItsSixPricesApart() throws {
        let session = MapDataSession(pointSets: [try PointSetLoader.load(path: lisbonFile)])
        XCTAssertEqual(session.pointCount, 6)
        let start = Camera(center: GeoCoordinate(latitude: 20, longitude: 0), zoom: 2, viewportSize: ScreenSize(width: 1280, height: 800))
        let view = try XCTUnwrap(session.openingCamera(from: start))
        XCTAssertGreaterThan(view.zoom, 15.5, "at the zoom where they fit, not at 14")
        let items = session.visibleItems(for: view)
        XCTAssertEqual(items.count, 6, "no bubble: six places")
        XCTAssertFalse(items.contains { $0.item.isCluster })
        for i in 0..<6 {
            let p = view.screenPoint(for: session.places.coordinates[i])
            XCTAssertTrue(p.x > 0 && p.x < 1280 && p.y > 0 && p.y < 800, "stay \(i) in view")
        }
        // At the old fixed 14 some were still in bubbles (what the split search sees).
        let split = try XCTUnwrap(session.splitZoom(in: try XCTUnwrap(session.bounds)))
        XCTAssertGreaterThan(split, 14)
        var at14 = view
        at14.setZoom(14)
        XCTAssertTrue(session.visibleItems(for: at14).contains { $0.item.isCluster })
        var before = view
        before.setZoom(Double(split - 1))
        XCTAssertTrue(session.visibleItems(for: before).contains { $0.item.isCluster }, "one level shallower a bubble remains")
    }

    func testAFewOutlyingPlacesDoNotPullTheView() throws {
        // 300 places in Europe and 2 in Antarctica.
        var features: [String] = []
        var rng = SystemRandomNumberGenerator()
        for i in 0..<300 {
            let lon = Double.random(in: -5...20, using: &rng), lat = Double.random(in: 40...55, using: &rng)
            features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"p\#(i)"}}"#)
        }
        for lon in [0.0, 10.0] {
            features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),-78]},"properties":{"name":"far"}}"#)
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "t.geojson")])
        let bulk = try XCTUnwrap(session.bulkBounds)
        XCTAssertGreaterThan(bulk.south, 39, "the Antarctic strip is left out")
        XCTAssertLessThan(try XCTUnwrap(session.bounds).south, -70)
        let start = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1, viewportSize: ScreenSize(width: 1280, height: 800))
        let view = try XCTUnwrap(session.openingCamera(from: start))
        XCTAssertGreaterThan(view.center.latitude, 40)
        XCTAssertGreaterThan(view.zoom, 3)
        // Few places: every one counts.
        let few = MapDataSession(pointSets: [try PointSetLoader.load(text: #"{"type":"FeatureCollection","features":["# + features.suffix(3).joined(separator: ",") + "]}", name: "f.geojson")])
        XCTAssertEqual(few.bulkBounds, few.bounds)
    }
}

/// A search lands where the found place stands alone: its pin highlighted, not a bubble around it.
final class SearchLandingTests: XCTestCase {
    func testAFoundPlaceLandsWhereItStandsAlone() throws {
        // Ten places around a town, a few hundred metres apart, and one on the same spot as another.
        var features: [String] = []
        for i in 0..<10 {
            let lon = -9.14 + Double(i % 5) * 0.004, lat = 38.71 + Double(i / 5) * 0.003
            features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]},"properties":{"name":"p\#(i)"}}"#)
        }
        features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":[-9.14,38.71]},"properties":{"name":"twin"}}"#)
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "t.geojson")])
        let camera = Camera(center: GeoCoordinate(latitude: 20, longitude: 0), zoom: 3, viewportSize: ScreenSize(width: 1280, height: 800))
        let lone = 7
        let zoom = session.landingZoom(of: lone, atLeast: 12, camera: camera)
        XCTAssertGreaterThan(zoom, 12, "at 12 it is still in a bubble")
        func isAlone(_ z: Double) -> Bool {
            var view = camera
            view.setZoom(z)
            view.setCenter(session.places.coordinates[lone])
            return session.visibleItems(for: view).contains { $0.item.pointIndex == lone }
        }
        XCTAssertTrue(isAlone(zoom))
        XCTAssertFalse(isAlone(zoom - 1), "the shallowest such zoom")
        XCTAssertEqual(session.landingZoom(of: lone, atLeast: 17, camera: camera), 17, "a closer view is kept")
        // A place sharing its spot never stands alone: it lands at the given zoom.
        XCTAssertNil(session.aloneZoom(of: 0))
        XCTAssertEqual(session.landingZoom(of: 0, atLeast: 12, camera: camera), 12)
    }
}
