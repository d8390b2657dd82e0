import XCTest
@testable import GeoData

/// Saving places as GeoJSON / CSV / GeoPackage reads back to the same places and properties.
final class GDALExportTests: XCTestCase {
    let fx = GDALFixtures()

    func testSavedPlacesReadBack() throws {
        let source = try PointSetLoader.load(path: fx.write("places.geojson", GDALFixtures.placesGeoJSON))
        for ext in ["geojson", "csv", "gpkg"] {
            let out = fx.path("saved." + ext)
            XCTAssertEqual(try PlacesExport.write([source], to: out), 5)
            let back = try PointSetLoader.load(path: out, options: LoadOptions(latitudeColumn: ext == "csv" ? "Y" : nil,
                                                                                 longitudeColumn: ext == "csv" ? "X" : nil))
            XCTAssertEqual(back.count, 5, ext)
            for i in 0..<min(5, back.count) {
                XCTAssertEqual(back.coordinates[i].longitude, source.coordinates[i].longitude, accuracy: 1e-7, ext)
                XCTAssertEqual(back.coordinates[i].latitude, source.coordinates[i].latitude, accuracy: 1e-7, ext)
                XCTAssertEqual(back.name(at: i), source.name(at: i), ext)
            }
            let count = back.properties(at: 0).first { $0.key == "count" }?.value
            XCTAssertEqual(count?.number, 12, ext)
        }
        // Only the places asked for; nothing left behind beside the output.
        XCTAssertEqual(try PlacesExport.write([source], to: fx.path("two.gpkg"), includes: { _, i in i < 2 }), 2)
        XCTAssertEqual(try PointSetLoader.load(path: fx.path("two.gpkg")).count, 2)
        XCTAssertTrue(try FileManager.default.contentsOfDirectory(atPath: fx.dir).allSatisfy { !$0.hasPrefix(".clustermap") })
        XCTAssertThrowsError(try PlacesExport.write([source], to: fx.path("x.txt")))
    }
}
