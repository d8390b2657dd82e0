import ClusterCore
import XCTest
@testable import PostGIS

/// The window's choice of views to ask a table for (no server needed).
final class PostGISViewPlannerTests: XCTestCase {
    private func box(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> GeoBounds {
        GeoBounds(west: w, south: s, east: e, north: n)
    }

    func testTheAskedForBoxHoldsTheVisibleOneAndEndsOnTileEdges() {
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let z = Double.random(in: 0...18, using: &rng)
            let width = 360 / pow(2, z) * Double.random(in: 1...5, using: &rng)
            let west = Double.random(in: -200...170, using: &rng)
            let south = Double.random(in: -85...80, using: &rng)
            let visible = box(west, south, west + width, min(85, south + width / 2))
            let view = PostGISViewPlanner.view(visible: visible, zoom: z)
            XCTAssertEqual(view.zoom, Int(z.rounded(.down)))
            XCTAssertTrue(PostGISViewPlanner.box(view.bounds, covers: visible), "\(view.bounds) misses \(visible) at \(z)")
            let tiles = Double(1 << view.zoom)
            if !view.bounds.coversAllLongitudes {
                for lon in [view.bounds.west, view.bounds.east] {
                    let t = WebMercator.x(longitude: lon) * tiles
                    XCTAssertEqual(t, t.rounded(), accuracy: 1e-6, "longitude \(lon) is not a tile edge at \(view.zoom)")
                }
                // At least a tile of margin on each side (a small pan needs no query).
                XCTAssertLessThanOrEqual(WebMercator.x(longitude: view.bounds.west) * tiles,
                                         (WebMercator.x(longitude: visible.west) * tiles).rounded(.down) - 1 + 1e-9)
            }
            for lat in [view.bounds.south, view.bounds.north] where abs(lat) < 90 {
                let t = WebMercator.y(latitude: lat) * tiles
                XCTAssertEqual(t, t.rounded(), accuracy: 1e-6, "latitude \(lat) is not a tile edge at \(view.zoom)")
            }
        }
    }

    func testSmallPansAndZoomsWithinAWholeZoomAskNothingNew() {
        var planner = PostGISViewPlanner()
        let paris = box(2.0, 48.6, 2.7, 49.0)
        let first = planner.viewToRequest(visible: paris, zoom: 10.2)
        XCTAssertNotNil(first)
        XCTAssertNil(planner.viewToRequest(visible: box(2.05, 48.62, 2.75, 49.02), zoom: 10.2), "a small pan")
        XCTAssertNil(planner.viewToRequest(visible: box(2.1, 48.7, 2.6, 48.95), zoom: 10.8), "zooming in within zoom 10")
        let deeper = planner.viewToRequest(visible: box(2.2, 48.75, 2.5, 48.9), zoom: 11.0)
        XCTAssertEqual(deeper?.zoom, 11)
        let far = planner.viewToRequest(visible: box(12.3, 41.7, 12.6, 41.95), zoom: 11.0)
        XCTAssertNotNil(far, "Rome after Paris")
        planner.reset()
        XCTAssertEqual(planner.viewToRequest(visible: box(12.3, 41.7, 12.6, 41.95), zoom: 11.0), far,
                       "after a reset the same place asks again, for the same box (the queue's cache answers)")
    }

    func testComingBackAsksForTheSameBox() {
        let a = PostGISViewPlanner.view(visible: box(-74.1, 40.6, -73.8, 40.85), zoom: 11.4)
        let b = PostGISViewPlanner.view(visible: box(-74.1001, 40.6001, -73.8001, 40.8501), zoom: 11.9)
        XCTAssertEqual(a, b)
    }

    func testWorldZoomsAskForTheWholeWorldAndTheAntimeridianIsKept() {
        XCTAssertEqual(PostGISViewPlanner.view(visible: box(-250, -80, 250, 80), zoom: 1.3).bounds, .world)
        XCTAssertEqual(PostGISViewPlanner.view(visible: box(-180, -85, 180, 85), zoom: 2).bounds.west, -180)
        XCTAssertEqual(PostGISViewPlanner.view(visible: box(.nan, 0, 1, 1), zoom: 4).bounds, .world)
        // Across 180°: the box runs past it, and the query boxes split there.
        let view = PostGISViewPlanner.view(visible: box(175, -20, 185, -10), zoom: 6)
        XCTAssertGreaterThan(view.bounds.east, 180)
        var parts: [GeoBounds] = []
        view.bounds.forEachQueryBox { parts.append(GeoBounds(west: $0, south: $1, east: $2, north: $3)) }
        XCTAssertEqual(parts.count, 2)
        XCTAssertTrue(parts.contains { $0.east == 180 } && parts.contains { $0.west == -180 })
    }
}
