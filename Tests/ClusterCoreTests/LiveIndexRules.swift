import XCTest
import ClusterCore

/// The hierarchical algorithm's rules (SPEC §3.1, §3.4), checked from the outside on any index
/// with supercluster's structure, zoom by zoom, in projected coordinates. At zoom z, with r the
/// zoom's radius, the items of level z+1 are split in two: *standing* items, which represent
/// themselves at zoom z (a cluster's origin, the item it grew from; an item carried unchanged),
/// and *absorbed* ones (every other child of a cluster made at z). A fresh build obeys:
/// - a cluster sits at the count-weighted mean of its children, which are items one zoom deeper,
///   at least two, holding at least `minPoints` points;
/// - every child lies within r of its cluster's origin;
/// - no two standing items lie within r of each other: an origin visited first takes every
///   unassigned item within r, so a later origin or a carried item within r of it cannot exist
///   (with `minPoints` above 2 a carried item may stand near others whose group was too small,
///   so then only origins are checked against each other);
/// - points on one spot are in one item at every zoom up to `maxZoom` (`assertSameSpotTogether`).
/// A live index must obey the same after any changes: a repair that left a freed item standing
/// next to an untouched cluster's origin would show two bubbles where one belongs.
/// Distances allow 2e-7 of slack: the indexes keep Float positions, as supercluster does.
func hierarchicalRuleViolations(_ index: some PointClusterer, options: HierarchicalClusterer.Options,
                                limit: Int = 5) -> [String] {
    let slack = 2e-7
    func xy(_ c: GeoCoordinate) -> (Double, Double) { (WebMercator.x(longitude: c.longitude), WebMercator.y(latitude: c.latitude)) }
    var failures: [String] = []
    func fail(_ message: String) { if failures.count < limit { failures.append(message) } }
    var deeper = index.clusters(in: .world, zoom: Double(options.maxZoom + 1))
    for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
        let r = options.radius / (options.extent * pow(2, Double(z)))
        let items = index.clusters(in: .world, zoom: Double(z))
        let deeperIDs = Set(deeper.map(\.featureID))
        /// Standing items of level z+1: position, whether an origin, and the item's id at zoom z.
        var standing: [(x: Double, y: Double, origin: Bool, id: Int)] = []
        for item in items {
            guard let id = item.clusterID, !deeperIDs.contains(item.featureID) else {
                let (x, y) = xy(item.coordinate)
                standing.append((x, y, false, item.featureID))
                continue
            }
            let kids = index.children(of: id)
            for k in kids where !deeperIDs.contains(k.featureID) { fail("zoom \(z): child \(k.featureID) is not an item at \(z + 1)") }
            if kids.count < 2 || kids.reduce(0, { $0 + $1.count }) < options.minPoints || kids.reduce(0, { $0 + $1.count }) != item.count {
                fail("zoom \(z): cluster \(id.rawValue) has \(kids.count) children holding \(kids.map(\.count)) of its \(item.count) points")
            }
            var sx = 0.0, sy = 0.0
            for k in kids { let (x, y) = xy(k.coordinate); sx += x * Double(k.count); sy += y * Double(k.count) }
            let (x, y) = xy(item.coordinate)
            if abs(sx / Double(item.count) - x) > slack || abs(sy / Double(item.count) - y) > slack {
                fail("zoom \(z): cluster \(id.rawValue) is not at its children's weighted mean")
            }
            guard let origin = kids.first else { continue }
            let (ox, oy) = xy(origin.coordinate)
            standing.append((ox, oy, true, item.featureID))
            for k in kids.dropFirst() {
                let (kx, ky) = xy(k.coordinate)
                if ((kx - ox) * (kx - ox) + (ky - oy) * (ky - oy)).squareRoot() > r + slack {
                    fail("zoom \(z): a child of \(id.rawValue) is farther than the radius from its origin")
                }
            }
        }
        // Standing items keep their distance (sort by x and compare neighbours within r).
        standing.sort { $0.x < $1.x }
        for a in 0..<standing.count {
            var b = a + 1
            while b < standing.count && standing[b].x - standing[a].x < r {
                let s = standing[a], t = standing[b]
                let d = ((t.x - s.x) * (t.x - s.x) + (t.y - s.y) * (t.y - s.y)).squareRoot()
                if d < r - slack && (options.minPoints <= 2 || (s.origin && t.origin)) {
                    func what(_ u: (x: Double, y: Double, origin: Bool, id: Int)) -> String {
                        u.origin ? "the origin of cluster \(u.id)" : "item \(u.id)"
                    }
                    fail("zoom \(z): \(what(s)) and \(what(t)) stand \(d / r) radii apart (one could have absorbed the other)")
                }
                b += 1
            }
        }
        deeper = items
    }
    return failures
}

/// `hierarchicalRuleViolations` as test failures.
func assertHierarchicalRules(_ index: some PointClusterer, options: HierarchicalClusterer.Options,
                             file: StaticString = #filePath, line: UInt = #line) {
    for message in hierarchicalRuleViolations(index, options: options) { XCTFail(message, file: file, line: line) }
}

/// Points on one spot are held by one item at every zoom `minZoom…maxZoom`.
func assertSameSpotTogether(_ index: some PointClusterer, coordinates: [GeoCoordinate], alive: (Int) -> Bool,
                            file: StaticString = #filePath, line: UInt = #line) {
    var spots: [GeoCoordinate: [Int]] = [:]
    for (i, c) in coordinates.enumerated() where alive(i) && c.isValid { spots[c, default: []].append(i) }
    let shared = spots.values.filter { $0.count > 1 }
    guard !shared.isEmpty else { return }
    for z in index.minZoom...index.maxZoom {
        var holder: [Int: Int] = [:]
        for item in index.clusters(in: .world, zoom: Double(z)) {
            if let id = item.clusterID {
                for l in index.leaves(of: id) { holder[l] = item.featureID }
            } else {
                holder[item.featureID] = item.featureID
            }
        }
        for group in shared where Set(group.map { holder[$0] ?? -1 }).count != 1 {
            XCTFail("zoom \(z): points \(group.prefix(4)) on one spot are in different items", file: file, line: line)
            return
        }
    }
}

/// Every item of two indexes at every zoom: kind, exact coordinate, count, expansion zoom, leaves.
func assertSameItems(_ a: some PointClusterer, _ b: some PointClusterer, file: StaticString = #filePath, line: UInt = #line) {
    for z in a.minZoom...(a.maxZoom + 1) {
        let x = a.clusters(in: .world, zoom: Double(z)).sorted { $0.featureID < $1.featureID }
        let y = b.clusters(in: .world, zoom: Double(z)).sorted { $0.featureID < $1.featureID }
        XCTAssertEqual(x.map(\.kind), y.map(\.kind), "zoom \(z) items", file: file, line: line)
        XCTAssertEqual(x.map(\.coordinate), y.map(\.coordinate), "zoom \(z) coordinates", file: file, line: line)
        XCTAssertEqual(x.map(\.count), y.map(\.count), "zoom \(z) counts", file: file, line: line)
        for item in x {
            guard let id = item.clusterID else { continue }
            XCTAssertEqual(a.expansionZoom(of: id), b.expansionZoom(of: id), file: file, line: line)
            XCTAssertEqual(a.leaves(of: id), b.leaves(of: id), file: file, line: line)
        }
    }
}
