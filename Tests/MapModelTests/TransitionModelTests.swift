import XCTest
@testable import MapModel

final class TransitionModelTests: XCTestCase {
    typealias Model = TransitionModel<Int>
    let parent = Model.Item(id: 1, position: ScreenPoint(x: 100, y: 100), count: 3)
    let childA = Model.Item(id: 10, position: ScreenPoint(x: 80, y: 100), count: 2)
    let childB = Model.Item(id: 11, position: ScreenPoint(x: 130, y: 140), count: 1)
    let bystander = Model.Item(id: 5, position: ScreenPoint(x: 0, y: 0), count: 7)

    func sprite(_ id: Int, _ sprites: [Model.Sprite]) -> Model.Sprite? { sprites.first { $0.id == id } }

    func testSplitMovesChildrenOutFromTheParent() throws {
        let m = Model(previous: [parent, bystander], current: [childA, childB, bystander],
                      origins: [10: 1, 11: 1], startTime: 2, reducedMotion: false)
        let start = m.sprites(at: 2)
        XCTAssertNil(sprite(1, start), "the parent gives way to its children at once")
        XCTAssertEqual(try XCTUnwrap(sprite(10, start)).position, parent.position)
        XCTAssertEqual(try XCTUnwrap(sprite(11, start)).alpha, 1)
        XCTAssertEqual(try XCTUnwrap(sprite(11, start)).role, .splitting)
        XCTAssertEqual(try XCTUnwrap(sprite(5, start)).role, .staying)

        let mid = try XCTUnwrap(sprite(11, m.sprites(at: 2.15)))
        XCTAssertGreaterThan(mid.position.x, 100)
        XCTAssertLessThan(mid.position.x, 130)

        let end = m.sprites(at: 2.4)
        XCTAssertFalse(m.isFinished(at: 2.2))
        XCTAssertTrue(m.isFinished(at: 2.4))
        XCTAssertEqual(end.map(\.id), [10, 11, 5])
        XCTAssertEqual(end.map(\.position), [childA.position, childB.position, bystander.position])
        XCTAssertEqual(end.map(\.alpha), [1, 1, 1])
    }

    func testMergeMovesChildrenIntoTheParent() throws {
        let m = Model(previous: [childA, childB], current: [parent], destinations: [10: 1, 11: 1],
                      startTime: 0, reducedMotion: false)
        let mid = m.sprites(at: 0.15)
        let a = try XCTUnwrap(sprite(10, mid))
        XCTAssertEqual(a.role, .merging)
        XCTAssertTrue(a.isOld)
        XCTAssertGreaterThan(a.position.x, 80)
        XCTAssertLessThan(a.position.x, 100)
        XCTAssertEqual(a.alpha, 0.5, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(sprite(1, mid)).alpha, 0.5, accuracy: 1e-12)
        // Old items are listed first, to be drawn beneath.
        XCTAssertEqual(mid.map(\.id), [10, 11, 1])
        XCTAssertEqual(m.sprites(at: 1).map(\.id), [1])
    }

    func testReducedMotionOnlyFades() throws {
        let m = Model(previous: [parent], current: [childA, childB], origins: [10: 1, 11: 1],
                      startTime: 0, reducedMotion: true)
        for t in [0.0, 0.1, 0.2] {
            let s = m.sprites(at: t)
            XCTAssertEqual(try XCTUnwrap(sprite(10, s)).position, childA.position)
            XCTAssertEqual(try XCTUnwrap(sprite(10, s)).alpha, t / 0.3, accuracy: 1e-12)
            XCTAssertEqual(try XCTUnwrap(sprite(1, s)).position, parent.position)
            XCTAssertEqual(try XCTUnwrap(sprite(1, s)).alpha, 1 - t / 0.3, accuracy: 1e-12)
        }
        let merge = Model(previous: [childA], current: [parent], destinations: [10: 1],
                          startTime: 0, reducedMotion: true)
        XCTAssertEqual(try XCTUnwrap(sprite(10, merge.sprites(at: 0.2))).position, childA.position)
    }

    /// A pop: from 0.3 of its size, a little past full size, then exactly full size; only when
    /// asked for (live data) and never under reduced motion.
    func testPopInGrowsFromSmallWithASlightOvershoot() throws {
        XCTAssertEqual(Model.popScale(0), 0.3, accuracy: 1e-12)
        XCTAssertEqual(Model.popScale(1), 1)
        let peak = stride(from: 0.0, through: 1.0, by: 0.01).map(Model.popScale).max()!
        XCTAssertTrue(peak > 1.03 && peak < 1.12, "slight overshoot: \(peak)")
        let m = Model(previous: [], current: [childA], startTime: 0, reducedMotion: false, popIn: true)
        XCTAssertEqual(try XCTUnwrap(sprite(10, m.sprites(at: 0))).scale, 0.3, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(sprite(10, m.sprites(at: 0.2))).scale, 1)
        XCTAssertEqual(try XCTUnwrap(sprite(10, m.sprites(at: 0.2))).alpha, 1)
        let reduced = Model(previous: [], current: [childA], startTime: 0, reducedMotion: true, popIn: true)
        XCTAssertEqual(try XCTUnwrap(sprite(10, reduced.sprites(at: 0.05))).scale, 1)
        let plain = Model(previous: [], current: [childA], startTime: 0, reducedMotion: false)
        XCTAssertEqual(try XCTUnwrap(sprite(10, plain.sprites(at: 0.05))).scale, 1, "zoom transitions fade")
    }

    func testUnlinkedItemsFadeInAndOut() throws {
        let m = Model(previous: [bystander], current: [childA], startTime: 0, reducedMotion: false)
        let s = m.sprites(at: 0.075)
        XCTAssertEqual(try XCTUnwrap(sprite(5, s)).role, .leaving)
        XCTAssertEqual(try XCTUnwrap(sprite(5, s)).alpha, 0.75, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(sprite(10, s)).role, .appearing)
        XCTAssertEqual(try XCTUnwrap(sprite(10, s)).alpha, 0.25, accuracy: 1e-12)
    }

    func testMotionTakesTheShortWayAcrossTheWrap() throws {
        let east = Model.Item(id: 1, position: ScreenPoint(x: 255, y: 50), count: 2)
        let west = Model.Item(id: 2, position: ScreenPoint(x: 1, y: 50), count: 1)
        let m = Model(previous: [east], current: [west], origins: [2: 1], startTime: 0,
                      reducedMotion: false, wrapWidth: 256)
        for t in stride(from: 0.0, to: 0.3, by: 0.03) {
            let x = try XCTUnwrap(sprite(2, m.sprites(at: t))).position.x
            XCTAssertTrue(x >= 255 || x <= 1, "x = \(x)")
        }
    }

    func testNearestLinksPairChildrenWithTheParentThatCanHoldThem() {
        let small = Model.Item(id: 2, position: ScreenPoint(x: 85, y: 100), count: 1)
        let links = Model.nearestLinks(children: [childA, childB], parents: [parent, small, bystander],
                                       maxDistance: 60)
        // childA (2 places) is nearer `small` but `small` holds only one place.
        XCTAssertEqual(links, [10: 1, 11: 1])
        XCTAssertEqual(Model.nearestLinks(children: [childA], parents: [parent], maxDistance: 5), [:])
    }
}
