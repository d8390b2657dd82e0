import XCTest
import ClusterCore
@testable import MapModel

final class KeyboardAndDoubleClickTests: XCTestCase {
    func testDoubleClickZoomsInOneLevelAtThePointer() {
        let cam = Fixture.camera(lat: 40.4, lon: -3.7, zoom: 8)
        let p = ScreenPoint(x: 120, y: 640)
        let under = cam.coordinate(at: p)
        let change = DoubleClickZoomHandler().doubleClick(at: p, in: Fixture.context(cam))
        guard case .animate(let a) = change else { return XCTFail("animated") }
        XCTAssertEqual(a.duration, DoubleClickZoomHandler.zoomAnimationDurationSeconds)
        let end = finalCamera(of: change, from: cam)
        XCTAssertEqual(end.zoom, 9, accuracy: 1e-12)
        assertScreen(end, shows: under, at: p)
        let out = DoubleClickZoomHandler().doubleClick(at: p, zoomOut: true, in: Fixture.context(cam))
        XCTAssertEqual(finalCamera(of: out, from: cam).zoom, 7, accuracy: 1e-12)
    }

    func testArrowsPanByAFixedStepAndRepeatsAddUp() {
        let cam = Fixture.camera(lat: 10, lon: 20, zoom: 5)
        let keys = KeyboardNavigationHandler()
        let step = KeyboardNavigationHandler.keyboardPanPixels
        let right = finalCamera(of: keys.press(.right, in: Fixture.context(cam)), from: cam)
        // The place that was `step` px right of centre is now at the centre.
        assertScreen(right, shows: cam.coordinate(at: ScreenPoint(x: 512 + step, y: 384)), at: ScreenPoint(x: 512, y: 384))
        let up = finalCamera(of: keys.press(.up, in: Fixture.context(cam)), from: cam)
        XCTAssertGreaterThan(up.center.latitude, 10)
        let left = finalCamera(of: keys.press(.left, in: Fixture.context(cam)), from: cam)
        XCTAssertLessThan(left.center.longitude, 20)

        var controller = CameraController(camera: cam)
        for t in [0.0, 0.05, 0.1] {
            controller.apply(keys.press(.down, in: controller.interrupt(at: t)), at: t)
        }
        let end = controller.advance(to: 1).camera
        assertScreen(end, shows: cam.coordinate(at: ScreenPoint(x: 512, y: 384 + 3 * step)),
                     at: ScreenPoint(x: 512, y: 384), accuracy: 1e-6)
    }

    func testPlusAndMinusZoomAroundTheCentre() {
        let cam = Fixture.camera(lat: 10, lon: 20, zoom: 5)
        let keys = KeyboardNavigationHandler()
        let zin = finalCamera(of: keys.press(.zoomIn, in: Fixture.context(cam)), from: cam)
        XCTAssertEqual(zin.zoom, 6, accuracy: 1e-12)
        XCTAssertEqual(zin.center.latitude, 10, accuracy: 1e-9)
        XCTAssertEqual(zin.center.longitude, 20, accuracy: 1e-9)
        let zout = finalCamera(of: keys.press(.zoomOut, in: Fixture.context(cam)), from: cam)
        XCTAssertEqual(zout.zoom, 4, accuracy: 1e-12)
    }

    func testShowAllFitsTheData() {
        let cam = Fixture.camera(lat: 40.4, lon: -3.7, zoom: 12)
        let spain = GeoBounds(west: -9.3, south: 36.0, east: 3.3, north: 43.8)
        let change = KeyboardNavigationHandler().press(.showAll, dataBounds: spain, in: Fixture.context(cam))
        guard case .animate(let a) = change else { return XCTFail("show-all flies") }
        XCTAssertEqual(a.purpose, .showAll)
        XCTAssertEqual(a.target, cam.fitting(spain, paddingPixels: KeyboardNavigationHandler.showAllPaddingPixels,
                                             maxZoom: KeyboardNavigationHandler.showAllMaxZoom))
        guard case .none = KeyboardNavigationHandler().press(.showAll, in: Fixture.context(cam))
        else { return XCTFail("no data, nothing to show") }
    }
}
