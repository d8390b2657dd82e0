import XCTest
import ClusterCore
@testable import AppSupport

/// Issue 32 item 8: a tile file whose area is off screen is named with what it covers.
final class TileAreaNoticeTests: XCTestCase {
    let leipzig = GeoBounds(west: 12.3, south: 51.29, east: 12.45, north: 51.38)

    func testAFileOutsideTheViewIsDescribed() {
        let lisbon = GeoBounds(west: -9.2, south: 38.69, east: -9.1, north: 38.75)
        let text = TileAreaNotice.text(name: "leipzig.mbtiles", area: leipzig, minZoom: 0, maxZoom: 14, view: lisbon)
        XCTAssertEqual(text, "leipzig.mbtiles covers 51.29–51.38° N, 12.30–12.45° E (zoom 0–14), outside this view.")
    }

    func testAFileInViewSaysNothing() {
        let europe = GeoBounds(west: -10, south: 35, east: 30, north: 60)
        XCTAssertNil(TileAreaNotice.text(name: "x", area: leipzig, minZoom: 0, maxZoom: 14, view: europe))
        // Partly in view is in view.
        let edge = GeoBounds(west: 12.4, south: 51.0, east: 13, north: 51.3)
        XCTAssertTrue(TileAreaNotice.overlaps(leipzig, edge))
    }

    func testTheAntimeridianAndBothHemispheres() {
        let fiji = GeoBounds(west: 177, south: -19, east: -179, north: -16)
        XCTAssertTrue(TileAreaNotice.overlaps(fiji, GeoBounds(west: -179.5, south: -18, east: -179.2, north: -17)))
        XCTAssertFalse(TileAreaNotice.overlaps(fiji, GeoBounds(west: 0, south: -18, east: 10, north: -17)))
        let text = TileAreaNotice.text(name: "fiji", area: fiji, minZoom: 2, maxZoom: 9, view: GeoBounds(west: 0, south: 0, east: 1, north: 1))
        XCTAssertEqual(text, "fiji covers 19.0–16.0° S, 177.0° E–179.0° W (zoom 2–9), outside this view.")
    }
}
