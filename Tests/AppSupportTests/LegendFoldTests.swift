import XCTest
@testable import AppSupport
import MapModel

/// The legend card folds while data lies under it and opens again when clear (issue 32 item 5);
/// the user's own choice wins.
final class LegendFoldTests: XCTestCase {
    private let card = LegendFold.cardRect(size: ScreenSize(width: 200, height: 120))

    private func scene(bubbleAt c: ScreenPoint? = nil, radius: Double = 15, pinAt p: ScreenPoint? = nil, label: String? = nil) -> Scene {
        var s = Scene()
        if let c { s.bubbles.append(SceneBubble(id: .cluster(1), center: c, radius: radius, count: 5, label: "5", step: 0)) }
        if let p { s.pins.append(ScenePin(id: .point(0), pointIndex: 0, center: p, name: "A", label: label, color: 0)) }
        return s
    }

    func testCardRectIsTheMarginedCardWithItsGap() {
        XCTAssertEqual(card, ScreenRect(x: 4, y: 4, width: 216, height: 136))
    }

    func testBubblesCountAsCirclesPinsAsDiscsCapsulesAsRectangles() {
        // Card spans x 4…220, y 4…140.
        XCTAssertTrue(LegendFold.covers(card: card, scene: scene(bubbleAt: ScreenPoint(x: 100, y: 60))))
        // Centre outside, circle reaching in.
        XCTAssertTrue(LegendFold.covers(card: card, scene: scene(bubbleAt: ScreenPoint(x: 230, y: 60), radius: 15)))
        XCTAssertFalse(LegendFold.covers(card: card, scene: scene(bubbleAt: ScreenPoint(x: 240, y: 60), radius: 15)))
        // Near the corner: the bounding boxes overlap, the circle does not.
        XCTAssertFalse(LegendFold.covers(card: card, scene: scene(bubbleAt: ScreenPoint(x: 231, y: 151), radius: 15)))
        XCTAssertTrue(LegendFold.covers(card: card, scene: scene(pinAt: ScreenPoint(x: 226, y: 60))))
        XCTAssertFalse(LegendFold.covers(card: card, scene: scene(pinAt: ScreenPoint(x: 229, y: 60))))
        // A price capsule is centred on its place and wider than the pin.
        XCTAssertTrue(LegendFold.covers(card: card, scene: scene(pinAt: ScreenPoint(x: 240, y: 60), label: "$1200")))
        XCTAssertFalse(LegendFold.covers(card: card, scene: scene(pinAt: ScreenPoint(x: 270, y: 60), label: "$1200")))
        XCTAssertFalse(LegendFold.covers(card: card, scene: Scene()))
    }

    func testFadedMarksDoNotCount() {
        var s = scene(bubbleAt: ScreenPoint(x: 100, y: 60))
        s.bubbles[0].alpha = 0
        XCTAssertFalse(LegendFold.covers(card: card, scene: s))
    }

    func testFoldsOverDataAndOpensWhenClear() {
        var f = LegendFold()
        XCTAssertTrue(f.isExpanded)
        f.set(covers: true)
        XCTAssertFalse(f.isExpanded)
        f.set(covers: false)
        XCTAssertTrue(f.isExpanded)
        f.set(narrow: true)
        XCTAssertFalse(f.isExpanded)
        f.set(covers: true); f.set(narrow: false)
        XCTAssertFalse(f.isExpanded, "still over data")
        f.set(covers: false)
        XCTAssertTrue(f.isExpanded)
    }

    func testAUserClosedCardStaysClosed() {
        var f = LegendFold()
        f.userToggled(expanded: false)
        f.set(covers: true); f.set(covers: false)
        XCTAssertFalse(f.isExpanded)
        f.userToggled(expanded: true)
        XCTAssertTrue(f.isExpanded)
    }

    func testAUserOpenedCardStaysOpenUntilNothingAsksToFold() {
        var f = LegendFold()
        f.set(covers: true)
        f.userToggled(expanded: true)
        XCTAssertTrue(f.isExpanded, "the user opened it over data")
        f.set(covers: true)
        XCTAssertTrue(f.isExpanded, "another rest still over data: the choice holds")
        f.set(covers: false)
        XCTAssertTrue(f.isExpanded)
        f.set(covers: true)
        XCTAssertFalse(f.isExpanded, "once clear, the rule applies again")
    }

    func testOpeningOnANarrowMapHoldsLikeTheWidthRuleDid() {
        var f = LegendFold()
        f.set(narrow: true)
        f.userToggled(expanded: true)
        f.set(narrow: true)
        XCTAssertTrue(f.isExpanded)
        f.set(narrow: false)
        f.set(narrow: true)
        XCTAssertFalse(f.isExpanded)
    }
}
