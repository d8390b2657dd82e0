import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// The view queue's rules without a server: one query in flight, a newer view cancels it and
/// replaces the waiting one, only the latest is delivered, revisited views come from the cache.
final class PostGISViewQueueTests: XCTestCase {
    final class Gate: @unchecked Sendable {
        let lock = NSCondition()
        var cancelled = 0
        var ran: [Int] = []
        var delivered: [(Int, Bool)] = []
        var open = false
    }

    func makeQueue(_ gate: Gate, done: XCTestExpectation) -> PostGISViewQueue {
        PostGISViewQueue(cacheSize: 2, run: { view in
            gate.lock.lock()
            gate.ran.append(view.zoom)
            // Each query waits until cancelled or let through.
            let before = gate.cancelled
            while !gate.open && gate.cancelled == before { gate.lock.wait() }
            let wasCancelled = gate.cancelled != before
            gate.lock.unlock()
            if wasCancelled { throw PostGISError.cancelled }
            return PostGISViewResult(items: [PostGISItem(coordinate: GeoCoordinate(latitude: 0, longitude: 0), count: view.zoom,
                                                         isCluster: true)], method: .aggregated(cells: 1), seconds: 0)
        }, cancel: {
            gate.lock.lock(); gate.cancelled += 1; gate.lock.broadcast(); gate.lock.unlock()
        }, deliver: { view, result in
            gate.lock.lock()
            gate.delivered.append((view.zoom, (try? result.get()) != nil))
            gate.lock.unlock()
            done.fulfill()
        })
    }

    func view(_ z: Int) -> PostGISViewQueue.View { .init(bounds: .world, zoom: Double(z)) }

    func testANewerViewCancelsTheOneInFlightAndOnlyTheLatestIsDelivered() {
        let gate = Gate()
        let done = expectation(description: "delivered")
        let q = makeQueue(gate, done: done)
        q.request(view(1))
        Thread.sleep(forTimeInterval: 0.1)
        q.request(view(2))  // cancels 1, waits
        q.request(view(3))  // replaces 2 (never run)
        Thread.sleep(forTimeInterval: 0.1)
        gate.lock.lock(); gate.open = true; gate.lock.broadcast(); gate.lock.unlock()
        wait(for: [done], timeout: 5)
        gate.lock.lock(); defer { gate.lock.unlock() }
        // View 2 was superseded (before it started, or cancelled if the worker took it up first).
        XCTAssertEqual(gate.ran.first, 1)
        XCTAssertEqual(gate.ran.last, 3)
        XCTAssertEqual(gate.delivered.map(\.0), [3])
        XCTAssertTrue(gate.delivered[0].1)
        XCTAssertGreaterThanOrEqual(gate.cancelled, 1)
        XCTAssertEqual(q.superseded, 2)
    }

    func testRevisitedViewsComeFromTheCache() {
        let gate = Gate()
        gate.open = true
        let done = expectation(description: "delivered")
        done.expectedFulfillmentCount = 4
        let q = makeQueue(gate, done: done)
        func delivered(_ n: Int) {
            for _ in 0..<500 {
                gate.lock.lock(); let c = gate.delivered.count; gate.lock.unlock()
                if c >= n { return }
                Thread.sleep(forTimeInterval: 0.01)
            }
            XCTFail("only \(gate.delivered.count) of \(n) delivered")
        }
        q.request(view(5)); delivered(1)
        q.request(view(6)); delivered(2)
        q.request(view(5))  // from the cache, delivered before request returns
        XCTAssertEqual(gate.delivered.count, 3)
        q.request(view(7)); delivered(4)
        wait(for: [done], timeout: 5)
        XCTAssertEqual(gate.ran, [5, 6, 7], "the revisited view ran no query")
        XCTAssertEqual(q.cacheHits, 1)
        XCTAssertEqual(gate.delivered.map(\.0), [5, 6, 5, 7])
    }

    func testAViewRunningWhenTheDataChangesRunsAgainAndOnlyTheFreshAnswerIsDelivered() {
        let gate = Gate()
        let done = expectation(description: "delivered")
        done.assertForOverFulfill = false  // the cached view at the end is delivered too
        let q = makeQueue(gate, done: done)
        q.request(view(4))
        Thread.sleep(forTimeInterval: 0.1)
        q.invalidate()      // the table changed while view 4 was being read
        q.request(view(4))  // the window asks the same view again
        Thread.sleep(forTimeInterval: 0.1)
        gate.lock.lock(); gate.open = true; gate.lock.broadcast(); gate.lock.unlock()
        wait(for: [done], timeout: 5)
        Thread.sleep(forTimeInterval: 0.1)
        gate.lock.lock()
        XCTAssertEqual(gate.ran, [4, 4], "the stale read ran again")
        XCTAssertEqual(gate.delivered.map(\.0), [4], "one delivery: the fresh one")
        gate.lock.unlock()
        // The stale first answer was not cached; the fresh one is.
        let before = q.cacheHits
        q.request(view(4))
        XCTAssertEqual(q.cacheHits, before + 1)
    }

    /// PQcancel stops whatever the connection runs when the cancel reaches the server: one sent
    /// for a superseded view that had just ended stops the latest view instead. That view is run
    /// again and answered — delivered as "cancelled" it was dropped, and the window waited forever.
    func testAStrayCancelDoesNotLoseTheLatestView() {
        final class Runs: @unchecked Sendable {
            let lock = NSLock()
            var ran: [Int] = []
            var delivered: [(Int, Bool)] = []
        }
        let runs = Runs()
        let done = expectation(description: "delivered")
        let q = PostGISViewQueue(cacheSize: 2, run: { view in
            let n = runs.lock.withLock { runs.ran.append(view.zoom); return runs.ran.count }
            // The first run of the view is hit by the cancel meant for the one before it.
            if n == 1 { throw PostGISError.cancelled }
            return PostGISViewResult(items: [], method: .aggregated(cells: 0), seconds: 0)
        }, cancel: {}, deliver: { view, result in
            runs.lock.withLock { runs.delivered.append((view.zoom, (try? result.get()) != nil)) }
            done.fulfill()
        })
        q.request(view(7))
        wait(for: [done], timeout: 5)
        runs.lock.withLock {
            XCTAssertEqual(runs.ran, [7, 7], "run again after the stray cancel")
            XCTAssertEqual(runs.delivered.map(\.0), [7])
            XCTAssertEqual(runs.delivered.first?.1, true, "answered, not 'cancelled'")
        }
    }

    /// A stopped queue (its table closed) runs nothing more and delivers nothing.
    func testAStoppedQueueRunsAndDeliversNothing() {
        let gate = Gate()
        let none = expectation(description: "nothing delivered")
        none.isInverted = true
        let q = makeQueue(gate, done: none)
        q.request(view(1))
        Thread.sleep(forTimeInterval: 0.1)
        q.stop()
        q.request(view(2))
        wait(for: [none], timeout: 0.5)
        gate.lock.lock(); defer { gate.lock.unlock() }
        XCTAssertEqual(gate.ran, [1], "the cancelled view is not run again, the later one not at all")
        XCTAssertGreaterThanOrEqual(gate.cancelled, 1)
    }
}
