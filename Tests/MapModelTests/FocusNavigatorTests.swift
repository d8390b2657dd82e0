import XCTest
@testable import MapModel

final class FocusNavigatorTests: XCTestCase {
    private func scene(_ items: [(SceneItemID, Double, Double)]) -> Scene {
        var s = Scene()
        for (id, x, y) in items {
            switch id {
            case .cluster: s.bubbles.append(SceneBubble(id: id, center: ScreenPoint(x: x, y: y), radius: 15, count: 5, label: "5", step: 0))
            case .point(let i): s.pins.append(ScenePin(id: id, pointIndex: i, center: ScreenPoint(x: x, y: y), name: "p\(i)", label: nil, color: 0))
            }
        }
        return s
    }
    let vp = ScreenSize(width: 800, height: 600)

    func testReadingOrderIsRowsTopToBottomThenLeftToRight() {
        let s = scene([(.point(1), 500, 100), (.cluster(9), 100, 110), (.point(2), 50, 400), (.point(3), 700, 390), (.point(4), 300, 95)])
        let order = FocusNavigator.readingOrder(s, viewport: vp).map(\.id)
        XCTAssertEqual(order, [.cluster(9), .point(4), .point(1), .point(2), .point(3)])
    }

    func testOffscreenAndDuplicateCopiesAreSkipped() {
        let s = scene([(.point(1), -20, 100), (.point(2), 100, 100), (.point(2), 612, 100)])
        let order = FocusNavigator.readingOrder(s, viewport: vp)
        XCTAssertEqual(order.map(\.id), [.point(2)])
        XCTAssertEqual(order[0].center.x, 612, "the copy nearest the centre")
    }

    func testTabAndShiftTabWalkAndLeaveAtTheEnds() {
        let order: [SceneItemID] = [.cluster(1), .point(2), .point(3)]
        XCTAssertEqual(FocusNavigator.step(from: nil, forward: true, in: order), .cluster(1))
        XCTAssertEqual(FocusNavigator.step(from: nil, forward: false, in: order), .point(3))
        XCTAssertEqual(FocusNavigator.step(from: .point(2), forward: true, in: order), .point(3))
        XCTAssertEqual(FocusNavigator.step(from: .point(2), forward: false, in: order), .cluster(1))
        XCTAssertNil(FocusNavigator.step(from: .point(3), forward: true, in: order))
        XCTAssertNil(FocusNavigator.step(from: .cluster(1), forward: false, in: order))
    }

    func testFocusFollowsItsItemThroughReclustering() {
        let after = FocusNavigator.readingOrder(scene([(.cluster(50), 200, 200), (.point(7), 600, 300)]), viewport: vp)
        // Still there.
        XCTAssertEqual(FocusNavigator.survivor(of: .point(7), lastPosition: nil, container: nil, in: after), .point(7))
        // A place that joined a bubble: the bubble.
        XCTAssertEqual(FocusNavigator.survivor(of: .point(3), lastPosition: ScreenPoint(x: 590, y: 300), container: .cluster(50), in: after), .cluster(50))
        // A bubble that split: the nearest item to where it was.
        XCTAssertEqual(FocusNavigator.survivor(of: .cluster(99), lastPosition: ScreenPoint(x: 210, y: 190), container: nil, in: after), .cluster(50))
        XCTAssertNil(FocusNavigator.survivor(of: .cluster(99), lastPosition: nil, container: nil, in: []))
    }
}
