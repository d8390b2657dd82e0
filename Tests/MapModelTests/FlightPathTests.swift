import XCTest
import ClusterCore
@testable import MapModel

final class FlightPathTests: XCTestCase {
    /// Start: zoom 2 at (0, 0); target: zoom 5 at (0, 90°E) — in zoom-0 world pixels c0 = (128, 128),
    /// c1 = (192, 128), so u1 = 64, w0 = 1024/4 = 256, w1 = 1024/32 = 32.
    let start = Fixture.camera(lat: 0, lon: 0, zoom: 2)
    let target = Fixture.camera(lat: 0, lon: 90, zoom: 5)

    func testEndpointsAreExact() {
        let f = FlightPath(from: start, to: target)
        XCTAssertFalse(f.isJump)
        XCTAssertEqual(f.camera(at: 0), start)
        XCTAssertEqual(f.camera(at: f.duration), target)
        XCTAssertEqual(f.camera(at: f.duration + 10), target)
        XCTAssertEqual(f.camera(at: -1), start)
        XCTAssertFalse(f.isFinished(at: f.duration * 0.99))
        XCTAssertTrue(f.isFinished(at: f.duration))
        // Just inside the ends the camera is already (almost) there: no jump at the end.
        let nearEnd = f.camera(at: f.duration * 0.999)
        XCTAssertEqual(nearEnd.zoom, target.zoom, accuracy: 1e-3)
        XCTAssertEqual(nearEnd.center.longitude, 90, accuracy: 1e-3)
    }

    func testDurationMatchesTheSpecFormulaByHand() {
        let rho = 1.42, u1 = 64.0, w0 = 256.0, w1 = 32.0
        func r(_ i: Int) -> Double {
            let wi = i == 0 ? w0 : w1
            let sign: Double = i == 0 ? 1 : -1
            let b = (w1 * w1 - w0 * w0 + sign * pow(rho, 4) * u1 * u1) / (2 * wi * rho * rho * u1)
            return log((b * b + 1).squareRoot() - b)
        }
        let s = (r(1) - r(0)) / rho
        let f = FlightPath(from: start, to: target)
        XCTAssertEqual(f.pathLength, s, accuracy: 1e-12)
        XCTAssertEqual(f.duration, s / 1.2, accuracy: 1e-12)
        XCTAssertEqual(f.duration, 1.355, accuracy: 0.01) // from the numbers worked out on paper
    }

    func testCurvatureSetsHowFarAPanZoomsOut() {
        // A pure pan at zoom 4 over u1 = 40 world px: the widest view is mid-way, at
        // w0·cosh(r0) = w0·√(1 + (ρ²u1 / 2w0)²).
        let a = Fixture.camera(lat: 0, lon: 0, zoom: 4)
        let b = Fixture.camera(lat: 0, lon: 40.0 / 256 * 360, zoom: 4)
        for rho in [FlightPath.curvature, 2.0] {
            let f = FlightPath(from: a, to: b, curvature: rho)
            let w0 = 1024.0 / 16
            let k = rho * rho * 40 / (2 * w0)
            let widest = w0 * (1 + k * k).squareRoot()
            let mid = f.camera(at: f.duration / 2)
            XCTAssertEqual(mid.zoom, log2(1024 / widest), accuracy: 1e-9, "ρ = \(rho)")
        }
        XCTAssertEqual(FlightPath.curvature, 1.42)
        XCTAssertEqual(FlightPath.speedScreenfulsPerSecond, 1.2)
    }

    func testProgressIsMonotone() {
        let f = FlightPath(from: start, to: target)
        var lastS = -1.0, lastFraction = -1.0
        for i in 0...200 {
            let t = f.duration * Double(i) / 200
            let s = f.arcLength(at: t), fr = f.panFraction(at: t)
            XCTAssertGreaterThanOrEqual(s, lastS)
            XCTAssertGreaterThanOrEqual(fr, lastFraction - 1e-12)
            lastS = s; lastFraction = fr
        }
        XCTAssertEqual(lastFraction, 1, accuracy: 1e-9)
    }

    func testPureZoomKeepsTheCentreAndZoomsMonotonically() {
        let a = Fixture.camera(lat: 40, lon: -3, zoom: 3)
        let b = Fixture.camera(lat: 40, lon: -3, zoom: 6)
        let f = FlightPath(from: a, to: b)
        XCTAssertEqual(f.pathLength, log(8) / 1.42, accuracy: 1e-12)
        XCTAssertEqual(f.duration, log(8) / 1.42 / 1.2, accuracy: 1e-12)
        var last = a.zoom
        for i in 1...50 {
            let c = f.camera(at: f.duration * Double(i) / 50)
            XCTAssertGreaterThanOrEqual(c.zoom, last)
            XCTAssertEqual(c.center.latitude, 40, accuracy: 1e-9)
            XCTAssertEqual(c.center.longitude, -3, accuracy: 1e-9)
            last = c.zoom
        }
        // Zooming out is the mirror image.
        let back = FlightPath(from: b, to: a)
        XCTAssertEqual(back.duration, f.duration, accuracy: 1e-12)
        XCTAssertEqual(back.camera(at: back.duration / 2).zoom, 4.5, accuracy: 1e-9)
    }

