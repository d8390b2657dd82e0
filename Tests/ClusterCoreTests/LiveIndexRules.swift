import XCTest
import ClusterCore

/// The hierarchical algorithm's rules (SPEC §3.1) checked from the outside on any index with
/// supercluster's structure, zoom by zoom, in projected coordinates:
/// - a cluster sits at the count-weighted mean of its children, which are items one zoom deeper;
/// - every child lies within the zoom's radius of the first child (the item it grew from);
/// - no two items carried unclustered to a zoom lie within its radius of each other (minPoints 2);
/// - points on one spot are in one item at every zoom up to `maxZoom`.
/// Distances allow 2e-7 of slack: the indexes keep Float positions, as supercluster does.
func assertHierarchicalRules(_ index: some PointClusterer, options: HierarchicalClusterer.Options,
                             file: StaticString = #filePath, line: UInt = #line) {
    let slack = 2e-7
    func xy(_ c: GeoCoordinate) -> (Double, Double) { (WebMercator.x(longitude: c.longitude), WebMercator.y(latitude: c.latitude)) }
    var failures = 0
    func fail(_ message: String) {
        failures += 1
        if failures <= 5 { XCTFail(message, file: file, line: line) }
    }
    var deeper = index.clusters(in: .world, zoom: Double(options.maxZoom + 1))
    for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) {
        let r = options.radius / (options.extent * pow(2, Double(z)))
        let items = index.clusters(in: .world, zoom: Double(z))
        let deeperIDs = Set(deeper.map(\.featureID))
        var carried: [(Double, Double)] = []
        for item in items {
            guard let id = item.clusterID else {
                carried.append(xy(item.coordinate))
                continue
            }
            if deeperIDs.contains(item.featureID) {
                carried.append(xy(item.coordinate))
            } else {
                let kids = index.children(of: id)
                for k in kids where !deeperIDs.contains(k.featureID) { fail("zoom \(z): child \(k.featureID) is not an item at \(z + 1)") }
                var sx = 0.0, sy = 0.0
                for k in kids { let (x, y) = xy(k.coordinate); sx += x * Double(k.count); sy += y * Double(k.count) }
                let (x, y) = xy(item.coordinate)
                if abs(sx / Double(item.count) - x) > slack || abs(sy / Double(item.count) - y) > slack {
                    fail("zoom \(z): cluster \(id.rawValue) is not at its children's weighted mean")
                }
                if let origin = kids.first {
                    let (ox, oy) = xy(origin.coordinate)
                    for k in kids.dropFirst() {
                        let (kx, ky) = xy(k.coordinate)
                        if ((kx - ox) * (kx - ox) + (ky - oy) * (ky - oy)).squareRoot() > r + slack {
                            fail("zoom \(z): a child of \(id.rawValue) is farther than the radius from its origin")
                        }
                    }
                }
            }
        }
        // Unclustered items keep their distance (sort by x and compare neighbours within r).
        carried.sort { $0.0 < $1.0 }
        for a in 0..<carried.count {
            var b = a + 1
            while b < carried.count && carried[b].0 - carried[a].0 < r {
                let dx = carried[b].0 - carried[a].0, dy = carried[b].1 - carried[a].1
                if (dx * dx + dy * dy).squareRoot() < r - slack { fail("zoom \(z): two unclustered items within the radius") }
                b += 1
            }
        }
        deeper = items
    }
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
