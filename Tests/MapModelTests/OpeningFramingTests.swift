import XCTest
import ClusterCore
@testable import MapModel

/// How data opens (`Camera.framing`): at the zoom where it fits, capped one level past where it
/// stops splitting (never below zoom 14), centred in the part of the view the chrome leaves free.
final class OpeningFramingTests: XCTestCase {
    let lisbon = GeoBounds(west: -9.1432, south: 38.7083, east: -9.1331, north: 38.7163)

    func testDataOpensAtTheZoomWhereItFitsNotAtAFixedCap() {
        let cam = Fixture.camera(zoom: 2)
        let fit = cam.zoomToFit(lisbon, paddingPixels: 60)
        XCTAssertGreaterThan(fit, 15.5, "the stays fit at about 16")
        let view = cam.framing(lisbon, splitZoom: 16, paddingPixels: 60)
        XCTAssertEqual(view.zoom, fit, accuracy: 1e-9, "the split cap (17) does not bind")
        XCTAssertEqual(cam.framing(lisbon, splitZoom: 15, paddingPixels: 60).zoom, 16, "one past a split at 15 binds")
        for c in [GeoCoordinate(latitude: lisbon.north, longitude: lisbon.west), GeoCoordinate(latitude: lisbon.south, longitude: lisbon.east)] {
            let p = view.screenPoint(for: c)
            XCTAssertTrue(p.x >= 60 - 1e-6 && p.x <= 1024 - 60 + 1e-6 && p.y >= 60 - 1e-6 && p.y <= 768 - 60 + 1e-6)
        }
    }

    func testTheCapIsOneLevelPastTheSplitAndNeverBelowFourteen() {
        let cam = Fixture.camera(zoom: 2)
        XCTAssertEqual(Camera.openingZoomCap(splitZoom: 15), 16)
        XCTAssertEqual(Camera.openingZoomCap(splitZoom: 3), 14)
        XCTAssertEqual(Camera.openingZoomCap(splitZoom: nil), 14)
        // Places a few metres apart that stop splitting at 16 open at 17, not at the camera's 18.
        let tiny = GeoBounds(west: 2.35, south: 48.85, east: 2.3501, north: 48.8501)
        XCTAssertGreaterThan(cam.zoomToFit(tiny, paddingPixels: 60), 18)
        XCTAssertEqual(cam.framing(tiny, splitZoom: 16).zoom, 17)
        XCTAssertEqual(cam.framing(tiny, splitZoom: 40).zoom, cam.maxZoom, "never past the camera's limit")
        // One place (nothing to split) opens at 14.
        let one = GeoBounds(west: 2.35, south: 48.85, east: 2.35, north: 48.85)
        XCTAssertEqual(cam.framing(one, splitZoom: 0).zoom, 14)
    }

    func testTheDataIsCentredInTheFreePart() {
        let cam = Fixture.camera(zoom: 2)
        let insets = ScreenInsets(top: 100, left: 300, bottom: 0, right: 0)
        let view = cam.framing(lisbon, splitZoom: 16, paddingPixels: 60, insets: insets)
        let nw = view.screenPoint(for: GeoCoordinate(latitude: lisbon.north, longitude: lisbon.west))
        let se = view.screenPoint(for: GeoCoordinate(latitude: lisbon.south, longitude: lisbon.east))
        XCTAssertEqual((nw.x + se.x) / 2, 300 + (1024 - 300) / 2, accuracy: 1e-6)
        XCTAssertEqual((nw.y + se.y) / 2, 100 + (768 - 100) / 2, accuracy: 1e-6)
        XCTAssertGreaterThanOrEqual(nw.x, 300 + 60 - 1e-6, "clear of the left panel")
        XCTAssertGreaterThanOrEqual(nw.y, 100 + 60 - 1e-6, "clear of the header")
        XCTAssertLessThan(view.zoom, cam.framing(lisbon, splitZoom: 16, paddingPixels: 60).zoom, "less room, a shallower fit")
    }
}
