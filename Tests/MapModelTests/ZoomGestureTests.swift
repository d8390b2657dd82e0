import XCTest
import ClusterCore
@testable import MapModel

/// Wheel, touchpad, Ctrl+scroll and pinch: the point under the pointer (or fingers) stays put.
final class ZoomGestureTests: XCTestCase {
    let pointer = ScreenPoint(x: 800, y: 150)

    func testWheelNotchIsAnEasedStepAroundThePointer() {
        let cam = Fixture.camera(lat: 48, lon: 2, zoom: 6)
        let under = cam.coordinate(at: pointer)
        let change = WheelZoomHandler().scroll(notches: -1, at: pointer, in: Fixture.context(cam, now: 3))
        guard case .animate(let a) = change else { return XCTFail("a notch animates") }
        XCTAssertEqual(a.purpose, .zoomStep)
        XCTAssertEqual(a.duration, WheelZoomHandler.zoomAnimationDurationSeconds)
        XCTAssertEqual(a.target.zoom, 7, accuracy: 1e-12, "one notch is one zoom level (SPEC §5.1)")
        // Fixed on every frame, not only at the end.
        for t in [0.0, 0.05, 0.12, 0.25, 1] {
            assertScreen(a.camera(at: 3 + t), shows: under, at: pointer, accuracy: 1e-6)
        }
        let mid = a.camera(at: 3.1).zoom
        XCTAssertGreaterThan(mid, 6)
        XCTAssertLessThan(mid, 7)
        // Scrolling down zooms out.
        let out = WheelZoomHandler().scroll(notches: 2, at: pointer, in: Fixture.context(cam))
        XCTAssertEqual(finalCamera(of: out, from: cam).zoom, 4, accuracy: 1e-12)
    }

    func testQuickNotchesAccumulate() {
        let cam = Fixture.camera(lat: 48, lon: 2, zoom: 6)
        let under = cam.coordinate(at: pointer)
        var controller = CameraController(camera: cam)
        let wheel = WheelZoomHandler()
        controller.apply(wheel.scroll(notches: -1, at: pointer, in: controller.interrupt(at: 0)), at: 0)
        controller.apply(wheel.scroll(notches: -1, at: pointer, in: controller.interrupt(at: 0.05)), at: 0.05)
        controller.apply(wheel.scroll(notches: -1, at: pointer, in: controller.interrupt(at: 0.1)), at: 0.1)
        XCTAssertEqual(controller.animation?.target.zoom ?? 0, 6 + 3 * WheelZoomHandler.zoomLevelsPerWheelNotch,
                       accuracy: 1e-12)
        let end = controller.advance(to: 1)
        XCTAssertEqual(end.camera.zoom, 9, accuracy: 1e-12)
        assertScreen(end.camera, shows: under, at: pointer, accuracy: 1e-6)
        // A notch after the step settled starts from the camera, not from an old target.
        controller.apply(wheel.scroll(notches: 1, at: pointer, in: controller.interrupt(at: 2)), at: 2)
        XCTAssertEqual(controller.animation?.target.zoom ?? 0, 8, accuracy: 1e-12)
    }

    func testWheelStopsAtTheZoomLimits() {
        let cam = Fixture.camera(zoom: 18)
        guard case .none = WheelZoomHandler().scroll(notches: -1, at: pointer, in: Fixture.context(cam))
        else { return XCTFail("nothing to do at max zoom") }
    }

    func testTouchpadScrollZoomsContinuouslyAroundThePointer() {
        let cam = Fixture.camera(lat: -33.9, lon: 151.2, zoom: 9)
        let under = cam.coordinate(at: pointer)
        let handler = ContinuousScrollZoomHandler()
        guard case .set(let c) = handler.scroll(deltaY: -50, at: pointer, in: Fixture.context(cam))
        else { return XCTFail("touchpad zoom is immediate") }
        XCTAssertEqual(c.zoom, 9 + 50 * ContinuousScrollZoomHandler.zoomLevelsPerScrollPixel, accuracy: 1e-12)
        assertScreen(c, shows: under, at: pointer)
        // Many small deltas add up to the same as one big one (Ctrl+scroll takes this path too).
        var d = cam
        for _ in 0..<10 {
            if case .set(let next) = handler.scroll(deltaY: -5, at: pointer, in: Fixture.context(d)) { d = next }
        }
        XCTAssertEqual(d.zoom, c.zoom, accuracy: 1e-9)
        assertScreen(d, shows: under, at: pointer, accuracy: 1e-5)
        guard case .none = handler.scroll(deltaY: .nan, at: pointer, in: Fixture.context(cam))
        else { return XCTFail("NaN deltas are ignored") }
    }

    func testPinchZoomsAroundTheFingersAndPansWithThem() {
        var cam = Fixture.camera(lat: 51.5, lon: -0.1, zoom: 10)
        let start = ScreenPoint(x: 500, y: 400)
        let under = cam.coordinate(at: start)
        var pinch = PinchZoomHandler()
        _ = pinch.begin(center: start, in: Fixture.context(cam))
        let steps: [(Double, ScreenPoint)] = [(1.1, ScreenPoint(x: 505, y: 402)),
                                              (1.5, ScreenPoint(x: 520, y: 410)),
                                              (2.0, ScreenPoint(x: 530, y: 390))]
        for (scale, centre) in steps {
            if case .set(let c) = pinch.update(scale: scale, center: centre, in: Fixture.context(cam)) { cam = c }
            assertScreen(cam, shows: under, at: centre, accuracy: 1e-6)
        }
        XCTAssertEqual(cam.zoom, 11, accuracy: 1e-12)
        guard case .none = pinch.end(in: Fixture.context(cam)) else { return XCTFail("no pinch inertia") }
        guard case .none = pinch.update(scale: 0, center: start, in: Fixture.context(cam))
        else { return XCTFail("a zero scale is ignored") }
    }
}
