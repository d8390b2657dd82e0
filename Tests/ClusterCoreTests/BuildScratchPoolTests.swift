import XCTest
@testable import ClusterCore

/// The scratch pool that filtered builds of one data set share (`BuildScratchPool`): blocks are
/// reused, the pool keeps no more than its builds had in use at once, and builds from reused
/// (scribbled-over) scratch equal builds without a pool.
final class BuildScratchPoolTests: XCTestCase {
    func testBlocksAreReusedBestFitAndTheIdleBytesStayWithinThePeak() {
        let pool = BuildScratchPool()
        let mb = 1 << 20
        let a = pool.take(bytes: 8 * mb), b = pool.take(bytes: 2 * mb), c = pool.take(bytes: 5 * mb)
        XCTAssertEqual(pool.peakBytesInUse, 15 * mb)
        XCTAssertTrue(pool.give(a)); XCTAssertTrue(pool.give(b)); XCTAssertTrue(pool.give(c))
        XCTAssertFalse(pool.give(a), "a block given back twice is not taken twice")
        XCTAssertEqual(pool.idleBytes, 15 * mb)
        // The smallest idle block that holds the request.
        let d = pool.take(bytes: 3 * mb)
        XCTAssertEqual(d, c)
        XCTAssertEqual(pool.reuseCount, 1)
        let e = pool.take(bytes: 1 * mb)
        XCTAssertEqual(e, b)
        // Nothing idle is big enough: a new block, and the peak grows.
        let f = pool.take(bytes: 9 * mb)
        XCTAssertNotEqual(f, a)
        XCTAssertEqual(pool.peakBytesInUse, 16 * mb)
        for p in [d, e, f] { XCTAssertTrue(pool.give(p)) }
        XCTAssertLessThanOrEqual(pool.idleBytes, pool.peakBytesInUse)
        pool.release()
        XCTAssertEqual(pool.idleBytes, 0)
        // Blocks given back after a release are idle again (and freed with the pool).
        let g = pool.take(bytes: mb)
        XCTAssertTrue(pool.give(g))
        XCTAssertEqual(pool.idleBytes, mb)
    }

    /// Hot spots, noise and a few invalid points.
    private func points(_ n: Int, seed: UInt64) -> [GeoCoordinate] {
        var r = SeededRandom(seed: seed)
        let centres = (0..<5).map { _ in (r.uniform(-60, 60), r.uniform(-170, 170)) }
        return (0..<n).map { i in
            if i % 89 == 3 { return GeoCoordinate(latitude: .nan, longitude: 0) }
            if i % 3 == 0 { return GeoCoordinate(latitude: r.uniform(-80, 80), longitude: r.uniform(-180, 180)) }
            let c = centres[i % centres.count]
            let s = i % 2 == 0 ? 3.0 : 0.02
            return GeoCoordinate(latitude: c.0 + r.uniform(-s, s), longitude: c.1 + r.uniform(-s, s))
        }
    }

    /// A run of filters over one data set — big and small, growing and shrinking, grouped (groups
    /// build in parallel from one pool) — each built from the prepared points' pool, whose idle
    /// blocks are scribbled over before every build: the same items, in the same order, as a
    /// build without preparation or pool.
    func testFilteredBuildsFromAReusedPoolEqualBuildsWithout() {
        let n = 60_000
        let pts = points(n, seed: 41)
        let options = HierarchicalClusterer.Options(maxZoom: 12)
        let method = ClusteringMethod.hierarchical(options)
        let prepared = PreparedPoints(points: pts, options: options)
        prepared.scratchPool.minimumBytes = 4096  // pool this test's small buffers too
        var r = SeededRandom(seed: 42)
        let value = (0..<n).map { _ in r.uniform(0, 10) }
        let groups: [Int32] = (0..<n).map { _ in Int32(r.uniform(0, 3)) }
        let cases: [(String, PointSelection, [Int32])] = [
            ("90 %", PointSelection(count: n) { value[$0] >= 1 }, []),
            ("10 %", PointSelection(count: n) { value[$0] >= 9 }, []),
            ("half", PointSelection(count: n) { value[$0] >= 5 }, []),
            ("all", PointSelection(count: n, all: true), []),
            ("half less 1 %", PointSelection(count: n) { value[$0] >= 5.1 }, []),
            ("groups of 70 %", PointSelection(count: n) { value[$0] >= 3 }, groups),
            ("half again", PointSelection(count: n) { value[$0] >= 5 }, []),
        ]
        for (k, (name, selection, groups)) in cases.enumerated() {
            prepared.scratchPool.scribbleIdle(UInt8(0x5A + k))
            let used = LevelBuilder.preparedBands.count
            let pooled = SubsetClusterer(points: pts, selection: selection, groups: groups, method: method, prepared: prepared)
            XCTAssertGreaterThan(LevelBuilder.preparedBands.count, used, "\(name): the prepared path is taken")
            let plain = SubsetClusterer(points: pts, selection: selection, groups: groups, method: method)
            XCTAssertEqual(pooled.indexedCount, plain.indexedCount, name)
            for z in 0...13 {
                let got = pooled.clusters(in: .world, zoom: Double(z)), want = plain.clusters(in: .world, zoom: Double(z))
                XCTAssertEqual(got, want, "\(name), zoom \(z)")
                if got != want { break }
            }
            XCTAssertLessThanOrEqual(prepared.scratchPool.idleBytes, prepared.scratchPool.peakBytesInUse, name)
        }
        XCTAssertGreaterThan(prepared.scratchPool.reuseCount, 10, "later builds reuse the scratch of earlier ones")
        XCTAssertGreaterThan(prepared.scratchPool.idleBytes, 0)
        prepared.scratchPool.release()
        XCTAssertEqual(prepared.scratchPool.idleBytes, 0)
    }
}
