import XCTest
import ClusterCore
@testable import MapModel

final class KineticPanTests: XCTestCase {
    /// A steady drag of 10 px every 10 ms along x (1000 px/s), ending at `end` seconds.
    func steadySamples(until end: Double = 0.2) -> [KineticPan.Sample] {
        stride(from: 0.0, through: end + 1e-9, by: 0.01).map {
            KineticPan.Sample(time: $0, position: ScreenPoint(x: $0 * 1000, y: 0))
        }
    }

    func testReleaseVelocityUsesTheLastSamples() {
        var samples = steadySamples()
        // A slow start long before release must not drag the estimate down.
        samples.insert(KineticPan.Sample(time: -1, position: ScreenPoint(x: -5, y: 0)), at: 0)
        let v = KineticPan.velocity(of: samples, at: 0.2)
        XCTAssertEqual(v.x, 1000, accuracy: 1e-6)
        XCTAssertEqual(v.y, 0, accuracy: 1e-9)
    }

    func testPausingBeforeReleaseMeansNoThrow() {
        var samples = steadySamples(until: 0.2)
        samples.append(KineticPan.Sample(time: 0.5, position: ScreenPoint(x: 200, y: 0)))
        XCTAssertEqual(KineticPan.velocity(of: samples, at: 0.5), .zero)
        XCTAssertNil(KineticPan(samples: samples, releaseTime: 0.5, reducedMotion: false))
    }

    func testDecayIsMonotoneAndStops() throws {
        let pan = try XCTUnwrap(KineticPan(samples: steadySamples(), releaseTime: 0.2, reducedMotion: false))
        let k = KineticPan.decayRatePerSecond
        XCTAssertEqual(pan.duration, log(1000 / KineticPan.stopSpeedPixelsPerSecond) / k, accuracy: 1e-12)
        var lastOffset = 0.0, lastSpeed = Double.infinity
        for i in 0...100 {
            let t = pan.duration * 1.2 * Double(i) / 100
            let o = pan.offset(at: t).x, s = pan.speed(at: t)
            XCTAssertGreaterThanOrEqual(o, lastOffset)
            XCTAssertLessThanOrEqual(s, lastSpeed)
            lastOffset = o; lastSpeed = s
        }
        XCTAssertTrue(pan.isFinished(at: pan.duration))
        XCTAssertEqual(pan.speed(at: pan.duration), 0)
        XCTAssertEqual(pan.offset(at: pan.duration + 5), pan.offset(at: pan.duration))
        // Total travel is v0/k up to the cut-off: 1000/4 · (1 − 10/1000).
        XCTAssertEqual(pan.offset(at: 100).x, 250 * 0.99, accuracy: 1e-9)
        XCTAssertEqual(pan.offset(at: 0), .zero)
    }

    func testSpeedIsCappedAndSlowReleasesDoNotCoast() throws {
        let fast = try XCTUnwrap(KineticPan(velocity: ScreenPoint(x: 30_000, y: 40_000)))
        XCTAssertEqual(fast.velocity.x, 1800, accuracy: 1e-9)
        XCTAssertEqual(fast.velocity.y, 2400, accuracy: 1e-9)
        XCTAssertNil(KineticPan(velocity: ScreenPoint(x: 30, y: 0)))
        XCTAssertNil(KineticPan(velocity: ScreenPoint(x: .nan, y: 0)))
    }

    func testReducedMotionDisablesInertia() {
        XCTAssertNil(KineticPan(samples: steadySamples(), releaseTime: 0.2, reducedMotion: true))
        // The controller drops a throw too, whoever built it.
        let cam = Fixture.camera(zoom: 5)
        let pan = KineticPan(velocity: ScreenPoint(x: 1000, y: 0))!
        var controller = CameraController(camera: cam, motionPolicy: MotionPolicy(commandLineFlag: true))
        XCTAssertNil(controller.apply(.animate(CameraAnimation(.kinetic(pan, from: cam), purpose: .kinetic,
                                                                 startTime: 0)), at: 0))
        XCTAssertFalse(controller.isAnimating)
        XCTAssertEqual(controller.camera, cam)
    }

    func testKineticAnimationMovesTheCameraWithTheThrow() {
        let cam = Fixture.camera(lat: 20, lon: 10, zoom: 5)
        let pan = KineticPan(velocity: ScreenPoint(x: 800, y: 0))!
        let anim = CameraAnimation(.kinetic(pan, from: cam), purpose: .kinetic, startTime: 1)
        let later = anim.camera(at: 1.1)
        // Content moves right, so the view looks further west.
        XCTAssertLessThan(later.center.longitude, 10)
        XCTAssertEqual(anim.camera(at: 1 + anim.duration), anim.target)
        XCTAssertEqual(anim.target, cam.panned(by: pan.offset(at: pan.duration).x, 0))
    }
}
