import XCTest
@testable import GeoData

/// GeoJSON → GeoPackage / Shapefile / FlatGeobuf / KML / GPX with ogr2ogr → ClusterMap's GDAL
/// reader gives the same coordinates (1e-7°) and the properties each format keeps (issue 30 item 9).
final class GDALRoundTripTests: XCTestCase {
    let fx = GDALFixtures()
    lazy var source = fx.write("places.geojson", GDALFixtures.placesGeoJSON)

    /// Loads `path` and checks the five places' coordinates by name (FlatGeobuf's spatial index
    /// reorders features).
    func loadPlaces(_ path: String, file: StaticString = #filePath, line: UInt = #line) throws -> PointSet {
        let set = try PointSetLoader.load(path: path)
        XCTAssertEqual(set.format, .gdal, file: file, line: line)
        XCTAssertEqual(set.count, GDALFixtures.places.count, file: file, line: line)
        for p in GDALFixtures.places {
            guard let i = index(set, p.name) else { XCTFail("\(p.name) missing", file: file, line: line); continue }
            XCTAssertEqual(set.coordinates[i].longitude, p.lon, accuracy: 1e-7, file: file, line: line)
            XCTAssertEqual(set.coordinates[i].latitude, p.lat, accuracy: 1e-7, file: file, line: line)
        }
        return set
    }

    func index(_ set: PointSet, _ name: String) -> Int? { (0..<set.count).first { set.name(at: $0) == name } }

