import ClusterCore
import Foundation
import XCTest
@testable import PostGIS

/// Views asked under a filter (`View.variant`, the time bar's windows on a table): the same box
/// under another filter is another view — queried, not taken from the first one's cache entry —
/// and the same filter again is answered from the cache, marked as such.
extension PostGISViewQueueTests {
    func testTheSameBoxUnderAnotherFilterIsQueriedAndTheSameFilterAgainComesFromTheCache() {
        let gate = Gate()
        gate.open = true
        let done = expectation(description: "delivered")
        done.expectedFulfillmentCount = 3
        final class Answers: @unchecked Sendable {
            let lock = NSLock()
            var fromCache: [String: Bool] = [:]
            var count: Int { lock.withLock { fromCache.count } }
        }
        let answers = Answers()
        let q = PostGISViewQueue(cacheSize: 4, run: { view in
            gate.lock.lock(); gate.ran.append(view.zoom); gate.lock.unlock()
            return PostGISViewResult(items: [], method: .fetched(points: 0), seconds: 0)
        }, cancel: {}, deliver: { view, result in
            answers.lock.withLock { answers.fromCache[view.variant] = (try? result.get())?.fromCache ?? false }
            done.fulfill()
        })
        func asked(_ variant: String) -> PostGISViewQueue.View {
            var v = view(5)
            v.variant = variant
            return v
        }
        func answered(_ n: Int) {
            for _ in 0..<500 where answers.count < n { Thread.sleep(forTimeInterval: 0.01) }
        }
        q.request(asked("at >= 2024-01-01 and at <= 2024-01-08")); answered(1)
        q.request(asked("at >= 2024-01-02 and at <= 2024-01-09")); answered(2)
        q.request(asked("at >= 2024-01-01 and at <= 2024-01-08"))  // from the cache, at once
        wait(for: [done], timeout: 5)
        XCTAssertEqual(gate.ran.count, 2, "two filters, two queries")
        XCTAssertEqual(q.cacheHits, 1)
        XCTAssertEqual(answers.fromCache["at >= 2024-01-01 and at <= 2024-01-08"], true, "the revisited window came from the cache")
        XCTAssertEqual(answers.fromCache["at >= 2024-01-02 and at <= 2024-01-09"], false)
    }
}
