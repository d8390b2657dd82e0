import XCTest
import ClusterCore
@testable import MapModel

final class CameraTests: XCTestCase {
    let size = ScreenSize(width: 1280, height: 800)

    func testCentreMapsToViewportCentre() {
        let cam = Camera(center: GeoCoordinate(latitude: 48.85, longitude: 2.35), zoom: 5, viewportSize: size)
        let p = cam.screenPoint(for: cam.center)
        XCTAssertEqual(p.x, 640, accuracy: 1e-9)
        XCTAssertEqual(p.y, 400, accuracy: 1e-9)
    }

    func testRoundTripPixelCoordinate() {
        let cam = Camera(center: GeoCoordinate(latitude: 40, longitude: -3), zoom: 7.3, viewportSize: size)
        for p in [ScreenPoint(x: 0, y: 0), ScreenPoint(x: 1280, y: 800), ScreenPoint(x: 311, y: 97)] {
            let c = cam.coordinate(at: p)
            let q = cam.screenPoint(for: c)
            XCTAssertEqual(q.x, p.x, accuracy: 1e-6)
            XCTAssertEqual(q.y, p.y, accuracy: 1e-6)
        }
    }

    func testPutCoordinateUnderPoint() {
        var cam = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 4, viewportSize: size)
        let lisbon = GeoCoordinate(latitude: 38.71, longitude: -9.14)
        cam.put(lisbon, under: ScreenPoint(x: 100, y: 700))
        let p = cam.screenPoint(for: lisbon)
        XCTAssertEqual(p.x, 100, accuracy: 1e-6)
        XCTAssertEqual(p.y, 700, accuracy: 1e-6)
    }

    func testZoomAroundPointKeepsItFixed() {
        var cam = Camera(center: GeoCoordinate(latitude: 50, longitude: 10), zoom: 4, viewportSize: size)
        let anchor = ScreenPoint(x: 900, y: 200)
        let before = cam.coordinate(at: anchor)
        cam.zoom(by: 1.5, around: anchor)
        XCTAssertEqual(cam.zoom, 5.5, accuracy: 1e-12)
        let after = cam.screenPoint(for: before)
        XCTAssertEqual(after.x, anchor.x, accuracy: 1e-6)
        XCTAssertEqual(after.y, anchor.y, accuracy: 1e-6)
    }

    func testZoomIsClamped() {
        var cam = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 17, viewportSize: size)
        cam.zoom(by: 5, around: ScreenPoint(x: 640, y: 400))
        XCTAssertEqual(cam.zoom, 18)
        cam.setZoom(-3)
        XCTAssertEqual(cam.zoom, 0)
    }

    func testPanEastPastAntimeridianWraps() {
        var cam = Camera(center: GeoCoordinate(latitude: 0, longitude: 179), zoom: 3, viewportSize: size)
        cam.pan(by: -2048.0 / 360 * 4, 0) // 4 degrees eastwards at z3 (world = 2048 px)
        XCTAssertEqual(cam.center.longitude, -177, accuracy: 1e-6)
        let b = cam.visibleBounds
        XCTAssertTrue(b.crossesAntimeridian)
    }

    func testScreenPointPicksNearestWorldCopy() {
        let cam = Camera(center: GeoCoordinate(latitude: 0, longitude: 179), zoom: 3, viewportSize: size)
        let p = cam.screenPoint(for: GeoCoordinate(latitude: 0, longitude: -179))
        XCTAssertEqual(p.x, 640 + 2048 * 2 / 360, accuracy: 1e-6)
    }

    func testLatitudeClampedAtWorldEdge() {
        let cam = Camera(center: GeoCoordinate(latitude: 85, longitude: 0), zoom: 3, viewportSize: size)
        // Top of the viewport must not go past the top of the world.
        let top = cam.screenPoint(for: GeoCoordinate(latitude: WebMercator.maxLatitude, longitude: 0))
        XCTAssertGreaterThanOrEqual(top.y, -1e-6)
    }

    func testVisibleBoundsOfWholeWorld() {
        let cam = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1, viewportSize: size)
        let b = cam.visibleBounds
        XCTAssertEqual(b.west, -180)
        XCTAssertEqual(b.east, 180)
    }

    func testMercatorRoundTrip() {
        for lat in stride(from: -85.0, through: 85.0, by: 8.5) {
            XCTAssertEqual(WebMercator.latitude(y: WebMercator.y(latitude: lat)), lat, accuracy: 1e-9)
        }
        XCTAssertEqual(WebMercator.y(latitude: 90), 0)
        XCTAssertEqual(WebMercator.y(latitude: -90), 1)
        XCTAssertEqual(WebMercator.x(longitude: -180), 0)
    }
}
