import XCTest
import ClusterCore
@testable import MapModel

final class MotionPolicyTests: XCTestCase {
    func testTruthTable() {
        // (toggle, flag, enable-animations, reduced-motion) → reduce?
        let rows: [(Bool?, Bool, Bool, Bool?, Bool)] = [
            (nil, false, true, nil, false),
            (nil, false, true, false, false),
            (nil, false, true, true, true),
            (nil, false, false, nil, true),
            (nil, false, false, false, true),
            (nil, true, true, nil, true),
            (nil, true, true, false, true),
            (true, false, true, nil, true),
            (true, false, true, false, true),
            (false, true, false, true, false),
            (false, false, true, nil, false),
        ]
        for (toggle, flag, anim, reduced, expected) in rows {
            let p = MotionPolicy(gtkEnableAnimations: anim, gtkInterfaceReducedMotion: reduced,
                                 userToggle: toggle, commandLineFlag: flag)
            XCTAssertEqual(p.prefersReducedMotion, expected, "\(toggle as Any) \(flag) \(anim) \(reduced as Any)")
            XCTAssertEqual(p.allowsKineticPan, !expected)
        }
        XCTAssertFalse(MotionPolicy().prefersReducedMotion)
    }

    func testReducedMotionTurnsFlightsIntoJumpsAndEasesIntoSets() {
        let a = Fixture.camera(lat: 0, lon: 0, zoom: 3)
        let b = Fixture.camera(lat: 40, lon: -3, zoom: 5)
        var controller = CameraController(camera: a, motionPolicy: MotionPolicy(gtkEnableAnimations: false))
        let flight = CameraAnimation(.flight(FlightPath(from: a, to: b)), purpose: .flight, startTime: 0)
        let started = controller.apply(.animate(flight), at: 0)
        guard case .flight(let f)? = started?.kind else { return XCTFail("a flight is still logged") }
        XCTAssertTrue(f.isJump)
        XCTAssertLessThanOrEqual(f.duration, 0.15)
        // No frame shows a camera between the two.
        for t in stride(from: 0.0, through: 0.2, by: 0.016) {
            XCTAssertEqual(controller.advance(to: t).camera, b)
        }
        XCTAssertFalse(controller.isAnimating)

        let wheel = WheelZoomHandler().scroll(notches: -1, at: ScreenPoint(x: 10, y: 10),
                                              in: controller.interrupt(at: 1))
        XCTAssertNil(controller.apply(wheel, at: 1))
        XCTAssertEqual(controller.camera.zoom, 6, accuracy: 1e-12)
        XCTAssertEqual(MotionPolicy(commandLineFlag: true).flight(from: a, to: b).isJump, true)
        XCTAssertEqual(MotionPolicy().flight(from: a, to: b).isJump, false)
    }

    func testTurningReducedMotionOnMidFlightLandsAtOnce() {
        let a = Fixture.camera(lat: 0, lon: 0, zoom: 3)
        let b = Fixture.camera(lat: 40, lon: -3, zoom: 5)
        var controller = CameraController(camera: a)
        controller.apply(.animate(CameraAnimation(.flight(FlightPath(from: a, to: b)), purpose: .flight,
                                                  startTime: 0)), at: 0)
        XCTAssertNotEqual(controller.advance(to: 0.3).camera, b)
        let ended = controller.updateMotionPolicy(MotionPolicy(userToggle: true), at: 0.3)
        XCTAssertEqual(ended?.purpose, .flight)
        XCTAssertEqual(controller.camera, b)
        XCTAssertFalse(controller.isAnimating)
    }
}
