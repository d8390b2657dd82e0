import XCTest
import Foundation
@testable import ClusterCore

/// Issue 33 item 2: a compaction built in the background equals a fresh build bit for bit, and
/// one the index outgrew is dropped.
final class LiveCompactionTests: XCTestCase {
    func testABackgroundCompactionEqualsAFreshBuildAndAStaleOneIsDropped() throws {
        var crowd = LiveRepairRulesTests.Crowd(seed: 31, initial: 500)
        let index = LiveClusterIndex(points: crowd.model, categories: [], values: [])
        XCTAssertNil(index.compaction(), "nothing to compact after a build")
        for _ in 0..<6 { index.apply(crowd.batch(size: 20)) }
        let stale = try XCTUnwrap(index.compaction())
        stale.build()
        index.apply(crowd.batch(size: 3))
        XCTAssertFalse(index.finish(stale), "the index changed after the snapshot")
        XCTAssertTrue(index.hasChanges)

        let job = try XCTUnwrap(index.compaction())
        // Built on another thread, as the app does.
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread { job.build(); done.signal() }
        done.wait()
        XCTAssertTrue(index.finish(job))
        XCTAssertFalse(index.hasChanges)
        assertSameItems(index, LiveClusterIndex(points: crowd.model))
        // And it goes on changing from there.
        index.apply(crowd.batch(size: 10))
        XCTAssertEqual(hierarchicalRuleViolations(index, options: index.options), [])
    }

    func testAReplayFromEmptyCompactsToAFreshBuild() {
        // The replay demo's pattern: an empty index fed in batches, then left to rest.
        var crowd = LiveRepairRulesTests.Crowd(seed: 32, initial: 0)
        let index = LiveClusterIndex(points: [])
        for _ in 0..<30 { index.apply(PointChanges(additions: (0..<15).map { _ in crowd.point() })) }
        let all = index.clusters(in: .world, zoom: 20).sorted { $0.featureID < $1.featureID }.map(\.coordinate)
        XCTAssertEqual(all.count, 450)
        XCTAssertEqual(hierarchicalRuleViolations(index, options: index.options), [])
        let job = index.compaction()
        job?.build()
        XCTAssertEqual(job.map(index.finish), true)
        assertSameItems(index, LiveClusterIndex(points: all))
    }

    func testAClusterIdIsNeverGivenToAnotherClusterAfterACompaction() {
        var crowd = LiveRepairRulesTests.Crowd(seed: 33, initial: 300)
        let index = LiveClusterIndex(points: crowd.model)
        func clusters() -> [ClusterID: Int] {
            var byID: [ClusterID: Int] = [:]
            for z in index.minZoom...index.maxZoom {
                for item in index.clusters(in: .world, zoom: Double(z)) { if let id = item.clusterID { byID[id] = item.count } }
            }
            return byID
        }
        for _ in 0..<3 { index.apply(crowd.batch(size: 30)) }
        let before = clusters()
        index.compact()
        for _ in 0..<3 { index.apply(crowd.batch(size: 30)) }
        let after = clusters()
        for (id, count) in after {
            XCTAssertEqual(index.item(for: id)?.count, count, "item(for:) finds \(id.rawValue)")
            if let old = before[id], index.baseID(id) == nil { XCTFail("made id \(id.rawValue) named a cluster of \(old) and now one of \(count)") }
        }
        XCTAssertEqual(hierarchicalRuleViolations(index, options: index.options), [])
    }
}
