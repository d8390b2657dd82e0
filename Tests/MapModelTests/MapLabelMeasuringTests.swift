import ClusterCore
import XCTest
@testable import MapModel

/// Placement while texts are still being measured (in motion, off the drawing thread): names
/// without a size are left out and counted, the placement is done again as sizes arrive, and at
/// rest it is complete.
final class MapLabelMeasuringTests: XCTestCase {
    let helper = LabelFixtures()

    func candidates() -> [MapLabelCandidate] {
        helper.randomCandidates(3000, seed: 33, around: GeoCoordinate(latitude: 45, longitude: 5), spread: 8)
    }

    func testNamesWithoutASizeAreLeftOutAndCounted() {
        let index = MapLabelIndex(candidates: candidates())
        let region = (minX: 256 * 64 * 0.50, minY: 256 * 64 * 0.34, maxX: 256 * 64 * 0.53, maxY: 256 * 64 * 0.37)
        func place(known: (Int) -> Bool) -> (labels: [PlacedMapLabel], unmeasured: Int) {
            MapLabelPlacer().place(index, zoom: 6, minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY,
                                   sizeIfMeasured: { known($0) ? self.helper.size(index.candidates[$0]) : nil })
        }
        let all = place { _ in true }
        XCTAssertEqual(all.unmeasured, 0)
        XCTAssertGreaterThan(all.labels.count, 40)
        // Every other name unknown: none of them placed, each one tried counted.
        let half = place { $0 % 2 == 0 }
        XCTAssertGreaterThan(half.unmeasured, 0)
        XCTAssertTrue(half.labels.allSatisfy { $0.id % 2 == 0 })
        // The same as placing without those names at all (they are as if not there).
        let kept = MapLabelIndex(candidates: index.candidates.enumerated().map { (i: Int, c: MapLabelCandidate) -> MapLabelCandidate in
            var c = c
            if i % 2 == 1 { c.minZoom = 99 }  // out of reach at zoom 6
            return c
        })
        let without = MapLabelPlacer().place(kept, zoom: 6, minX: region.minX, minY: region.minY, maxX: region.maxX,
                                             maxY: region.maxY) { self.helper.size(kept.candidates[$0]) }
        XCTAssertEqual(half.labels.map(\.id), without.map(\.id))
        // Nothing known: nothing placed.
        let none = place { _ in false }
        XCTAssertTrue(none.labels.isEmpty)
        XCTAssertGreaterThanOrEqual(none.unmeasured, half.unmeasured)
    }

    func testAnIncompletePlacementIsRedoneWhenSizesArriveAndCompletedAtRest() {
        let list = candidates()
        let l = helper.layout(list)
        l.motionPlacementBudget = nil  // placed at once (in steps: MapLabelSteppedPlacementTests)
        let cam = helper.camera(45, 5, zoom: 6)
        var known = Set<Int>()
        func moving(revision: Int) -> [SceneLabel] {
            l.labels(for: cam, isAnimating: true, sizeRevision: revision) { id in
                known.contains(id) ? self.helper.size(list[id]) : nil
            }
        }
        // In motion with no size known: nothing placed yet, incomplete.
        XCTAssertTrue(moving(revision: 0).isEmpty)
        XCTAssertTrue(l.isIncomplete)
        XCTAssertEqual(l.placementCount, 1)
        // The next frame with no new sizes reuses it (no placement per frame while waiting).
        _ = moving(revision: 0)
        XCTAssertEqual(l.placementCount, 1)
        // Sizes arrive (a new revision): placed again, now with names.
        known = Set(0..<list.count)
        let arrived = moving(revision: 1)
        XCTAssertEqual(l.placementCount, 2)
        XCTAssertFalse(arrived.isEmpty)
        XCTAssertFalse(l.isIncomplete)
        // Nothing was kept from the empty placement, so it is exactly the placement at rest.
        XCTAssertEqual(arrived, helper.labels(helper.layout(list), cam))
    }

    func testAtRestAnIncompletePlacementIsCompletedKeepingWhatWasShown() {
        let list = candidates()
        let l = helper.layout(list)
        let cam = helper.camera(45, 5, zoom: 6)
        // In motion only every third name has its size.
        let shown = l.labels(for: cam, isAnimating: true, sizeRevision: 0) { id in
            id % 3 == 0 ? self.helper.size(list[id]) : nil
        }
        XCTAssertTrue(l.isIncomplete)
        XCTAssertFalse(shown.isEmpty)
        // At rest (same revision: the caller measures every text now) it is placed again and complete.
        let rest = l.labels(for: cam, isAnimating: false, sizeRevision: 0) { self.helper.size(list[$0]) }
        XCTAssertFalse(l.isIncomplete)
        XCTAssertEqual(l.placementCount, 2)
        XCTAssertGreaterThan(rest.count, shown.count)
        // Nothing shown in motion jumps or disappears at rest (same zoom: kept in place).
        for s in shown {
            XCTAssertTrue(rest.contains { $0.id == s.id && $0.frame == s.frame }, "\(s.text) moved or vanished at rest")
        }
        // And still no overlaps.
        let pad = MapLabelPlacer().padding
        for i in rest.indices {
            for j in rest.indices where j > i {
                let a = rest[i].frame, b = rest[j].frame
                XCTAssertFalse(a.minX - pad < b.maxX && b.minX - pad < a.maxX && a.minY - pad < b.maxY && b.minY - pad < a.maxY,
                               "\(rest[i].text) overlaps \(rest[j].text)")
            }
        }
    }

    func testAZoomAnimationWaitingForSizesReusesItsPlacementUntilTheyArrive() {
        let list = candidates()
        let l = helper.layout(list)
        l.motionPlacementBudget = nil  // placed at once (in steps: MapLabelSteppedPlacementTests)
        var cam = helper.camera(45, 5, zoom: 6)
        _ = helper.labels(l, cam)  // at rest, complete
        XCTAssertEqual(l.placementCount, 1)
        // Zooming past the reuse distance: a new placement, with half the names unmeasured.
        cam.setZoom(6.3)
        _ = l.labels(for: cam, isAnimating: true, sizeRevision: 5) { $0 % 2 == 0 ? self.helper.size(list[$0]) : nil }
        XCTAssertEqual(l.placementCount, 2)
        XCTAssertTrue(l.isIncomplete)
        // A little further in, same revision: reused (scaled), not placed again.
        cam.setZoom(6.35)
        _ = l.labels(for: cam, isAnimating: true, sizeRevision: 5) { $0 % 2 == 0 ? self.helper.size(list[$0]) : nil }
        XCTAssertEqual(l.placementCount, 2)
        // New sizes: placed again at the current zoom, complete.
        cam.setZoom(6.4)
        _ = l.labels(for: cam, isAnimating: true, sizeRevision: 6) { self.helper.size(list[$0]) }
        XCTAssertEqual(l.placementCount, 3)
        XCTAssertFalse(l.isIncomplete)
    }
}
