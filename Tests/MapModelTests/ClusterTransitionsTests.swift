import XCTest
import ClusterCore
@testable import MapModel

final class ClusterTransitionsTests: XCTestCase {
    let parent = PlacedItem(item: ClusterItem(kind: .cluster(ClusterID(rawValue: 1000)), coordinate: GeoCoordinate(latitude: 10, longitude: 10), count: 2))
    let a = PlacedItem(item: ClusterItem(kind: .point(0), coordinate: GeoCoordinate(latitude: 10.5, longitude: 9.5), count: 1))
    let b = PlacedItem(item: ClusterItem(kind: .point(1), coordinate: GeoCoordinate(latitude: 9.5, longitude: 10.5), count: 1))

    func testChildrenMoveOutOfTheParentWhenZoomingIn() {
        var t = ClusterTransitions()
        _ = t.items(for: [parent], indexZoom: 5, now: 0, reducedMotion: false)
        let start = t.items(for: [a, b], indexZoom: 6, now: 1, reducedMotion: false)
        XCTAssertTrue(t.isAnimating(at: 1.1))
        // At the start the children are where the parent was.
        let kids = start.filter { !$0.item.isCluster }
        XCTAssertEqual(kids.count, 2)
        for k in kids {
            XCTAssertEqual(k.coordinate.latitude, 10, accuracy: 1e-6)
            XCTAssertEqual(k.coordinate.longitude, 10, accuracy: 1e-6)
        }
        // Half way they are in between; at the end exactly at their places.
        let mid = t.items(for: [a, b], indexZoom: 6, now: 1.15, reducedMotion: false).first { $0.item.pointIndex == 0 }!
        XCTAssertGreaterThan(mid.coordinate.latitude, 10)
        XCTAssertLessThan(mid.coordinate.latitude, 10.5)
        let end = t.items(for: [a, b], indexZoom: 6, now: 2, reducedMotion: false)
        XCTAssertEqual(end, [a, b])
        XCTAssertFalse(t.isAnimating(at: 2))
    }

    func testReducedMotionOnlyFades() {
        var t = ClusterTransitions()
        _ = t.items(for: [parent], indexZoom: 5, now: 0, reducedMotion: true)
        let mid = t.items(for: [a, b], indexZoom: 6, now: 1.15, reducedMotion: true)
        for k in mid where !k.item.isCluster {
            let target = k.item.coordinate
            XCTAssertEqual(k.coordinate.latitude, target.latitude, accuracy: 1e-6, "no movement under reduced motion")
            XCTAssertLessThan(k.alpha, 1)
        }
    }

    func testMergingMovesChildrenIntoTheParent() {
        var t = ClusterTransitions()
        _ = t.items(for: [a, b], indexZoom: 6, now: 0, reducedMotion: false)
        let start = t.items(for: [parent], indexZoom: 5, now: 1, reducedMotion: false)
        XCTAssertTrue(start.contains { $0.item.pointIndex == 0 }, "old items are still drawn while merging")
        let late = t.items(for: [parent], indexZoom: 5, now: 1.25, reducedMotion: false).first { $0.item.pointIndex == 0 }!
        XCTAssertLessThan(abs(late.coordinate.latitude - 10), 0.5, "moving towards the parent")
    }

    func testSameZoomIsPassThrough() {
        var t = ClusterTransitions()
        _ = t.items(for: [parent], indexZoom: 5, now: 0, reducedMotion: false)
        XCTAssertEqual(t.items(for: [a], indexZoom: 5, now: 0.1, reducedMotion: false), [a])
    }
}
