import XCTest
import ClusterCore
@testable import GeoData

/// Several layers, lines and polygons, Multi* and Z/M (issue 30 items 4 and 5).
final class GDALLayerTests: XCTestCase {
    let fx = GDALFixtures()

    func testThreeTablesAreThreeNamedSets() throws {
        let source = fx.write("places.geojson", GDALFixtures.placesGeoJSON)
        let gpkg = fx.path("city.gpkg")
        try fx.run("ogr2ogr", ["-f", "GPKG", gpkg, source, "-nln", "cafes"])
        try fx.run("ogr2ogr", ["-update", gpkg, source, "-nln", "pubs", "-limit", "2"])
        try fx.run("ogr2ogr", ["-update", gpkg, source, "-nln", "parks", "-limit", "3"])
        let sets = try PointSetLoader.loadLayers(path: gpkg)
        XCTAssertEqual(sets.map(\.sourceName), ["city.gpkg · cafes", "city.gpkg · pubs", "city.gpkg · parks"])
        XCTAssertEqual(sets.map(\.count), [5, 2, 3])
        // One set wanted (command line): the first, saying what else there is.
        let one = try PointSetLoader.load(path: gpkg)
        XCTAssertEqual(one.count, 5)
        XCTAssertTrue(one.report.messages.contains { $0.contains("city.gpkg · pubs") }, "\(one.report.messages)")
    }

    /// A GPX's waypoints and track points are two sets; its empty layers (routes…) are none.
    func testGPXWaypointsAndTrackPoints() throws {
        let gpx = fx.write("walk.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
            <wpt lat="51.5" lon="-0.12"><name>Start</name></wpt>
            <wpt lat="51.51" lon="-0.11"><name>End</name></wpt>
            <trk><name>Walk</name><trkseg>
            <trkpt lat="51.5" lon="-0.12"><ele>10</ele><time>2024-05-01T10:00:00Z</time></trkpt>
            <trkpt lat="51.505" lon="-0.115"><ele>12</ele><time>2024-05-01T10:05:00Z</time></trkpt>
            <trkpt lat="51.51" lon="-0.11"><ele>11</ele><time>2024-05-01T10:10:00Z</time></trkpt>
            </trkseg></trk></gpx>
            """)
        let sets = try PointSetLoader.loadLayers(path: gpx)
        XCTAssertEqual(sets.map(\.sourceName), ["walk.gpx · waypoints", "walk.gpx · tracks", "walk.gpx · track_points"])
        XCTAssertEqual(sets.map(\.count), [2, 1, 3])
        // The track is one line, shown at its middle, and said.
        XCTAssertEqual(sets[1].coordinates[0].latitude, 51.505, accuracy: 1e-6)
        XCTAssertTrue(sets[1].report.messages.contains("1 line shown at its middle"), "\(sets[1].report.messages)")
        let p = Dictionary(sets[2].properties(at: 1).map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(p["ele"], .number(12))
        XCTAssertEqual(p["time"], .date("2024-05-01T10:05:00Z"))
    }

    func testLinesPolygonsMultiAndZM() throws {
        let src = fx.write("shapes.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"k":"line"},"geometry":{"type":"LineString","coordinates":[[0,0],[2,0],[2,2]]}},
            {"type":"Feature","properties":{"k":"multiline"},"geometry":{"type":"MultiLineString","coordinates":[[[10,10],[10,11]],[[20,0],[24,0]]]}},
            {"type":"Feature","properties":{"k":"square"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[4,0],[4,4],[0,4],[0,0]]]}},
            {"type":"Feature","properties":{"k":"ring"},"geometry":{"type":"Polygon","coordinates":[[[0,0],[10,0],[10,10],[0,10],[0,0]],[[2,2],[8,2],[8,8],[2,8],[2,2]]]}},
            {"type":"Feature","properties":{"k":"multipoint z"},"geometry":{"type":"MultiPoint","coordinates":[[1,1,5],[3,3,6]]}},
            {"type":"Feature","properties":{"k":"none"},"geometry":null}]}
            """)
        let gpkg = try fx.convert(src, to: "shapes.gpkg", driver: "GPKG")
        for path in [gpkg, try fx.convert(src, to: "shapes.fgb", driver: "FlatGeobuf"), try fx.convert(src, to: "shapes.gml", driver: "GML")] {
            let set = try PointSetLoader.load(path: path)
            var at: [String: [GeoCoordinate]] = [:]
            for i in 0..<set.count {
                if case .string(let k)? = set.properties(at: i).first(where: { $0.key == "k" })?.value { at[k, default: []].append(set.coordinates[i]) }
            }
            XCTAssertEqual(at["line"]?.first?.longitude ?? .nan, 2, accuracy: 1e-9, path)   // half of 4 along [0,0]→[2,0]→[2,2]
            XCTAssertEqual(at["line"]?.first?.latitude ?? .nan, 0, accuracy: 1e-9, path)
            XCTAssertEqual(at["multiline"]?.first?.longitude ?? .nan, 22, accuracy: 1e-9, path)   // the longest part
            let sq = at["square"]?.first ?? GeoCoordinate(latitude: -1, longitude: -1)
            XCTAssertTrue(sq.longitude > 0 && sq.longitude < 4, path)
            XCTAssertTrue(sq.latitude > 0 && sq.latitude < 4, path)
            // The point is inside the ring, not in its hole.
            let r = at["ring"]?.first ?? GeoCoordinate(latitude: 5, longitude: 5)
            let inHole: Bool = r.longitude > 2 && r.longitude < 8 && r.latitude > 2 && r.latitude < 8
            let inSquare: Bool = r.longitude >= 0 && r.longitude <= 10 && r.latitude >= 0 && r.latitude <= 10
            XCTAssertTrue(inSquare && !inHole, "\(path) \(r)")
            XCTAssertEqual(at["multipoint z"]?.count, 2, path)
            XCTAssertEqual(set.count, 6, path)
            // (FlatGeobuf's writer drops a feature without geometry: it has a spatial index.)
            if !path.hasSuffix(".fgb") { XCTAssertEqual(set.report.skips[.nullGeometry]?.count, 1, path) }
            XCTAssertTrue(set.report.messages.contains("2 polygons shown at a point inside each"), "\(set.report.messages)")
            XCTAssertTrue(set.report.messages.contains("2 lines shown at their middle"), "\(set.report.messages)")
        }
    }
}
