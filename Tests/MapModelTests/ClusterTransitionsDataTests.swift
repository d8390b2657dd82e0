import XCTest
import ClusterCore
@testable import MapModel

/// Motion for live data: a moved place glides, a new one pops up, a removed one fades out, a
/// bubble that re-counts slides from the old one; reduced motion only fades.
final class ClusterTransitionsDataTests: XCTestCase {
    func place(_ i: Int, _ lat: Double, _ lon: Double) -> PlacedItem {
        PlacedItem(item: ClusterItem(kind: .point(i), coordinate: GeoCoordinate(latitude: lat, longitude: lon), count: 1))
    }
    func bubble(_ id: Int, _ lat: Double, _ lon: Double, count: Int) -> PlacedItem {
        PlacedItem(item: ClusterItem(kind: .cluster(ClusterID(rawValue: id)), coordinate: GeoCoordinate(latitude: lat, longitude: lon), count: count))
    }

    func testMovedPlacesGlideNewOnesFadeInRemovedOnesFadeOut() {
        var t = ClusterTransitions()
        let moving = place(0, 10, 10), leaving = place(1, 20, 20)
        _ = t.items(for: [moving, leaving], indexZoom: 8, now: 0, reducedMotion: false)
        let moved = place(0, 10.2, 10), arriving = place(2, -20, -20)
        t.dataDidChange()
        let start = t.items(for: [moved, arriving], indexZoom: 8, now: 1, reducedMotion: false)
        XCTAssertEqual(start.first { $0.item.pointIndex == 0 }?.coordinate.latitude ?? 0, 10, accuracy: 1e-9, "starts where it was")
        XCTAssertEqual(start.first { $0.item.pointIndex == 2 }?.alpha ?? 1, 0, accuracy: 1e-9, "a new place comes in")
        XCTAssertEqual(start.first { $0.item.pointIndex == 2 }?.scale ?? 1, 0.3, accuracy: 1e-9, "from small")
        XCTAssertEqual(t.takeDataMotion(), ClusterTransitions.DataMotion(popping: 1, fadingOut: 1, gliding: 1))
        XCTAssertNil(t.takeDataMotion(), "told once")
        let popping = t.items(for: [moved, arriving], indexZoom: 8, now: 1.12, reducedMotion: false)
        XCTAssertGreaterThan(popping.first { $0.item.pointIndex == 2 }?.scale ?? 0, 1.02, "overshoots a little")
        XCTAssertEqual(popping.first { $0.item.pointIndex == 2 }?.alpha ?? 0, 1, accuracy: 1e-9)
        let popped = t.items(for: [moved, arriving], indexZoom: 8, now: 1.21, reducedMotion: false)
        XCTAssertEqual(popped.first { $0.item.pointIndex == 2 }?.scale ?? 0, 1, "settled after 0.2 s")
        XCTAssertEqual(start.first { $0.item.pointIndex == 1 }?.alpha ?? 0, 1, accuracy: 1e-9, "a removed place is still there")
        let mid = t.items(for: [moved, arriving], indexZoom: 8, now: 1.15, reducedMotion: false)
        let m = mid.first { $0.item.pointIndex == 0 }!.coordinate.latitude
        XCTAssertTrue(m > 10 && m < 10.2, "glides: \(m)")
        XCTAssertLessThan(mid.first { $0.item.pointIndex == 1 }?.alpha ?? 0, 1, "fading out")
        XCTAssertEqual(t.items(for: [moved, arriving], indexZoom: 8, now: 2, reducedMotion: false), [moved, arriving])
    }

    func testABubbleThatRecountsSlidesFromTheOldOne() {
        var t = ClusterTransitions()
        _ = t.items(for: [bubble(5000, 10, 10, count: 12)], indexZoom: 6, now: 0, reducedMotion: false)
        t.dataDidChange()
        let recounted = bubble(6000, 10.05, 10.05, count: 13)
        let start = t.items(for: [recounted], indexZoom: 6, now: 1, reducedMotion: false)
        let new = start.first { $0.item.count == 13 }!
        XCTAssertEqual(new.coordinate.latitude, 10, accuracy: 1e-6, "starts at the old bubble, no jump")
        XCTAssertEqual(new.alpha, 1, "and is opaque: it re-counts rather than pops")
    }

    func testReducedMotionOnlyFades() {
        var t = ClusterTransitions()
        _ = t.items(for: [place(0, 10, 10)], indexZoom: 8, now: 0, reducedMotion: true)
        t.dataDidChange()
        let start = t.items(for: [place(0, 10.2, 10), place(2, 0, 0)], indexZoom: 8, now: 1, reducedMotion: true)
        XCTAssertEqual(start.first { $0.item.pointIndex == 0 }?.coordinate.latitude ?? 0, 10.2, accuracy: 1e-9, "jumps, no glide")
        XCTAssertEqual(start.first { $0.item.pointIndex == 2 }?.alpha ?? 1, 0, accuracy: 1e-9, "fades in")
        XCTAssertTrue(start.allSatisfy { $0.scale == 1 }, "no pop")
        XCTAssertEqual(t.takeDataMotion(), ClusterTransitions.DataMotion(fadingIn: 1))
        let mid = t.items(for: [place(0, 10.2, 10), place(2, 0, 0)], indexZoom: 8, now: 1.1, reducedMotion: true)
        XCTAssertTrue(mid.allSatisfy { $0.scale == 1 }, "no pop")
    }

    func testWithoutADataChangeNothingAnimates() {
        var t = ClusterTransitions()
        _ = t.items(for: [place(0, 10, 10)], indexZoom: 8, now: 0, reducedMotion: false)
        XCTAssertEqual(t.items(for: [place(0, 10.2, 10)], indexZoom: 8, now: 1, reducedMotion: false), [place(0, 10.2, 10)])
        XCTAssertFalse(t.isAnimating(at: 1.1))
    }
}
