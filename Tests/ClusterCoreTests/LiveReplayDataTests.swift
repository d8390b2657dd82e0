import XCTest
import Foundation
@testable import ClusterCore

/// The replay demo's pattern on its own data: the bundled earthquakes added in date order, a
/// batch per step, into an empty index with the app's options; the rules hold at every zoom.
final class LiveReplayDataTests: XCTestCase {
    func testTheEarthquakeReplayKeepsTheRules() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/points/earthquakes_usgs_1965_2016.csv").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var rows: [(date: Substring, c: GeoCoordinate, mag: Double)] = []
        var header: [Substring] = []
        for line in text.split(separator: "\n") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            if header.isEmpty { header = f; continue }
            guard let d = header.firstIndex(of: "date"), let la = header.firstIndex(of: "lat"),
                  let lo = header.firstIndex(of: "lon"), let m = header.firstIndex(of: "mag"), f.count > max(d, la, lo, m),
                  let lat = Double(f[la]), let lon = Double(f[lo]) else { continue }
            rows.append((f[d].prefix(10), GeoCoordinate(latitude: lat, longitude: lon), Double(f[m]) ?? .nan))
        }
        rows.sort { $0.date < $1.date }
        let app = HierarchicalClusterer.Options(minZoom: 0, maxZoom: 18, minPoints: 2, radius: 60, extent: 256, nodeSize: 64)
        let index = LiveClusterIndex(points: [], options: app)
        var k = 0
        while k < min(rows.count, 16_000) {
            let end = min(k + 160, rows.count)
            index.apply(PointChanges(additions: rows[k..<end].map(\.c)), values: rows[k..<end].map(\.mag))
            k = end
        }
        XCTAssertEqual(k, 16_000)
        XCTAssertEqual(hierarchicalRuleViolations(index, options: app), [])
        // Every cluster knows its members' largest magnitude (the app colours bubbles by it).
        for z in 0...app.maxZoom {
            for item in index.clusters(in: .world, zoom: Double(z)) where item.isCluster {
                let agg = index.aggregates(of: item)
                XCTAssertEqual(agg.count, item.count, "zoom \(z)")
                XCTAssertNotNil(agg.maximum, "zoom \(z): cluster of \(item.count) without its maximum")
                if agg.maximum == nil { return }
            }
        }
        let fresh = LiveClusterIndex(points: rows[0..<k].map(\.c), options: app)
        XCTAssertEqual(hierarchicalRuleViolations(fresh, options: app), [])
        for z in 0...app.maxZoom {
            let a = index.itemCount(atZoom: z), b = fresh.itemCount(atZoom: z)
            XCTAssertLessThanOrEqual(a, b + b / 10 + 2, "zoom \(z): \(a) items live, \(b) in a fresh build")
        }
    }
}
