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
}
