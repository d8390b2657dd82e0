import XCTest
@testable import GeoData

/// GeoJSON's lines, polygons and collections are shown at a point on them by the same rule as a
/// file read through GDAL (SPEC §4.1), counted and said in the same words; feature numbers in
/// messages count from 1 in both readers.
final class GeoJSONPlacementTests: XCTestCase {
    let fx = GDALFixtures()

    static let mixed = collection(
        pointFeature("1", "2"),
        // A square with a square hole: its centroid (5, 5) is in the hole, so "inside" is tested.
        #"{"type":"Feature","properties":{"k":1},"geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[8,2],[8,8],[2,8],[2,2]]]}}"#,
        #"{"type":"Feature","properties":{},"geometry":null}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[0,0],[2,0],[2,4]]}}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"MultiPolygon","coordinates":[[[[20,20],[21,20],[21,21],[20,21],[20,20]]],[[[30,30],[31,30],[31,31],[30,30]]]]}}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"MultiLineString","coordinates":[[[0,0],[1,0]],[[5,5],[5,9]]]}}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"Point","coordinates":[40,40]},{"type":"LineString","coordinates":[[41,41],[42,42]]}]}}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[500,0],[501,0],[501,1],[500,0]]]}}"#,
        #"{"type":"Feature","properties":{},"geometry":{"type":"MultiPoint","coordinates":[[3,3],[4,4]]}}"#)

    func testNonPointsArePlacedAsThroughGDAL() throws {
        let path = fx.write("mixed.geojson", GeoJSONPlacementTests.mixed)
        let ours = try PointSetLoader.load(path: path)
        let viaGDAL = try XCTUnwrap(GDALReader.load(path: path, name: "mixed.geojson", options: LoadOptions(),
                                                    progress: nil, isCancelled: nil).first)
        XCTAssertEqual(ours.count, 8)   // 1 + polygon + line + multipolygon + multiline + collection + 2 of the MultiPoint
        XCTAssertEqual(ours.count, viaGDAL.count)
        XCTAssertEqual(ours.sourcePositions, viaGDAL.sourcePositions)
        for i in 0..<min(ours.count, viaGDAL.count) {
            XCTAssertEqual(ours.coordinates[i].longitude, viaGDAL.coordinates[i].longitude, accuracy: 1e-9, "\(i)")
            XCTAssertEqual(ours.coordinates[i].latitude, viaGDAL.coordinates[i].latitude, accuracy: 1e-9, "\(i)")
        }
        XCTAssertEqual(ours.report.placed, LoadReport.Placed(lines: 2, polygons: 2, others: 1))
        XCTAssertEqual(ours.report.placed, viaGDAL.report.placed)
        let said = [
            "1 feature skipped: coordinates out of range (feature 8)",
            "1 feature skipped: null geometry (feature 3)",
            "2 polygons shown at a point inside each",
            "2 lines shown at their middle",
            "1 other geometry shown at a point on each",
        ]
        XCTAssertEqual(ours.report.messages, said)
        XCTAssertEqual(viaGDAL.report.messages, said)
        // The rule itself: a line's middle along its length, the longest part of a multi-line,
        // a point inside the polygon (not in its hole), the properties kept.
        let at = Dictionary(grouping: ours.coordinates.indices, by: { ours.sourcePositions[$0] })
        let line = ours.coordinates[at[3]![0]]
        XCTAssertEqual(line.longitude, 2, accuracy: 1e-12)
        XCTAssertEqual(line.latitude, 1, accuracy: 1e-12)
        let multiLine = ours.coordinates[at[5]![0]]
        XCTAssertEqual(multiLine.longitude, 5, accuracy: 1e-12)
        XCTAssertEqual(multiLine.latitude, 7, accuracy: 1e-12)
        let inside = ours.coordinates[at[1]![0]]
        XCTAssertTrue((0...10).contains(inside.longitude) && (0...10).contains(inside.latitude), "\(inside)")
        XCTAssertFalse((2...8).contains(inside.longitude) && (2...8).contains(inside.latitude), "in the hole: \(inside)")
        XCTAssertEqual(ours.propertiesJSON(at: at[1]![0]), #"{"k":1}"#)
    }

    /// The same in the parallel scan (a big file's features read on every core).
    func testParallelScanPlacesTheSame() throws {
        let features = (0..<300).map { i -> String in
            i % 3 == 0 ? pointFeature("\(i % 90)", "1")
                : #"{"type":"Feature","properties":{"i":\#(i)},"geometry":{"type":"LineString","coordinates":[[\#(i % 90),0],[\#(i % 90),2]]}}"#
        }
        let bytes = Array(("{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",\n") + "]}").utf8)
        let one = try PointSetLoader.load(bytes: bytes, name: "lines.geojson")
        let many = try PointSetLoader.load(buffer: FileBuffer(bytes: bytes), name: "lines.geojson", format: .geoJSON,
                                           options: LoadOptions(), progress: nil, isCancelled: nil,
                                           split: ParallelScan.Options(threads: 4, minimumBytes: 0, chunkBytes: 1024))
        XCTAssertEqual(one.count, 300)
        XCTAssertEqual(one.report.placed.lines, 200)
        XCTAssertEqual(many.report.placed, one.report.placed)
        XCTAssertEqual(many.coordinates, one.coordinates)
        XCTAssertEqual(many.report.messages, ["200 lines shown at their middle"])
    }

    /// Positions in messages count from 1 ("feature 1" is the first); the error's index stays 0-based.
    func testFeatureNumbersCountFromOne() throws {
        let set = try load(collection(#"{"type":"Feature","properties":{},"geometry":null}"#, pointFeature("1", "1"),
                                      #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[]}}"#))
        XCTAssertEqual(set.report.messages, ["1 feature skipped: no coordinates (feature 3)",
                                             "1 feature skipped: null geometry (feature 1)"])
        let e = try XCTUnwrap(loadError(collection(pointFeature("1", "1"), pointFeature("1", "x"))))
        XCTAssertEqual(e.featureIndex, 1)
        XCTAssertTrue(e.description.contains("feature 2:"), e.description)
    }
}
