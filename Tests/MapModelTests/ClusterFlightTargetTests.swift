import XCTest
import ClusterCore
@testable import MapModel

final class ClusterFlightTargetTests: XCTestCase {
    /// Members spread over a box of `degrees` around (lat, lon).
    func members(lat: Double, lon: Double, degrees: Double) -> [GeoCoordinate] {
        [GeoCoordinate(latitude: lat - degrees / 2, longitude: lon - degrees / 2),
         GeoCoordinate(latitude: lat + degrees / 2, longitude: lon + degrees / 2),
         GeoCoordinate(latitude: lat, longitude: lon + degrees / 4)]
    }

    func assertAllVisible(_ coords: [GeoCoordinate], in cam: Camera, file: StaticString = #filePath, line: UInt = #line) {
        for c in coords {
            let p = cam.screenPoint(for: c)
            XCTAssertTrue(ScreenRect(x: 0, y: 0, width: cam.viewportSize.width, height: cam.viewportSize.height)
                .contains(p), "\(c) at \(p)", file: file, line: line)
        }
    }

    func testOneClickGoesToTheDeepestZoomWhereAllMembersFitWithTheMargin() throws {
        let cam = Fixture.camera(lat: 0, lon: 0, zoom: 4)
        let m = members(lat: 40, lon: -3, degrees: 0.5)
        let t = try XCTUnwrap(ClusterFlightTarget(from: cam, expansionZoom: 6, members: m))
        XCTAssertEqual(t.zoomRule, .fitMembers)
        XCTAssertGreaterThan(t.camera.zoom, 9.5, "far deeper than the expansion zoom: one click reveals the members")
        let b = try XCTUnwrap(ClusterFlightTarget.bounds(enclosing: m))
        let centre = Camera.center(of: b)
        XCTAssertEqual(t.camera.center.latitude, centre.latitude, accuracy: 1e-9)
        XCTAssertEqual(t.camera.center.longitude, centre.longitude, accuracy: 1e-9)
        assertAllVisible(m, in: t.camera)
        // The members' span is exactly 1/1.8 of the view on the tighter axis: the deepest such zoom.
        let sw = t.camera.screenPoint(for: GeoCoordinate(latitude: b.south, longitude: b.west))
        let ne = t.camera.screenPoint(for: GeoCoordinate(latitude: b.north, longitude: b.east))
        let fraction = max((ne.x - sw.x) / t.camera.viewportSize.width, (sw.y - ne.y) / t.camera.viewportSize.height)
        XCTAssertEqual(fraction, 1 / ClusterFlightTarget.spanMargin, accuracy: 1e-6)
    }

    func testNeverShallowerThanTheExpansionZoom() throws {
        // Members too wide to fit at the zoom where the bubble splits: go there anyway.
        let cam = Fixture.camera(lat: 0, lon: 0, zoom: 2)
        let m = members(lat: 45, lon: 10, degrees: 20)
        let t = try XCTUnwrap(ClusterFlightTarget(from: cam, expansionZoom: 6, members: m))
        XCTAssertEqual(t.zoomRule, .expansionZoom)
        XCTAssertEqual(t.camera.zoom, 6)
    }

    func testAlwaysDeeperThanNow() throws {
        // Members far too wide for the current zoom, splitting at it: still zoom in a little.
        let cam = Fixture.camera(lat: 0, lon: 0, zoom: 5)
        let m = members(lat: 10, lon: 10, degrees: 40)
        let t = try XCTUnwrap(ClusterFlightTarget(from: cam, expansionZoom: 5, members: m))
        XCTAssertEqual(t.zoomRule, .minimumGain)
        XCTAssertEqual(t.camera.zoom, 5 + ClusterFlightTarget.minimumZoomGainLevels, accuracy: 1e-12)
    }

    func testClampedToTheMaximumZoom() throws {
        let cam = Fixture.camera(lat: 0, lon: 0, zoom: 17.8)
        let m = members(lat: 0, lon: 0, degrees: 0)
        let t = try XCTUnwrap(ClusterFlightTarget(from: cam, expansionZoom: 19, members: m))
        XCTAssertEqual(t.zoomRule, .maxZoom)
        XCTAssertEqual(t.camera.zoom, 18)
    }

    func testMembersAcrossTheAntimeridian() throws {
        let m = [GeoCoordinate(latitude: -17, longitude: 179), GeoCoordinate(latitude: -18, longitude: -179.5),
                 GeoCoordinate(latitude: -16.5, longitude: 178.5)]
        let b = try XCTUnwrap(ClusterFlightTarget.bounds(enclosing: m))
        XCTAssertEqual(b.west, 178.5)
        XCTAssertEqual(b.east, -179.5)
        XCTAssertTrue(b.crossesAntimeridian)
        let cam = Fixture.camera(lat: -17, lon: 179, zoom: 3)
        let t = try XCTUnwrap(ClusterFlightTarget(from: cam, expansionZoom: 7, members: m))
        XCTAssertGreaterThan(abs(t.camera.center.longitude), 178.5)
        assertAllVisible(m, in: t.camera)
        XCTAssertNil(ClusterFlightTarget.bounds(enclosing: []))
    }

    func testBoundsDoNotCrossWhenTheyNeedNot() throws {
        let m = [GeoCoordinate(latitude: 0, longitude: -170), GeoCoordinate(latitude: 0, longitude: 170),
                 GeoCoordinate(latitude: 0, longitude: 0), GeoCoordinate(latitude: 0, longitude: 60)]
        let b = try XCTUnwrap(ClusterFlightTarget.bounds(enclosing: m))
        // Gaps: −170…0 is 170°, 0…60 is 60°, 60…170 is 110°, 170…190 is 20°: the box is the
        // circle minus the largest, running from 0 east across 180° to −170.
        XCTAssertEqual(b.west, 0)
        XCTAssertEqual(b.east, -170)
        XCTAssertTrue(b.crossesAntimeridian)
        let plain = try XCTUnwrap(ClusterFlightTarget.bounds(enclosing: [GeoCoordinate(latitude: 1, longitude: 5),
                                                                        GeoCoordinate(latitude: 2, longitude: 8)]))
        XCTAssertEqual(plain, GeoBounds(west: 5, south: 1, east: 8, north: 2))
    }

    func testClickingABubbleFliesToTheTargetAndLandsExactly() throws {
        var controller = CameraController(camera: Fixture.camera(lat: 30, lon: 0, zoom: 3))
        let m = members(lat: 40.4, lon: -3.7, degrees: 1)
        let ctx = controller.interrupt(at: 10)
        let target = try XCTUnwrap(ClusterFlightTarget(from: ctx.camera, expansionZoom: 6, members: m)).camera
        let started = try XCTUnwrap(controller.apply(.fly(to: target, in: ctx), at: 10))
        XCTAssertEqual(started.purpose, .flight)
        var frames = 0
        var t = 10.0
        while controller.isAnimating {
            t += 1.0 / 60
            frames += 1
            _ = controller.advance(to: t)
        }
        XCTAssertGreaterThan(frames, 10)
        XCTAssertEqual(controller.camera, target)
        assertAllVisible(m, in: controller.camera)
    }
}
