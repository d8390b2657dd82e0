import Foundation
import XCTest
@testable import GeoData

/// Douglas–Peucker on base-map layers: fewer vertices, none further than the tolerance from the
/// result, ends kept, rings smaller than the tolerance dropped with their features' columns.
final class BaseMapSimplifyTests: XCTestCase {
    func lineLayer(_ points: [(Double, Double)]) throws -> BaseMapLayer {
        // Unit coordinates (x, y) back to lon/lat for the GeoJSON the scanner reads.
        let list = points.map { p -> String in
            let lat = atan(sinh(.pi * (1 - 2 * p.1))) * 180 / .pi
            return "[\((p.0 - 0.5) * 360), \(lat)]"
        }.joined(separator: ",")
        let json = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"min_zoom":3},"#
            + #""geometry":{"type":"LineString","coordinates":[\#(list)]}}]}"#
        return try BaseMapScanner.parse(json, kind: .lines, properties: ["min_zoom"])
    }

    func testAWigglyLineKeepsItsEndsAndStaysWithinTheTolerance() throws {
        var points: [(Double, Double)] = []
        for i in 0...400 { points.append((0.4 + Double(i) * 0.0005, 0.5 + 0.00002 * sin(Double(i)) + (i == 200 ? 0.01 : 0))) }
        let layer = try lineLayer(points)
        let tolerance = 0.0001
        let s = layer.simplified(tolerance: tolerance)
        XCTAssertLessThan(s.vertexCount, 20)
        XCTAssertEqual(s.featureCount, 1)
        XCTAssertEqual(s.number("min_zoom", feature: 0), 3)
        XCTAssertEqual(s.coordinates[0], layer.coordinates[0], accuracy: 1e-12)
        XCTAssertEqual(s.coordinates[s.coordinates.count - 2], layer.coordinates[layer.coordinates.count - 2], accuracy: 1e-12)
        // The spike at i = 200 survives.
        XCTAssertTrue(stride(from: 1, to: s.coordinates.count, by: 2).contains { abs(s.coordinates[$0] - layer.coordinates[401]) < 1e-9 })
        // Every original vertex lies within the tolerance of the simplified polyline.
        for v in 0..<layer.vertexCount {
            let px = layer.coordinates[2 * v], py = layer.coordinates[2 * v + 1]
            var best = Double.infinity
            for k in 0..<(s.vertexCount - 1) {
                let ax = s.coordinates[2 * k], ay = s.coordinates[2 * k + 1], bx = s.coordinates[2 * k + 2], by = s.coordinates[2 * k + 3]
                let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
                let t = len2 == 0 ? 0 : max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / len2))
                best = min(best, hypot(px - ax - t * dx, py - ay - t * dy))
            }
            XCTAssertLessThanOrEqual(best, tolerance * 1.0001, "vertex \(v)")
        }
        XCTAssertFalse(s.chunkBounds.isEmpty, "a simplified layer is ready for chunked painting")
    }

    func testPolygonsSmallerThanTheToleranceAreDropped() throws {
        let json = #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","properties":{"min_zoom":1},"geometry":{"type":"Polygon","coordinates":[[[0,0],[0.001,0],[0.001,0.001],[0,0.001],[0,0]]]}},"#
            + #"{"type":"Feature","properties":{"min_zoom":2},"geometry":{"type":"Polygon","coordinates":[[[10,10],[20,10],[20,20],[10,20],[10,10]]]}}]}"#
        let layer = try BaseMapScanner.parse(json, kind: .polygons, properties: ["min_zoom"])
        let s = layer.simplified(tolerance: 0.001)
        XCTAssertEqual(s.featureCount, 1)
        XCTAssertEqual(s.number("min_zoom", feature: 0), 2, "columns follow the kept features")
        XCTAssertEqual(s.vertexCount, 5)
    }
}
