import XCTest
@testable import GeoData

/// Honest errors (issue 30 item 8): a message naming the file and what is wrong, GDAL's own
/// words captured (one line, no control characters), never a crash.
final class GDALErrorTests: XCTestCase {
    let fx = GDALFixtures()
    lazy var source = fx.write("places.geojson", GDALFixtures.placesGeoJSON)

    /// The error loading `path` throws, as its one-line text.
    func errorText(_ path: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        do {
            let sets = try PointSetLoader.loadLayers(path: path)
            XCTFail("loaded \(sets.map(\.count)) points", file: file, line: line)
            return ""
        } catch let e as GeoDataError {
            let text = "\(e)"
            XCTAssertFalse(text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "control characters: \(text)", file: file, line: line)
            XCTAssertFalse(text.contains(fx.dir), "the full path is not repeated: \(text)", file: file, line: line)
            return text
        } catch {
            XCTFail("unexpected \(error)", file: file, line: line)
            return ""
        }
    }

    func testTruncatedGeoPackage() throws {
        // Enough features that the file has several pages, then cut in half.
        var big = "{\"type\":\"FeatureCollection\",\"features\":["
        for i in 0..<3000 {
            if i > 0 { big += "," }
            big += "{\"type\":\"Feature\",\"properties\":{\"n\":\(i),\"t\":\"place number \(i)\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(Double(i % 360) - 180 + 0.5),\(Double(i % 170) - 85 + 0.25)]}}"
        }
        let src = fx.write("big.geojson", big + "]}")
        let gpkg = try fx.convert(src, to: "cut.gpkg", driver: "GPKG")
        let data = try Data(contentsOf: URL(fileURLWithPath: gpkg))
        try data.prefix(data.count / 2).write(to: URL(fileURLWithPath: gpkg))
        let text = errorText(gpkg)
        XCTAssertTrue(text.hasPrefix("cut.gpkg: "), text)
        XCTAssertTrue(text.contains("damaged or truncated") || text.contains("cannot read"), text)
    }

    /// Without its .dbf a shapefile still has its geometry (QGIS opens it too): the places load,
    /// without attributes, and the load summary says why. (Without .prj: `GDALCoordinateTests.testNoCRS`.)
    func testShapefileWithoutDBF() throws {
        let shp = try fx.convert(source, to: "lights.shp", driver: "ESRI Shapefile")
        try FileManager.default.removeItem(atPath: fx.path("lights.dbf"))
        let set = try PointSetLoader.load(path: shp)
        XCTAssertEqual(set.count, 5)
        XCTAssertTrue(set.properties(at: 0).isEmpty)
        XCTAssertTrue(set.report.messages.contains("no .dbf file beside it: the places have no attributes"), "\(set.report.messages)")
        // Without its .shx as well as its .dbf, GDAL can't read it: a message naming the file.
        try FileManager.default.removeItem(atPath: fx.path("lights.shx"))
        XCTAssertTrue(errorText(shp).hasPrefix("lights.shp: "))
    }

    func testKMZWithoutKML() throws {
        // A zip that holds a text file, named .kmz.
        fx.write("readme.txt", "not a map\n")
        try fx.run("zip", ["-q", "empty.kmz", "readme.txt"])
        let text = errorText(fx.path("empty.kmz"))
        XCTAssertEqual(text, "empty.kmz: is a KMZ that holds no KML document")
    }

    func testUnsupportedFile() throws {
        let path = fx.write("notes.gpkg", "these are my notes\u{1B}[31m, not a GeoPackage\n")
        let text = errorText(path)
        XCTAssertTrue(text.hasPrefix("notes.gpkg: "), text)
        XCTAssertTrue(text.contains("not a map data file") || text.contains("cannot be read"), text)
    }

    func testPasswordProtectedZip() throws {
        _ = try fx.convert(source, to: "secret.shp", driver: "ESRI Shapefile")
        try fx.run("zip", ["-q", "-P", "hunter2", "secret.zip", "secret.shp", "secret.shx", "secret.dbf", "secret.prj"])
        let text = errorText(fx.path("secret.zip"))
        XCTAssertTrue(text.hasPrefix("secret.zip: "), text)
        XCTAssertTrue(text.contains("password"), text)
    }

    func testMissingFileAndEmptyFolder() throws {
        XCTAssertTrue(errorText(fx.path("gone.gpkg")).hasPrefix("gone.gpkg: cannot open the file"))
        let gdb = fx.path("empty.gdb")
        try FileManager.default.createDirectory(atPath: gdb, withIntermediateDirectories: true)
        XCTAssertTrue(errorText(gdb).hasPrefix("empty.gdb: "))
    }

    /// A GeoPackage whose only table has no features.
    func testNoFeatures() throws {
        let empty = fx.write("empty.geojson", "{\"type\":\"FeatureCollection\",\"features\":[]}")
        let gpkg = try fx.convert(empty, to: "empty.gpkg", driver: "GPKG", ["-nlt", "POINT"])
        XCTAssertEqual(errorText(gpkg), "empty.gpkg: has no features in its layer")
    }
}
