import XCTest
import ClusterCore
@testable import MapModel

final class RevealPanTests: XCTestCase {
    func testRevealEasesByTheCalloutShift() {
        let cam = Fixture.camera(lat: 10, lon: 20, zoom: 5)
        let pin = ScreenPoint(x: 500, y: 60)
        let callout = CalloutPlacement.frame(above: pin, size: ScreenSize(width: 200, height: 120))
        let shift = CalloutPlacement.revealShift(callout: callout, pin: pin, pinRadius: 8, viewport: cam.viewportSize)
        XCTAssertGreaterThan(shift.dy, 0)
        let change = RevealPan.change(panBy: shift.dx, shift.dy, in: Fixture.context(cam))
        guard case .animate(let a) = change else { return XCTFail("reveal eases") }
        XCTAssertEqual(a.purpose, .reveal)
        XCTAssertEqual(a.target.zoom, cam.zoom)
        let end = finalCamera(of: change, from: cam)
        let moved = end.screenPoint(for: cam.coordinate(at: pin))
        XCTAssertEqual(moved.y, pin.y + shift.dy, accuracy: 1e-6)
        guard case .none = RevealPan.change(panBy: 0, 0, in: Fixture.context(cam)) else { return XCTFail() }
    }
}
