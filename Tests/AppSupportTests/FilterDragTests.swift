import XCTest
import Foundation
import ClusterCore
import GeoData
import MapRender
@testable import AppSupport

/// Issue 29 item 3, at the presentation (no display): "a dragged range never queues work: the
/// latest value wins; the previous clusters stay until the new ones are ready". A drag is many
/// `setFilter` calls handed to the window's kind of worker (`LatestRequestWorker`, newest wins)
/// while the first is still being worked out; the map keeps what it showed until the newest
/// lands, and only the first and the newest are ever worked on.
final class FilterDragTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    final class Delivered: @unchecked Sendable {
        let lock = NSLock()
        var outcomes: [FilterOutcome] = []
        func add(_ o: FilterOutcome) { lock.withLock { outcomes.append(o) } }
        func take() -> [FilterOutcome] { lock.withLock { defer { outcomes = [] }; return outcomes } }
    }

    func testADraggedRangeNeverQueuesWorkAndThePreviousClustersStayUntilTheNewestAreReady() throws {
        let places = Fixture.places(3000, seed: 41)
        let p = try Fixture.presentation(places)
        var start = FilterSettings()
        _ = try start.set("where", "mag >= 1")
        try p.applyFilter(start)
        let before = try XCTUnwrap(p.shownFilter)
        let sceneBefore = Fixture.canonical(p.session!.shownIndex, zoom: 3)

        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let delivered = Delivered()
        let done = expectation(description: "the newest value delivered")
        let last = 7.5
        let worker = LatestRequestWorker<FilterJob, FilterOutcome>(work: { job in
            if job.settings.conditions == ["mag >= 1.1"] {  // the drag's first value is slow to work out
                started.signal()
                gate.wait()
            }
            return job.run()
        }, deliver: { job, outcome in
            delivered.add(outcome)
            if job.settings.conditions == ["mag >= \(last)"] { done.fulfill() }
        })

        // The drag: 65 values, the first still working while the rest arrive.
        let values = (11...75).map { Double($0) / 10 }
        for (k, v) in values.enumerated() {
            var s = FilterSettings()
            _ = try s.set("where", "mag >= \(v)")
            worker.submit(try XCTUnwrap(p.setFilter(s)))
            if k == 0 { started.wait() }
        }
        // Meanwhile the map shows what it showed: the previous filter's clusters, unchanged.
        XCTAssertEqual(p.shownFilter?.settings, before.settings)
        XCTAssertEqual(p.shownFilter?.passing, before.passing)
        XCTAssertEqual(Fixture.canonical(p.session!.shownIndex, zoom: 3), sceneBefore)
        XCTAssertEqual(p.filterSettings.conditions, ["mag >= \(last)"], "asked: the latest value")

        gate.signal()
        wait(for: [done], timeout: 60)
        XCTAssertEqual(worker.startedCount, 2, "the first value and then only the latest: nothing queued")
        // The window hands each delivered outcome to finishFilter: only the newest shows.
        let outcomes = delivered.take()
        XCTAssertEqual(outcomes.count, 1, "the superseded first value is never delivered")
        let events = outcomes.flatMap { p.finishFilter($0) }
        XCTAssertEqual(events.map(\.name), ["filter"])
        XCTAssertEqual(p.shownFilter?.settings.conditions, ["mag >= \(last)"])
        try Fixture.assertShowsExactly(places.indices.filter { places[$0].mag >= last }, of: places, in: p)

        // Had the superseded result arrived (a slower handoff), it would have been dropped.
        var stale = FilterSettings()
        _ = try stale.set("where", "mag >= 2")
        let old = try XCTUnwrap(p.setFilter(stale))
        var newest = FilterSettings()
        _ = try newest.set("where", "mag >= 3")
        let new = try XCTUnwrap(p.setFilter(newest))
        let shownBefore = p.shownFilter?.settings
        XCTAssertEqual(p.finishFilter(old.run()).count, 0)
        XCTAssertEqual(p.shownFilter?.settings, shownBefore, "the previous clusters stay")
        XCTAssertEqual(p.finishFilter(new.run()).map(\.name), ["filter"])
    }

    /// The window's two workers (`FilterJobWorkers`): while the exact build of the drag's first
    /// value is held, the newest value still gets its first frame (a recount) — no interim waits
    /// behind a build — and only it shows; the held value's build is then skipped (outdated at the
    /// checkpoint), and only the newest is built, which settles to the oracle.
    func testTheNewestValueGetsItsFirstFrameWhileAnOlderBuildIsHeld() throws {
        let places = Fixture.places(3000, seed: 41)
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: .max, maximumChanges: 0)  // no repair: every value recounts
        p.filtering.interim.recount.tune(minimumPassing: 0)
        var start = FilterSettings()
        _ = try start.set("where", "mag >= 1")
        try p.applyFilter(start)

        let last = 7.5
        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let delivered = Delivered()
        let newestInterim = expectation(description: "the newest value's first frame")
        let newestExact = expectation(description: "the newest value's exact build")
        let workers = FilterJobWorkers(show: { outcome in
            delivered.add(outcome)
            if outcome.job.settings.conditions == ["mag >= \(last)"] {
                (outcome.isInterim ? newestInterim : newestExact).fulfill()
            }
        }, beforeExact: { job in
            if job.settings.conditions == ["mag >= 1.1"] {  // the drag's first build is slow
                started.signal()
                gate.wait()
            }
        })
        let values = (11...75).map { Double($0) / 10 }
        for (k, v) in values.enumerated() {
            var s = FilterSettings()
            _ = try s.set("where", "mag >= \(v)")
            workers.submit(try XCTUnwrap(p.setFilter(s)))
            if k == 0 { started.wait() }
        }
        // The first value's build is still held, yet the newest value's first frame came.
        wait(for: [newestInterim], timeout: 20)
        var events = delivered.take().flatMap { p.finishFilter($0) }
        XCTAssertEqual(events.map(\.name), ["filter-interim"], "only the newest value's first frame shows")
        XCTAssertEqual(Dictionary(events.first?.fields ?? [], uniquingKeysWith: { a, _ in a })["kind"], .string("recount"))
        XCTAssertTrue(p.filterIsInterim)
        XCTAssertEqual(p.shownFilter?.passing, places.filter { $0.mag >= last }.count)

        gate.signal()
        wait(for: [newestExact], timeout: 60)
        XCTAssertEqual(workers.startedCounts.exact, 2, "the held value, then only the newest: nothing queued")
        events = delivered.take().flatMap { p.finishFilter($0) }
        XCTAssertEqual(events.map(\.name), ["filter"], "the held value's build was skipped, never shown")
        XCTAssertNotNil(Dictionary(events.first?.fields ?? [], uniquingKeysWith: { a, _ in a })["interim_ms"])
        XCTAssertFalse(p.filterIsInterim)
        try Fixture.assertShowsExactly(places.indices.filter { places[$0].mag >= last }, of: places, in: p)
    }
}
