import ClusterCore
import TileTestSupport
@testable import Tiles
import XCTest

final class TileCacheTests: XCTestCase {
    func testEvictsTheLeastRecentlyUsedBeyondTheBudget() {
        let cache = TileCache<Int, String>(byteLimit: 300)
        cache.insert("a", for: 1, cost: 100)
        cache.insert("b", for: 2, cost: 100)
        cache.insert("c", for: 3, cost: 100)
        XCTAssertEqual(cache.value(for: 1), "a")  // 1 is now the most recent
        cache.insert("d", for: 4, cost: 100)
        XCTAssertNil(cache.value(for: 2), "2 was least recently used")
        XCTAssertEqual(cache.keysByRecency, [3, 1, 4])
        XCTAssertEqual(cache.cost, 300)
        cache.insert("e", for: 5, cost: 250)
        XCTAssertEqual(cache.keysByRecency, [5])
        XCTAssertEqual(cache.cost, 250)
    }

    func testReplacingAndRemovingKeepTheCostRight() {
        let cache = TileCache<TileID, Int>(byteLimit: 1000)
        let t = TileID(z: 1, x: 0, y: 0)
        cache.insert(1, for: t, cost: 400)
        cache.insert(2, for: t, cost: 500)
        XCTAssertEqual(cache.cost, 500)
        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.value(for: t), 2)
        cache.insert(3, for: TileID(z: 1, x: 1, y: 0), cost: 2000)
        XCTAssertFalse(cache.contains(TileID(z: 1, x: 1, y: 0)), "bigger than the whole budget: not kept")
        XCTAssertTrue(cache.contains(t), "and nothing was evicted for it")
        cache.removeValue(for: t)
        XCTAssertEqual(cache.cost, 0)
        cache.insert(4, for: t, cost: 10)
        cache.byteLimit = 5
        XCTAssertEqual(cache.count, 0, "lowering the budget evicts")
    }

    func testStaysWithinBudgetUnderConcurrentUse() {
        let cache = TileCache<Int, [UInt8]>(byteLimit: 10_000)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            var rng = SeededRandom(seed: UInt64(worker))
            for _ in 0..<2000 {
                let k = Int.random(in: 0..<200, using: &rng)
                if Bool.random(using: &rng) {
                    cache.insert([UInt8](repeating: 0, count: 10), for: k, cost: Int.random(in: 1...500, using: &rng))
                } else {
                    _ = cache.value(for: k)
                }
            }
        }
        XCTAssertLessThanOrEqual(cache.cost, 10_000)
        XCTAssertEqual(cache.keysByRecency.count, cache.count)
        cache.removeAll()
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.cost, 0)
    }
}