    func testIdenticalCamerasFinishAtOnce() {
        let f = FlightPath(from: start, to: start)
        XCTAssertEqual(f.duration, 0)
        XCTAssertTrue(f.isFinished(at: 0))
        XCTAssertEqual(f.camera(at: 0), start)
    }

    func testFlightCrossesTheAntimeridianTheShortWay() {
        let a = Fixture.camera(lat: 10, lon: 170, zoom: 4)
        let b = Fixture.camera(lat: 10, lon: -170, zoom: 4)
        let f = FlightPath(from: a, to: b)
        // 20° at zoom 4 is a third of a screen; going the long way (340°) would take far longer.
        XCTAssertLessThan(f.duration, 1)
        for i in 0...40 {
            let lon = f.camera(at: f.duration * Double(i) / 40).center.longitude
            XCTAssertGreaterThanOrEqual(abs(lon), 170 - 1e-9, "t step \(i): \(lon)")
        }
        XCTAssertEqual(f.camera(at: f.duration), b)
    }

    func testLongFlightBecomesAJumpWithACrossFade() {
        let a = Fixture.camera(lat: 0, lon: 0, zoom: 2)
        let b = Fixture.camera(lat: 35.68, lon: 139.69, zoom: 16)
        let f = FlightPath(from: a, to: b)
        XCTAssertTrue(f.isJump)
        XCTAssertEqual(f.style, .jump(crossFadeSeconds: FlightPath.jumpCrossFadeSeconds))
        XCTAssertEqual(f.duration, 0.15)
        XCTAssertGreaterThan(f.pathLength / FlightPath.speedScreenfulsPerSecond, FlightPath.maxDurationSeconds)
        XCTAssertEqual(f.camera(at: 0), b)
        XCTAssertEqual(f.crossFadeOpacity(at: 0), 1)
        XCTAssertEqual(f.crossFadeOpacity(at: 0.075), 0.5, accuracy: 1e-12)
        XCTAssertEqual(f.crossFadeOpacity(at: 0.15), 0)
        // With no cross-fade it is a plain cut.
        let cut = FlightPath(from: a, to: b, crossFadeSeconds: 0)
        XCTAssertEqual(cut.duration, 0)
        XCTAssertTrue(cut.isFinished(at: 0))
    }

    func testInterruptionReturnsTheIntermediateCamera() {
        let f = FlightPath(from: start, to: target)
        let anim = CameraAnimation(.flight(f), purpose: .flight, startTime: 100)
        let now = 100 + f.duration * 0.4
        let mid = anim.interrupt(at: now)
        XCTAssertEqual(mid, f.camera(at: now - 100))
        XCTAssertNotEqual(mid, start)
        XCTAssertNotEqual(mid, target)
        XCTAssertGreaterThan(mid.center.longitude, 0)
        XCTAssertLessThan(mid.center.longitude, 90)

        var controller = CameraController(camera: start)
        controller.apply(.animate(anim), at: 100)
        XCTAssertTrue(controller.isAnimating)
        let ctx = controller.interrupt(at: now)
        XCTAssertEqual(ctx.camera, mid)
        XCTAssertEqual(controller.camera, mid)
        XCTAssertFalse(controller.isAnimating)
        XCTAssertEqual(ctx.interrupted?.purpose, .flight)
    }

    func testControllerRunsAFlightToItsExactEnd() {
        var controller = CameraController(camera: start)
        let anim = CameraAnimation(.flight(FlightPath(from: start, to: target)), purpose: .flight, startTime: 5)
        XCTAssertNotNil(controller.apply(.animate(anim), at: 5))
        XCTAssertEqual(controller.camera, start)
        let mid = controller.advance(to: 5.5)
        XCTAssertTrue(mid.isAnimating)
        XCTAssertNil(mid.finished)
        let end = controller.advance(to: 5 + anim.duration + 0.016)
        XCTAssertFalse(end.isAnimating)
        XCTAssertEqual(end.finished?.purpose, .flight)
        XCTAssertEqual(end.camera, target)
        XCTAssertEqual(controller.camera, target)
    }
}
