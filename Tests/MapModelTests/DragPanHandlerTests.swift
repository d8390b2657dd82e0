import XCTest
import ClusterCore
@testable import MapModel

final class DragPanHandlerTests: XCTestCase {
    func testSmallMovesStayAClick() {
        var drag = DragPanHandler()
        let cam = Fixture.camera(zoom: 4)
        _ = drag.begin(in: Fixture.context(cam))
        guard case .none = drag.update(offset: ScreenPoint(x: 2, y: 2), in: Fixture.context(cam, now: 0.05))
        else { return XCTFail("moved within the slop") }
        guard case .none = drag.end(offset: ScreenPoint(x: 3, y: 0), in: Fixture.context(cam, now: 0.1))
        else { return XCTFail("a click must not pan or throw") }
        XCTAssertTrue(drag.isClick)
    }

    func testDragKeepsTheGrabbedPlaceUnderThePointer() {
        var drag = DragPanHandler()
        var cam = Fixture.camera(lat: 45, lon: 7, zoom: 6)
        let press = ScreenPoint(x: 300, y: 200)
        let grabbed = cam.coordinate(at: press)
        _ = drag.begin(in: Fixture.context(cam))
        for (i, off) in [(3.0, 1.0), (20, 5), (57, -12)].enumerated() {
            let change = drag.update(offset: ScreenPoint(x: off.0, y: off.1),
                                     in: Fixture.context(cam, now: Double(i + 1) * 0.016))
            if case .set(let c) = change { cam = c }
            if off.0 > DragPanHandler.clickSlopPixels {
                assertScreen(cam, shows: grabbed, at: ScreenPoint(x: press.x + off.0, y: press.y + off.1))
            }
        }
        XCTAssertFalse(drag.isClick)
    }

    func testFastReleaseThrowsAndSlowReleaseDoesNot() {
        let cam = Fixture.camera(zoom: 6)
        var drag = DragPanHandler()
        _ = drag.begin(in: Fixture.context(cam))
        var now = 0.0
        for i in 1...10 {
            now = Double(i) * 0.01
            _ = drag.update(offset: ScreenPoint(x: Double(i) * 10, y: 0), in: Fixture.context(cam, now: now))
        }
        guard case .animate(let a) = drag.end(offset: ScreenPoint(x: 100, y: 0), in: Fixture.context(cam, now: now))
        else { return XCTFail("expected a throw") }
        XCTAssertEqual(a.purpose, .kinetic)
        guard case .kinetic(let pan, _) = a.kind else { return XCTFail() }
        XCTAssertEqual(pan.velocity.x, 1000, accuracy: 1e-6)

        var slow = DragPanHandler()
        _ = slow.begin(in: Fixture.context(cam))
        _ = slow.update(offset: ScreenPoint(x: 50, y: 0), in: Fixture.context(cam, now: 0.1))
        if case .animate = slow.end(offset: ScreenPoint(x: 50, y: 0), in: Fixture.context(cam, now: 0.6)) {
            XCTFail("the pointer had stopped before release")
        }
    }

    func testAnyGestureInterruptsAThrow() {
        let cam = Fixture.camera(zoom: 6)
        var controller = CameraController(camera: cam)
        let pan = KineticPan(velocity: ScreenPoint(x: 1000, y: 0))!
        controller.apply(.animate(CameraAnimation(.kinetic(pan, from: cam), purpose: .kinetic, startTime: 0)), at: 0)
        var drag = DragPanHandler()
        let ctx = controller.interrupt(at: 0.1)
        XCTAssertFalse(controller.isAnimating)
        XCTAssertEqual(ctx.camera, cam.panned(by: pan.offset(at: 0.1).x, 0))
        controller.apply(drag.begin(in: ctx), at: 0.1)
        XCTAssertEqual(controller.camera, ctx.camera)
    }
}
