import XCTest
import ClusterCore

/// Checks, on every zoom, what any clusterer must guarantee: each valid input point appears
/// exactly once (as a point or inside one cluster), counts add up, children and leaves agree,
/// expansion zooms really split, aggregates add up. Returns the number of clusters seen.
@discardableResult
func assertClusterInvariants(_ index: some PointClusterer, points: [GeoCoordinate],
                             categories: [Int32] = [], values: [Double] = [],
                             file: StaticString = #filePath, line: UInt = #line) -> Int {
    let valid = Set(points.indices.filter { points[$0].isValid })
    XCTAssertEqual(index.inputCount, points.count, file: file, line: line)
    XCTAssertEqual(index.skippedCount, points.count - valid.count, "skipped count", file: file, line: line)
    var clusterCount = 0
    var failures = 0
    // item membership per zoom: point index -> feature id of the item holding it
    var holder: [Int: [Int: Int]] = [:]
    for z in index.minZoom...(index.maxZoom + 1) {
        let items = index.clusters(in: .world, zoom: Double(z))
        var seen: [Int: Int] = [:]
        var zoomHolder: [Int: Int] = [:]
        for item in items {
            switch item.kind {
            case .point(let i):
                seen[i, default: 0] += 1
                zoomHolder[i] = i
                XCTAssertEqual(item.count, 1, file: file, line: line)
                XCTAssertEqual(item.coordinate, points[i], "a point is drawn at its input coordinate", file: file, line: line)
            case .cluster(let id):
                clusterCount += 1
                XCTAssertLessThanOrEqual(z, index.maxZoom, "nothing clusters above maxZoom", file: file, line: line)
                XCTAssertGreaterThanOrEqual(id.rawValue, index.inputCount, "cluster ids never equal a point index",
                                            file: file, line: line)
                let leaves = index.leaves(of: id)
                XCTAssertEqual(leaves.count, item.count, "leaves = count", file: file, line: line)
                XCTAssertGreaterThanOrEqual(item.count, 2, file: file, line: line)
                for l in leaves {
                    seen[l, default: 0] += 1
                    zoomHolder[l] = id.rawValue
                }
                let children = index.children(of: id)
                XCTAssertFalse(children.isEmpty, file: file, line: line)
                XCTAssertEqual(children.reduce(0) { $0 + $1.count }, item.count, "children counts add up", file: file, line: line)
                let childLeaves = children.flatMap { c -> [Int] in
                    if let cid = c.clusterID { return index.leaves(of: cid) }
                    guard let p = c.pointIndex else {
                        XCTFail("a child that is neither a cluster nor a point", file: file, line: line)
                        return []
                    }
                    return [p]
                }
                XCTAssertEqual(childLeaves.sorted(), leaves.sorted(), "children hold the leaves", file: file, line: line)
                XCTAssertEqual(index.item(for: id)?.count, item.count, file: file, line: line)
                // Paging leaves gives the same sequence.
                if leaves.count > 3 {
                    XCTAssertEqual(index.leaves(of: id, limit: 2, offset: 1), Array(leaves[1..<3]), file: file, line: line)
                }
                let agg = index.aggregates(of: item)
                XCTAssertEqual(agg.count, item.count, file: file, line: line)
                if !categories.isEmpty {
                    var expected: [Int32: Int] = [:]
                    for l in leaves where categories[l] >= 0 { expected[categories[l], default: 0] += 1 }
                    XCTAssertEqual(Dictionary(uniqueKeysWithValues: agg.categoryCounts.map { ($0.category, $0.count) }),
                                   expected, "category counts", file: file, line: line)
                }
                if !values.isEmpty {
                    let vs = leaves.map { values[$0] }.filter { !$0.isNaN }
                    XCTAssertEqual(agg.valueCount, vs.count, file: file, line: line)
                    XCTAssertEqual(agg.minimum, vs.min(), file: file, line: line)
                    XCTAssertEqual(agg.maximum, vs.max(), file: file, line: line)
                    XCTAssertEqual(agg.sum, vs.reduce(0, +), accuracy: 1e-6 * max(1, abs(agg.sum)), file: file, line: line)
                }
            }
        }
        let wrong = seen.filter { $0.value != 1 }.count + valid.subtracting(seen.keys).count
            + Set(seen.keys).subtracting(valid).count
        if wrong > 0 {
            failures += 1
            XCTFail("zoom \(z): \(wrong) points not seen exactly once", file: file, line: line)
            if failures > 3 { return clusterCount }
        }
        holder[z] = zoomHolder
    }
    // Expansion zoom: the members are in one item just below it, and in several at it.
    for z in index.minZoom...index.maxZoom {
        for item in index.clusters(in: .world, zoom: Double(z)) {
            guard let id = item.clusterID, let e = index.expansionZoom(of: id) else { continue }
            XCTAssertGreaterThan(e, z, file: file, line: line)
            XCTAssertLessThanOrEqual(e, index.maxZoom + 1, file: file, line: line)
            let leaves = index.leaves(of: id)
            // A missing holder is a failure to report, not a force unwrap that aborts the run.
            guard let below = holder[e - 1], let atZoom = holder[e] else {
                XCTFail("no items recorded at zoom \(e - 1) or \(e)", file: file, line: line)
                continue
            }
            let unheld = leaves.filter { below[$0] == nil || atZoom[$0] == nil }
            guard unheld.isEmpty else {
                XCTFail("leaves \(unheld.prefix(5)) of cluster \(id.rawValue) are in no item at zoom \(e - 1) or \(e)",
                        file: file, line: line)
                continue
            }
            let before = Set(leaves.compactMap { below[$0] })
            let at = Set(leaves.compactMap { atZoom[$0] })
            XCTAssertEqual(before.count, 1, "one item just below the expansion zoom", file: file, line: line)
            XCTAssertGreaterThan(at.count, 1, "the expansion zoom splits the cluster", file: file, line: line)
        }
    }
    return clusterCount
}
