import XCTest
@testable import GeoData

/// Coordinate systems (issue 30 item 3): whatever the layer declares comes back as WGS 84
/// longitude/latitude, and the load summary says from what.
final class GDALCoordinateTests: XCTestCase {
    let fx = GDALFixtures()
    lazy var source = fx.write("places.geojson", GDALFixtures.placesGeoJSON)

    func checkPlaces(_ set: PointSet, accuracy: Double = 1e-7, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(set.count, GDALFixtures.places.count, file: file, line: line)
        for (i, p) in GDALFixtures.places.enumerated() where i < set.count {
            XCTAssertEqual(set.coordinates[i].longitude, p.lon, accuracy: accuracy, file: file, line: line)
            XCTAssertEqual(set.coordinates[i].latitude, p.lat, accuracy: accuracy, file: file, line: line)
        }
    }

    func testBritishNationalGrid() throws {
        let gpkg = try fx.convert(source, to: "bng.gpkg", driver: "GPKG", ["-t_srs", "EPSG:27700"])
        let set = try PointSetLoader.load(path: gpkg)
        checkPlaces(set)
        XCTAssertTrue(set.report.messages.contains { $0.contains("EPSG:27700 → WGS 84") }, "\(set.report.messages)")
        XCTAssertTrue(set.report.messages.contains { $0.contains("British National Grid") }, "\(set.report.messages)")
    }

    func testWebMercatorShapefile() throws {
        let shp = try fx.convert(source, to: "merc.shp", driver: "ESRI Shapefile", ["-t_srs", "EPSG:3857"])
        let set = try PointSetLoader.load(path: shp)
        checkPlaces(set)
        XCTAssertTrue(set.report.messages.contains { $0.contains("3857") && $0.contains("→ WGS 84") }, "\(set.report.messages)")
    }

    /// New York Long Island in US survey feet: the unit is the CRS's business, not ours.
    func testUSFeet() throws {
        let ny = fx.write("ny.geojson", """
            {"type":"FeatureCollection","features":[
            {"type":"Feature","properties":{"name":"Empire State"},"geometry":{"type":"Point","coordinates":[-73.98566,40.74844]}},
            {"type":"Feature","properties":{"name":"Liberty"},"geometry":{"type":"Point","coordinates":[-74.0445,40.68925]}}]}
            """)
        let fgb = try fx.convert(ny, to: "ny.fgb", driver: "FlatGeobuf", ["-t_srs", "EPSG:2263"])
        let set = try PointSetLoader.load(path: fgb)
        XCTAssertEqual(set.count, 2)
        let empire = (0..<set.count).first { set.name(at: $0) == "Empire State" }!
        XCTAssertEqual(set.coordinates[empire].longitude, -73.98566, accuracy: 1e-7)
        XCTAssertEqual(set.coordinates[empire].latitude, 40.74844, accuracy: 1e-7)
        XCTAssertTrue(set.report.messages.contains { $0.contains("EPSG:2263 → WGS 84") }, "\(set.report.messages)")
    }

    /// A shapefile without its .prj: degrees load (and the summary says the CRS was assumed);
    /// metres get a clear message instead of points near 0,0.
    func testNoCRS() throws {
        let shp = try fx.convert(source, to: "noprj.shp", driver: "ESRI Shapefile")
        try FileManager.default.removeItem(atPath: fx.path("noprj.prj"))
        let set = try PointSetLoader.load(path: shp)
        checkPlaces(set)
        XCTAssertTrue(set.report.messages.contains { $0.contains("no coordinate system") }, "\(set.report.messages)")

        let bng = try fx.convert(source, to: "bng.shp", driver: "ESRI Shapefile", ["-t_srs", "EPSG:27700"])
        try FileManager.default.removeItem(atPath: fx.path("bng.prj"))
        XCTAssertThrowsError(try PointSetLoader.load(path: bng)) { e in
            let text = "\(e)"
            XCTAssertTrue(text.hasPrefix("bng.shp: "), text)
            XCTAssertTrue(text.contains("no coordinate system") && text.contains("not longitude/latitude"), text)
            XCTAssertTrue(text.contains(".prj"), text)
        }
    }
}
