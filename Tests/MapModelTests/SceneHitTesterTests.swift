import XCTest
@testable import MapModel

final class SceneHitTesterTests: XCTestCase {
    private func scene() -> Scene {
        var s = Scene()
        s.bubbles = [SceneBubble(id: .cluster(101), center: ScreenPoint(x: 100, y: 100), radius: 20, count: 300, label: "300", step: 1)]
        s.pins = [ScenePin(id: .point(4), pointIndex: 4, center: ScreenPoint(x: 115, y: 100), name: "Prado", label: nil, color: 0xFF0000),
                  ScenePin(id: .point(7), pointIndex: 7, center: ScreenPoint(x: 300, y: 300), name: "Loft", label: "Open now", color: 0x00FF00),
                  ScenePin(id: .point(9), pointIndex: 9, center: ScreenPoint(x: 500, y: 300), name: "Attic", label: "$120", color: 0x00FF00)]
        return s
    }

    func testPinOnTopOfBubbleWins() {
        XCTAssertEqual(SceneHitTester.hit(scene(), at: ScreenPoint(x: 116, y: 101)), .pin(.point(4), pointIndex: 4))
    }

    func testBubbleHitInsideRadiusOnly() {
        XCTAssertEqual(SceneHitTester.hit(scene(), at: ScreenPoint(x: 85, y: 100)), .bubble(.cluster(101)))
        XCTAssertNil(SceneHitTester.hit(scene(), at: ScreenPoint(x: 100, y: 125)))
    }

    func testLabelCapsuleSelectsItsPin() {
        XCTAssertEqual(SceneHitTester.hit(scene(), at: ScreenPoint(x: 330, y: 302)), .pin(.point(7), pointIndex: 7))
        // A price capsule is the marker, centred on its place: its left end hits too.
        XCTAssertEqual(SceneHitTester.hit(scene(), at: ScreenPoint(x: 481, y: 300)), .pin(.point(9), pointIndex: 9))
    }

    func testCalloutIsTopmost() {
        var s = scene()
        s.callout = SceneCallout(pointIndex: 7, frame: ScreenRect(x: 80, y: 80, width: 100, height: 50),
                                 anchor: ScreenPoint(x: 130, y: 140), title: "Loft", lines: [])
        XCTAssertEqual(SceneHitTester.hit(s, at: ScreenPoint(x: 100, y: 100)), .callout(pointIndex: 7))
    }

    func testStyleSteps() {
        let st = BubbleStyle()
        XCTAssertEqual(st.step(forCount: 2), 0)
        XCTAssertEqual(st.step(forCount: 99), 0)
        XCTAssertEqual(st.step(forCount: 100), 1)
        XCTAssertEqual(st.step(forCount: 749), 1)
        XCTAssertEqual(st.step(forCount: 750), 2)
        XCTAssertLessThan(st.radius(forCount: 10), st.radius(forCount: 5000))
    }
}
