import ClusterCore
import XCTest
@testable import MapModel

/// Placement in steps (`MapLabelPlacement.advance(budget:)`, and the layout in motion): the same
/// labels as at once, at most `budget` candidates tried per frame, the last placement shown
/// meanwhile, and at rest always complete at once.
final class MapLabelSteppedPlacementTests: XCTestCase {
    let helper = LabelFixtures()

    func candidates() -> [MapLabelCandidate] {
        helper.randomCandidates(3000, seed: 33, around: GeoCoordinate(latitude: 45, longitude: 5), spread: 8)
    }

    func testAPlacementInStepsEqualsOneAtOnce() {
        let list = candidates()
        let index = MapLabelIndex(candidates: list)
        let ws = 256 * exp2(6.0)
        let region = (minX: ws * 0.49, minY: ws * 0.33, maxX: ws * 0.54, maxY: ws * 0.38)
        // Every seventh name unmeasured, and some kept from before (as panning keeps them).
        let size: (Int, MapLabelCandidate) -> MapLabelSize? = { id, c in id % 7 == 3 ? nil : self.helper.size(c) }
        let placer = MapLabelPlacer()
        let before = placer.place(index, zoom: 6, minX: region.minX - 500, minY: region.minY, maxX: region.maxX - 500,
                                  maxY: region.maxY, sizeOfCandidate: size).labels
        let atOnce = placer.place(index, zoom: 6, minX: region.minX, minY: region.minY, maxX: region.maxX, maxY: region.maxY,
                                  keeping: before, sizeOfCandidate: size)
        XCTAssertGreaterThan(atOnce.labels.count, 100)
        XCTAssertGreaterThan(atOnce.unmeasured, 0)
        for budget in [1, 7, 100, 500] {
            var run = MapLabelPlacement(placer: placer, index: index, overlay: nil, zoom: 6, minX: region.minX, minY: region.minY,
                                        maxX: region.maxX, maxY: region.maxY, keeping: before)
            var steps = 0
            while !run.isDone {
                var tried = 0
                run.advance(budget: budget) { id, c in tried += 1; return size(id, c) }
                XCTAssertLessThanOrEqual(tried, budget)
                steps += 1
            }
            XCTAssertEqual(run.placed, atOnce.labels, "budget \(budget)")
            XCTAssertEqual(run.unmeasured, atOnce.unmeasured, "budget \(budget)")
            if budget == 100 { XCTAssertGreaterThan(steps, 5, "done in several steps") }
        }
    }

    func testInMotionANewPlacementIsDoneInStepsAndTheLastShownMeanwhile() {
        let list = candidates()
        let l = helper.layout(list)
        l.motionPlacementBudget = 300
        var cam = helper.camera(45, 5, zoom: 6)
        let rest = helper.labels(l, cam)
        XCTAssertEqual(l.placementCount, 1)
        // Zooming past the reuse distance in motion: placed in steps, frame by frame.
        cam.setZoom(6.3)
        var frames = 0
        var tried: [Int] = []
        var shown: [SceneLabel] = []
        while l.placementCount == 1 && frames < 100 {
            var n = 0
            shown = l.labels(for: cam, isAnimating: true, sizeRevision: 0) { id in n += 1; return self.helper.size(list[id]) }
            tried.append(n)
            frames += 1
            if l.placementCount == 1 {
                // Meanwhile: the placement at zoom 6, its names moved to zoom 6.3 (same names).
                XCTAssertEqual(Set(shown.map(\.id)).subtracting(rest.map(\.id)), [], "frame \(frames): only the last placement's names")
                XCTAssertFalse(shown.isEmpty)
            }
        }
        XCTAssertGreaterThan(frames, 2, "the placement took several frames")
        XCTAssertLessThan(frames, 100)
        XCTAssertLessThanOrEqual(tried.max() ?? 0, 300, "at most the budget's candidates a frame")
        // Done: what a placement at once at zoom 6.3 gives.
        let once = helper.layout(list)
        once.motionPlacementBudget = nil
        _ = helper.labels(once, helper.camera(45, 5, zoom: 6))
        let expected = once.labels(for: cam, isAnimating: true, sizeRevision: 0) { self.helper.size(list[$0]) }
        XCTAssertEqual(shown, expected)
        // The next frames reuse it.
        cam.setZoom(6.35)
        _ = l.labels(for: cam, isAnimating: true, sizeRevision: 0) { self.helper.size(list[$0]) }
        XCTAssertEqual(l.placementCount, 2)
    }

    func testAtRestThePlacementIsCompleteAtOnce() {
        let list = candidates()
        let l = helper.layout(list)
        l.motionPlacementBudget = 200
        var cam = helper.camera(45, 5, zoom: 6)
        _ = helper.labels(l, cam)
        cam.setZoom(6.6)
        _ = l.labels(for: cam, isAnimating: true, sizeRevision: 0) { self.helper.size(list[$0]) }
        XCTAssertEqual(l.placementCount, 1, "in progress")
        // The camera comes to rest: placed at once, exactly as a fresh layout places it.
        let rest = helper.labels(l, cam)
        XCTAssertEqual(l.placementCount, 2)
        XCTAssertEqual(rest, helper.labels(helper.layout(list), cam))
    }

    func testAZoomAnimationKeepsPlacingWhileTheZoomMovesOn() {
        // The zoom moves 0.02 a frame and a placement takes 20 frames (0.4 of a zoom level, more
        // than `animationReuseZooms`): placements are still finished in steps, never dropped and
        // begun again until one must be done at once.
        let list = candidates()
        let l = helper.layout(list)
        l.motionPlacementBudget = 150
        var cam = helper.camera(45, 5, zoom: 6)
        _ = helper.labels(l, cam)
        var most = 0
        for f in 1...100 {
            cam.setZoom(6 + 0.02 * Double(f))
            var n = 0
            _ = l.labels(for: cam, isAnimating: true, sizeRevision: 0) { id in n += 1; return self.helper.size(list[id]) }
            most = max(most, n)
        }
        XCTAssertGreaterThanOrEqual(l.placementCount, 4, "placements were finished during the animation")
        XCTAssertLessThanOrEqual(most, 150, "no frame placed everything at once")
    }
}
