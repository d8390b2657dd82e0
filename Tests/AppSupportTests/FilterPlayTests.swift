import XCTest
import Foundation
import ClusterCore
import GeoData
import MapRender
@testable import AppSupport

/// Issue 29 item 4 at the presentation (no display): "playing 1M points with a moving window
/// stays at ≥ 30 frames per second". While the bar plays, each step is answered by its first
/// frame (a recount) and no exact build is made — one would be outdated before it ends and takes
/// the CPU the next steps need; when play stops, only the newest step is built exactly, and the
/// map settles to the oracle. A step with no first frame is built at once, as before.
final class FilterPlayTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests
    typealias Delivered = FilterDragTests.Delivered

    /// The window's loop: a step, then the next once the previous landed (`timeBarFilterDidLand`).
    private func play(_ untils: [String], on p: MapPresentation, workers: FilterJobWorkers,
                      delivered: Delivered, landed: @escaping () -> XCTestExpectation) throws -> [MapEvent] {
        var events: [MapEvent] = []
        for until in untils {
            var s = FilterSettings()
            _ = try s.set("since", "2000-01-01")
            _ = try s.set("until", until)
            var job = try XCTUnwrap(p.setFilter(s))
            job.playStep = true
            let shown = landed()
            workers.submit(job)
            wait(for: [shown], timeout: 30)
            events += delivered.take().flatMap { p.finishFilter($0) }
        }
        return events
    }

    func testPlayStepsGetFirstFramesOnlyAndPausingSettlesTheNewestExactly() throws {
        let places = Fixture.places(3000, seed: 43)
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: .max, maximumChanges: 0)  // no repair: every step recounts
        p.filtering.interim.recount.tune(minimumPassing: 0)
        var start = FilterSettings()
        _ = try start.set("where", "mag >= 0")
        try p.applyFilter(start)

        let delivered = Delivered()
        let pending = Pending()
        let workers = FilterJobWorkers(show: { outcome in
            delivered.add(outcome)
            pending.fulfil()
        }, beforeExact: nil)
        let events = try play((2001...2008).map { "\($0)-12-31" }, on: p, workers: workers, delivered: delivered, landed: {
            let e = self.expectation(description: "a step landed")
            pending.set(e)
            return e
        })
        XCTAssertEqual(events.map(\.name), Array(repeating: "filter-interim", count: 8), "each step: its first frame only")
        XCTAssertTrue(p.filterIsInterim)
        XCTAssertEqual(workers.startedCounts.exact, 0, "no exact build while playing")

        // Pause: the newest step is built exactly, once, and equals a fresh build.
        let settled = expectation(description: "the settled frame")
        pending.set(settled)
        workers.settlePlay()
        wait(for: [settled], timeout: 60)
        let last = delivered.take().flatMap { p.finishFilter($0) }
        XCTAssertEqual(last.map(\.name), ["filter"])
        XCTAssertEqual(workers.startedCounts.exact, 1)
        XCTAssertFalse(p.filterIsInterim)
        workers.settlePlay()  // nothing held any more: no second build
        XCTAssertEqual(workers.startedCounts.exact, 1)
        try Fixture.assertShowsExactly(places.indices.filter { places[$0].day <= 3287 }, of: places, in: p)
    }

    /// A step with no first frame (few places pass: the exact build is fast) is built at once.
    /// Fewer than 6 % of the places (`FilterRecount.playBuildMicroseconds`): 90 of 1,500.
    func testAPlayStepWithNoFirstFrameIsBuiltAtOnce() throws {
        let places = Fixture.places(1500, seed: 44)
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: .max, maximumChanges: 0)
        p.filtering.interim.recount.tune(minimumPassing: .max)  // no recount either
        let delivered = Delivered()
        let pending = Pending()
        let workers = FilterJobWorkers(show: { outcome in
            delivered.add(outcome)
            pending.fulfil()
        }, beforeExact: nil)
        let events = try play(["2000-01-31", "2000-03-31"], on: p, workers: workers, delivered: delivered, landed: {
            let e = self.expectation(description: "a step landed")
            pending.set(e)
            return e
        })
        XCTAssertEqual(events.map(\.name), ["filter", "filter"])
        XCTAssertEqual(workers.startedCounts.exact, 2)
        workers.settlePlay()
        XCTAssertEqual(workers.startedCounts.exact, 2, "already exact: nothing to settle")
        try Fixture.assertShowsExactly(places.indices.filter { places[$0].day <= 90 }, of: places, in: p)
    }

    /// While playing, a step recounts wherever that is cheaper than its build (no settled frame
    /// waits for it); otherwise only where the build would miss the frame budget.
    func testAPlayStepRecountsFromFewerPassingPlaces() {
        let minimum = FilterInterim.minimumPassing
        XCTAssertFalse(FilterRecount.pays(passing: 70_000, places: 1_000_000, minimumPassing: minimum))
        XCTAssertTrue(FilterRecount.pays(passing: 70_000, places: 1_000_000, minimumPassing: minimum, playing: true))
        XCTAssertFalse(FilterRecount.pays(passing: 50_000, places: 1_000_000, minimumPassing: minimum, playing: true))
        XCTAssertFalse(FilterRecount.pays(passing: 400_000, places: 10_000_000, minimumPassing: minimum, playing: true))
    }

    /// The expectation the next outcome fulfils (set on the test's thread, fulfilled on a worker's).
    final class Pending: @unchecked Sendable {
        private let lock = NSLock()
        private var next: XCTestExpectation?
        func set(_ e: XCTestExpectation) { lock.withLock { next = e } }
        func fulfil() { lock.withLock { defer { next = nil }; return next }?.fulfill() }
    }
}
