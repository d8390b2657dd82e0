import ClusterCore
import Foundation
@testable import GeoData
import XCTest

final class BaseMapScannerTests: XCTestCase {
    func testCoarseCountsFromDataFiles() {
        let m = BaseMaps.coarse
        XCTAssertEqual(m.level, .coarse)
        XCTAssertEqual(m.land.featureCount, 127)
        XCTAssertEqual(m.lakes.featureCount, 25)
        XCTAssertEqual(m.coastlines.featureCount, 134)
        XCTAssertEqual(m.borders.featureCount, 186)
        XCTAssertEqual(m.land.vertexCount, 5143)
        XCTAssertEqual(m.coastlines.vertexCount, 5128)
        XCTAssertEqual(m.borders.vertexCount, 2833)
        XCTAssertEqual(m.lakes.vertexCount, 489)
        XCTAssertEqual(m.coastlines.ringCount, 134, "one line string per feature")
        XCTAssertEqual(m.land.skippedFeatureCount, 0)
    }

    func testDetailedCountsFromDataFiles() {
        let m = BaseMaps.detailed
        XCTAssertEqual(m.land.featureCount, 1420)
        XCTAssertEqual(m.lakes.featureCount, 405)
        XCTAssertEqual(m.coastlines.featureCount, 1428)
        XCTAssertEqual(m.borders.featureCount, 361)
        XCTAssertEqual(m.land.vertexCount, 60669)
        XCTAssertEqual(m.coastlines.vertexCount, 60416)
        XCTAssertEqual(m.borders.vertexCount, 19802)
        XCTAssertGreaterThan(m.land.ringCount, m.land.featureCount, "the MultiPolygon and holes add rings")
        XCTAssertGreaterThan(m.coastlines.ringCount, m.coastlines.featureCount, "the MultiLineString adds rings")
    }

    func testCoordinatesAreProjectedAndClamped() {
        let land = BaseMaps.coarse.land
        let b = land.bounds
        XCTAssertEqual(b.minX, 0, accuracy: 1e-9)
        XCTAssertEqual(b.maxX, 1, accuracy: 1e-9)
        XCTAssertEqual(b.maxY, 1, accuracy: 1e-12, "Antarctica reaches −90°, clamped to the Mercator edge")
        XCTAssertGreaterThan(b.minY, 0)
        for v in stride(from: 0, to: land.coordinates.count, by: 2) {
            XCTAssert((0...1).contains(land.coordinates[v]) && (0...1).contains(land.coordinates[v + 1]))
        }
        // Feature boxes contain their vertices.
        for f in 0..<land.featureCount {
            let fb = land.featureBounds[f]
            for r in land.rings(ofFeature: f) {
                for v in land.vertices(ofRing: r) {
                    XCTAssert(fb.minX <= land.coordinates[2 * v] && land.coordinates[2 * v] <= fb.maxX)
                }
            }
        }
    }

    func testNullGeometryAndMixedTypes() throws {
        let json = """
        {"type":"FeatureCollection","name":"x","features":[
          {"type":"Feature","properties":{"name":"a \\"quoted\\" [name]","geometry":{"coordinates":[[9,9]]}},"geometry":null},
          {"type":"Feature","geometry":{"coordinates":[[0,0],[90,45.5e0],[180,-90,12.5]],"type":"LineString"}},
          {"type":"Feature","properties":null,"geometry":{"type":"MultiLineString","coordinates":[[[1,1],[2,2]],[[3,3]],[[-1.5E1,0],[-20,0]]]}},
          {"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}},
          {"type":"Feature","geometry":{"type":"LineString","coordinates":[]}}
        ]}
        """
        let layer = try BaseMapScanner.parse(json, kind: .lines)
        XCTAssertEqual(layer.featureCount, 2)
        XCTAssertEqual(layer.skippedFeatureCount, 3, "null, Point and empty")
        XCTAssertEqual(layer.ringCount, 3, "the one-point line is dropped")
        XCTAssertEqual(layer.vertexCount, 7)
        XCTAssertEqual(layer.coordinates[0], 0.5)
        XCTAssertEqual(layer.coordinates[2], 0.75)
        XCTAssertEqual(layer.coordinates[4], 1)
        XCTAssertEqual(layer.coordinates[5], 1, "−90° clamps to the bottom edge")
        XCTAssertEqual(layer.coordinates[2 * 5], -15.0 / 360 + 0.5, accuracy: 1e-15)
    }

    func testRiversExcerptWithNullGeometry() throws {
        // Four features of Natural Earth's 50m rivers (not shipped in data/), including its one
        // feature with "geometry": null (the Loire), which must be skipped and counted.
        // (The fixture stays with MapRenderTests' fixtures: a data file in this target's folder
        // would need an `exclude` in Package.swift.)
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("MapRenderTests/Fixtures/ne_50m_rivers_excerpt.geojson")
        let layer = try BaseMapScanner.parse(try Data(contentsOf: url), kind: .lines)
        XCTAssertEqual(layer.featureCount, 3)
        XCTAssertEqual(layer.skippedFeatureCount, 1)
    }

    func testMalformedInputThrowsWithOffset() {
        for bad in ["", "{", #"{"features":[{"geometry":{"type":"LineString","coordinates":[[1,2],[3,]]}}]}"#,
                    #"{"features":[{"geometry":{"type":"LineString","coordinates":[[1,2],[3,4]"#] {
            XCTAssertThrowsError(try BaseMapScanner.parse(bad, kind: .lines), bad) { error in
                XCTAssertTrue("\(error)".contains("at byte"), "\(error)")
            }
        }
    }

    func testNumbers() throws {
        let json = #"{"features":[{"geometry":{"type":"LineString","coordinates":[[-179.99999999999997,0.000001],[1e2,-0]]}}]}"#
        let layer = try BaseMapScanner.parse(json, kind: .lines)
        XCTAssertEqual(layer.coordinates[0], -179.99999999999997 / 360 + 0.5, accuracy: 1e-15)
        XCTAssertEqual(layer.coordinates[2], 100.0 / 360 + 0.5, accuracy: 1e-15)
    }

    func testLoadErrorNamesTheFile() {
        XCTAssertThrowsError(try BaseMap.load(level: .coarse, dataDirectory: URL(fileURLWithPath: "/nonexistent"))) {
            XCTAssertTrue("\($0)".contains("ne_110m_land.geojson"))
        }
    }
}

/// The repository's base maps, loaded once per test process.
private enum BaseMaps {
    static let dataDirectory = URL(fileURLWithPath: repositoryDataDirectory)
    static let coarse: BaseMap = try! BaseMap.load(level: .coarse, dataDirectory: dataDirectory)
    static let detailed: BaseMap = try! BaseMap.load(level: .detailed, dataDirectory: dataDirectory)
}