    /// The properties of the place called `name`, keys lower-cased.
    func props(_ set: PointSet, _ name: String) -> [String: PropertyValue] {
        guard let i = index(set, name) else { return [:] }
        return Dictionary(set.properties(at: i).map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
    }

    /// GeoPackage keeps every type: integers, reals, dates and UTC date-times (through its Arrow stream).
    func testGeoPackageKeepsTypedProperties() throws {
        let set = try loadPlaces(try fx.convert(source, to: "places.gpkg", driver: "GPKG"))
        for p in GDALFixtures.places {
            let v = props(set, p.name)
            XCTAssertEqual(v["count"], .number(Double(p.count)))
            XCTAssertEqual(v["score"], .number(p.score))
            XCTAssertEqual(v["day"], .date(p.day))
            XCTAssertEqual(v["when"], .date(p.when))
        }
        XCTAssertTrue(set.report.warnings.isEmpty, "WGS 84 data needs no remark: \(set.report.warnings)")
    }

    /// FlatGeobuf has date-times only (a date becomes midnight); their zone (UTC) is kept although
    /// GDAL 3.6's Arrow stream drops it (`markUTCDateTimes`).
    func testFlatGeobufKeepsNumbersAndDateTimes() throws {
        let set = try loadPlaces(try fx.convert(source, to: "places.fgb", driver: "FlatGeobuf"))
        for p in GDALFixtures.places {
            let v = props(set, p.name)
            XCTAssertEqual(v["count"], .number(Double(p.count)))
            XCTAssertEqual(v["score"], .number(p.score))
            XCTAssertEqual(v["day"], .date(p.day + "T00:00:00"))
            XCTAssertEqual(v["when"], .date(p.when))
        }
    }

    func testShapefileKeepsNumbersAndDates() throws {
        let shp = try fx.convert(source, to: "places.shp", driver: "ESRI Shapefile")
        let set = try loadPlaces(shp)
        for p in GDALFixtures.places {
            let v = props(set, p.name)
            XCTAssertEqual(v["count"], .number(Double(p.count)))
            XCTAssertEqual(v["score"], .number(p.score))
            XCTAssertEqual(v["day"], .date(p.day))
        }
        // Zipped, the same.
        let zipped = try fx.convert(source, to: "zipped.shp.zip", driver: "ESRI Shapefile")
        XCTAssertEqual(try loadPlaces(zipped).count, 5)
        try fx.run("zip", ["-q", "council.zip", "places.shp", "places.shx", "places.dbf", "places.prj"])
        XCTAssertEqual(try loadPlaces(fx.path("council.zip")).count, 5)
    }

    func testKMLKMZAndGPXKeepNamesAndCoordinates() throws {
        _ = try loadPlaces(try fx.convert(source, to: "places.kml", driver: "KML"))
        _ = try loadPlaces(try fx.convert(source, to: "places.kmz", driver: "LIBKML"))
        let gpx = try loadPlaces(try fx.convert(source, to: "places.gpx", driver: "GPX"))
        XCTAssertEqual(gpx.sourceName, "places.gpx")
    }

    func testGMLSpatiaLiteMapInfoAndFileGeodatabase() throws {
        _ = try loadPlaces(try fx.convert(source, to: "places.gml", driver: "GML"))
        _ = try loadPlaces(try fx.convert(source, to: "places.sqlite", driver: "SQLite", ["-dsco", "SPATIALITE=YES"]))
        _ = try loadPlaces(try fx.convert(source, to: "places.tab", driver: "MapInfo File"))
        _ = try loadPlaces(try fx.convert(source, to: "places.gdb", driver: "OpenFileGDB"))
    }

    func testCSVWithWKTColumnGoesToGDAL() throws {
        let csv = try fx.convert(source, to: "wkt.csv", driver: "CSV", ["-lco", "GEOMETRY=AS_WKT"])
        let set = try loadPlaces(csv)
        XCTAssertEqual(props(set, "Trafalgar")["count"], .number(12))
        // Our own reader stays the default for a CSV with coordinate columns.
        let own = try PointSetLoader.load(path: fx.write("own.csv", "name,lat,lon\nA,51.5,-0.12\n"))
        XCTAssertEqual(own.format, .csv)
    }

    /// An `id` property becomes the GeoPackage's feature id: the layer has no attribute columns
    /// at all, only its geometry (the benchmark's 1M-point file is like this).
    func testGeoPackageWithOnlyGeometry() throws {
        let src = fx.write("ids.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"id":0},"geometry":{"type":"Point","coordinates":[23.9621671,39.3250812]}},
            {"type":"Feature","properties":{"id":1},"geometry":{"type":"Point","coordinates":[169.5609913,-8.9025253]}}]}
            """)
        let set = try PointSetLoader.load(path: try fx.convert(src, to: "ids.gpkg", driver: "GPKG"))
        XCTAssertEqual(set.count, 2, "\(set.report.messages)")
        XCTAssertEqual(set.coordinates.last?.longitude ?? .nan, 169.5609913, accuracy: 1e-7)
    }

    /// TopoJSON is JSON but not GeoJSON: our reader says so, GDAL reads it.
    func testTopoJSONFallsBackToGDAL() throws {
        let topo = fx.write("topo.json", """
            {"type":"Topology","arcs":[],"objects":{"places":{"type":"GeometryCollection","geometries":[
             {"type":"Point","coordinates":[-0.1275,51.5072],"properties":{"name":"Trafalgar"}}]}}}
            """)
        let set = try PointSetLoader.load(path: topo)
        XCTAssertEqual(set.format, .gdal)
        XCTAssertEqual(set.count, 1)
        guard set.count == 1 else { return }
        XCTAssertEqual(set.name(at: 0), "Trafalgar")
        XCTAssertEqual(set.coordinates[0].latitude, 51.5072, accuracy: 1e-7)
        // JSON nobody reads keeps our reader's message.
        let other = fx.write("other.json", "{\"hello\":[1,2,3]}")
        XCTAssertThrowsError(try PointSetLoader.load(path: other)) { e in
            XCTAssertEqual((e as? GeoDataError)?.kind, .notGeoJSON, "\(e)")
        }
    }

    func testGeoJSONStaysWithOurReader() throws {
        XCTAssertEqual(try PointSetLoader.load(path: source).format, .geoJSON)
    }
}
