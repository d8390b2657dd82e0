import XCTest
import ClusterCore
@testable import MapModel

/// Flights a little longer than the cap still fly, sped up to end at the cap.
final class FlightCapTests: XCTestCase {
    func testModeratelyLongFlightIsCompressedToTheCap() {
        // World view to a city: S/V ≈ 3.5 s, between the cap and twice the cap.
        let a = Fixture.camera(lat: 20, lon: 0, zoom: 2.3)
        let b = Fixture.camera(lat: 40.42, lon: -3.70, zoom: 11)
        let f = FlightPath(from: a, to: b)
        let natural = f.pathLength / FlightPath.speedScreenfulsPerSecond
        XCTAssertGreaterThan(natural, FlightPath.maxDurationSeconds)
        XCTAssertLessThanOrEqual(natural, FlightPath.maxDurationSeconds * FlightPath.compressibleFactor)
        XCTAssertFalse(f.isJump)
        XCTAssertEqual(f.duration, FlightPath.maxDurationSeconds)
        XCTAssertEqual(f.camera(at: 0), a)
        XCTAssertEqual(f.camera(at: f.duration), b)
        // Halfway it is really in between (zoomed out above the straight line, as van Wijk does).
        let mid = f.camera(at: f.duration / 2)
        XCTAssertLessThan(mid.zoom, b.zoom)
        XCTAssertGreaterThan(mid.center.latitude, a.center.latitude)
    }

    /// One click on the Madrid bubble at world view goes to street level (issue 12 item 2): that
    /// flight still flies (sped up to the cap), it does not cut.
    func testWorldToStreetFromOneClickStillFlies() {
        let a = Fixture.camera(lat: 20, lon: 0, zoom: 2.32)
        let b = Fixture.camera(lat: 40.42, lon: -3.70, zoom: 12.8)
        let f = FlightPath(from: a, to: b)
        XCTAssertFalse(f.isJump)
        XCTAssertEqual(f.duration, FlightPath.maxDurationSeconds)
        // A flight across the world to a street far away is still a jump.
        XCTAssertTrue(FlightPath(from: Fixture.camera(lat: 0, lon: -150, zoom: 17), to: Fixture.camera(lat: 0, lon: 150, zoom: 18)).isJump)
    }
}
