import Foundation
import XCTest
@testable import ClusterCore

/// A dragged range never queues work: the newest request wins, superseded ones are skipped.
final class LatestRequestWorkerTests: XCTestCase {
    private final class Log: @unchecked Sendable {
        let lock = NSLock()
        var delivered: [Int] = []
        func add(_ v: Int) { lock.lock(); delivered.append(v); lock.unlock() }
        var values: [Int] { lock.lock(); defer { lock.unlock() }; return delivered }
    }

    func testOnlyTheNewestRequestIsDeliveredAndFewAreWorkedOn() {
        let log = Log()
        let gate = DispatchSemaphore(value: 0), started = DispatchSemaphore(value: 0)
        let done = expectation(description: "newest delivered")
        let worker = LatestRequestWorker<Int, Int>(work: { r in
            if r == 0 {  // the first request is slow: everything else arrives meanwhile
                started.signal()
                gate.wait()
            }
            return r * 10
        }, deliver: { r, out in
            log.add(out)
            if r == 100 { done.fulfill() }
        })
        worker.submit(0)
        started.wait()
        for r in 1...100 { worker.submit(r) }
        gate.signal()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(log.values, [1000], "the first (superseded) and the middle ones are never delivered")
        XCTAssertEqual(worker.startedCount, 2, "the first, then only the newest")
        // A later request after the worker went idle runs and is delivered.
        let again = expectation(description: "again")
        let worker2 = LatestRequestWorker<Int, Int>(work: { $0 }, deliver: { r, _ in if r == 7 { again.fulfill() } })
        worker2.submit(7)
        wait(for: [again], timeout: 10)
    }

    func testFilteredIndexesBuiltOffThreadSettleOnTheNewestFilter() {
        var r = SeededRandom(seed: 3)
        let points = (0..<5_000).map { _ in GeoCoordinate(latitude: r.uniform(-60, 60), longitude: r.uniform(-170, 170)) }
        let settled = expectation(description: "settled")
        final class Box: @unchecked Sendable { var index: SubsetClusterer?; var request = -1 }
        let box = Box()
        let worker = LatestRequestWorker<Int, SubsetClusterer>(work: { threshold in
            SubsetClusterer(points: points, selection: PointSelection(count: points.count) { $0 % 100 < threshold },
                            method: .hierarchical(HierarchicalClusterer.Options()))
        }, deliver: { request, index in
            box.index = index
            box.request = request
            if request == 50 { settled.fulfill() }
        })
        for threshold in stride(from: 0, through: 50, by: 5) { worker.submit(threshold) }
        wait(for: [settled], timeout: 30)
        XCTAssertEqual(box.request, 50)
        XCTAssertEqual(box.index?.indexedCount, 2_500)
    }
}
