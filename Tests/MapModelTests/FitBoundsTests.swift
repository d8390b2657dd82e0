import XCTest
import ClusterCore
@testable import MapModel

final class FitBoundsTests: XCTestCase {
    func corners(_ b: GeoBounds) -> [GeoCoordinate] {
        [GeoCoordinate(latitude: b.north, longitude: b.west), GeoCoordinate(latitude: b.north, longitude: b.east),
         GeoCoordinate(latitude: b.south, longitude: b.west), GeoCoordinate(latitude: b.south, longitude: b.east)]
    }

    func assertFits(_ b: GeoBounds, in cam: Camera, padding: Double, file: StaticString = #filePath, line: UInt = #line) {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for c in corners(b) {
            let p = cam.screenPoint(for: c)
            minX = min(minX, p.x); maxX = max(maxX, p.x); minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let w = cam.viewportSize.width, h = cam.viewportSize.height
        XCTAssertGreaterThanOrEqual(minX, padding - 1e-6, file: file, line: line)
        XCTAssertLessThanOrEqual(maxX, w - padding + 1e-6, file: file, line: line)
        XCTAssertGreaterThanOrEqual(minY, padding - 1e-6, file: file, line: line)
        XCTAssertLessThanOrEqual(maxY, h - padding + 1e-6, file: file, line: line)
        // Tight on one axis: the fit does not leave needless room.
        let tight = min(abs(minX - padding) + abs(w - padding - maxX), abs(minY - padding) + abs(h - padding - maxY))
        XCTAssertLessThan(tight, 1e-6, file: file, line: line)
        // Centred on both axes.
        XCTAssertEqual(minX + maxX, w, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(minY + maxY, h, accuracy: 1e-6, file: file, line: line)
    }

    func testFitsABoxWithPadding() {
        let cam = Fixture.camera(zoom: 2)
        let spain = GeoBounds(west: -9.3, south: 36.0, east: 3.3, north: 43.8)
        let fit = cam.fitting(spain, paddingPixels: 40)
        assertFits(spain, in: fit, padding: 40)
        XCTAssertEqual(fit.viewportSize, cam.viewportSize)
        let tall = GeoBounds(west: 10, south: -30, east: 11, north: 30)
        assertFits(tall, in: cam.fitting(tall, paddingPixels: 20), padding: 20)
    }

    func testFitsABoxAcrossTheAntimeridian() {
        let cam = Fixture.camera(zoom: 1)
        let fiji = GeoBounds(west: 176, south: -20, east: -178, north: -15)
        let fit = cam.fitting(fiji, paddingPixels: 30)
        XCTAssertGreaterThan(abs(fit.center.longitude), 176)
        XCTAssertGreaterThan(fit.zoom, 5) // 6° wide, not 354°
        assertFits(fiji, in: fit, padding: 30)
    }

    func testAPointGoesNoDeeperThanAllowed() {
        let cam = Fixture.camera(zoom: 3)
        let point = GeoBounds(west: 2, south: 41, east: 2, north: 41)
        XCTAssertEqual(cam.zoomToFit(point), .infinity)
        XCTAssertEqual(cam.fitting(point).zoom, 18)
        XCTAssertEqual(cam.fitting(point, maxZoom: 14).zoom, 14)
        XCTAssertEqual(cam.fitting(point).center.latitude, 41, accuracy: 1e-9)
    }

    func testFittingTheWholeWorldNeverShowsItTwice() {
        // A global file (points from −180° to 180°, ±80°) used to fit at zoom 1.65 in a wide
        // window, showing every cluster twice side by side.
        let wide = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 5,
                          viewportSize: ScreenSize(width: 1280, height: 740))
        let world = GeoBounds(west: -180, south: -80, east: 180, north: 80)
        let fit = wide.fitting(world, paddingPixels: 60, maxZoom: 14)
        XCTAssertEqual(fit.zoom, log2(1280.0 / 256), accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(256 * pow(2, fit.zoom), 1280 - 1e-6, "the world is at least as wide as the view")
        // A narrow window fits the same box at a shallower zoom; still the world fills the width.
        let narrow = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 5,
                            viewportSize: ScreenSize(width: 360, height: 700))
        XCTAssertEqual(narrow.fitting(world, paddingPixels: 60).zoom, log2(360.0 / 256), accuracy: 1e-9)
    }
}
