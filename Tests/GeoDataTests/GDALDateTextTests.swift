import XCTest
@testable import GeoData

/// Dates as GDAL writes them in text (`1965/01/02`, `2011/03/11 05:46:24+00`) — what KML and other
/// text-only formats hold after `ogr2ogr`, and what our own CSV export writes — read as dates, so
/// a file read back filters as the original did; and a property forced to a type its values
/// don't read as is said, not silently passed as "0 places".
final class GDALDateTextTests: XCTestCase {
    let fx = GDALFixtures()

    func testGDALDateShapesReadAsTheISOOnes() {
        let pairs = [("1965/01/02", "1965-01-02"), ("2011/03/11 05:46:24", "2011-03-11T05:46:24Z"),
                     ("2011/03/11 05:46:24+00", "2011-03-11T05:46:24Z"), ("2011/03/11 14:46:24+09", "2011-03-11T05:46:24Z"),
                     ("2011/03/11 05:46:24.250+00", "2011-03-11T05:46:24.25Z"), ("2000/02/29", "2000-02-29")]
        for (gdal, iso) in pairs {
            XCTAssertNotNil(DateText.seconds(gdal), gdal)
            XCTAssertEqual(DateText.seconds(gdal), DateText.seconds(iso), gdal)
        }
        for bad in ["2011/03-11", "2011-03/11", "2011/3/11", "2011/02/30", "11/03/2011", "2011/03/11/", "2011//03/11"] {
            XCTAssertNil(DateText.seconds(bad), bad)
        }
    }

    func testInferenceReadsGDALDateTextsAsDates() {
        let texts = ["1965/01/02", "1999/12/31 23:59:59", "2011/03/11 05:46:24+00", ""]
        let table = PropertyTable(count: 4, values: [("date", texts.map { $0.isEmpty ? .null : .string($0) })])
        XCTAssertEqual(table.type(of: "date"), .date)
        XCTAssertEqual(table.column("date")?.numbers.prefix(3).map { DateText.text($0) },
                       ["1965-01-02", "1999-12-31T23:59:59Z", "2011-03-11T05:46:24Z"])
        XCTAssertNil(table.mostlyMismatched("date"))
    }

    /// Oracle: our own CSV export of a file, and the file through KML (GDAL writes both dates as
    /// `YYYY/MM/DD` text), pass exactly the places the original passes.
    func testOwnCSVExportAndKMLFilterLikeTheOriginal() throws {
        let source = try PointSetLoader.load(path: fx.write("places.geojson", GDALFixtures.placesGeoJSON))
        let csv = fx.path("saved.csv")
        try PlacesExport.write([source], to: csv)
        let csvText = try String(contentsOfFile: csv, encoding: .utf8)
        XCTAssertTrue(csvText.contains("2024/03/01"), csvText)   // what GDAL's CSV writer makes of a date
        let back = try PointSetLoader.load(path: csv, options: LoadOptions(latitudeColumn: "Y", longitudeColumn: "X"))
        let kml = try PointSetLoader.load(path: fx.convert(fx.path("places.geojson"), to: "places.kml", driver: "KML"))
        func passing(_ set: PointSet, _ since: String, _ property: String) throws -> (Int, PropertyType?) {
            var settings = FilterSettings()
            settings.since = since
            settings.timeProperty = property
            let evaluator = FilterEvaluator(table: PropertyTable(pointSet: set))
            let result = try FilterResult.apply(settings, evaluator: evaluator)
            XCTAssertEqual(result.warnings, [])
            return (result.passingCount(of: set.count), evaluator.table.type(of: property))
        }
        for since in ["1999-06-01", "2000-02-29", "2023-12-31T23:00:00Z"] {
            for property in ["day", "when"] {
                let (want, type) = try passing(source, since, property)
                XCTAssertEqual(type, .date)
                XCTAssertEqual(try passing(back, since, property).0, want, "csv \(property) since \(since)")
                XCTAssertEqual(try passing(back, since, property).1, .date, "csv \(property)")
                XCTAssertEqual(try passing(kml, since, property).0, want, "kml \(property) since \(since)")
                XCTAssertEqual(try passing(kml, since, property).1, .date, "kml \(property)")
            }
        }
    }

    func testAForcedTypeMostValuesDontReadAsIsSaid() throws {
        let texts = ["Jan 2 1965", "Feb 3 1970", "1999-01-01", "Mar 4 1980"]
        var settings = FilterSettings()
        settings.types = ["when": .date]
        settings.since = "1960-01-01"
        settings.timeProperty = "when"
        let evaluator = FilterEvaluator(table: PropertyTable(count: 4, values: [("when", texts.map { .string($0) }),
                                                                               ("n", [.number(1), .number(2), .number(3), .number(4)])]))
        let result = try FilterResult.apply(settings, evaluator: evaluator)
        XCTAssertEqual(result.passingCount(of: 4), 1)
        XCTAssertEqual(result.warnings, ["'when' is read as dates but 3 of 4 values are not dates (e.g. 'Jan 2 1965'); they count as missing"])
        // Half or fewer unreadable: said nowhere (a few bad cells are normal); numbers as numbers: fine.
        var fine = FilterSettings()
        fine.types = ["n": .number]
        XCTAssertEqual(try FilterResult.apply(fine, evaluator: evaluator).warnings, [])
        var categories = FilterSettings()
        categories.types = ["n": .boolean]
        XCTAssertEqual(try FilterResult.apply(categories, evaluator: evaluator).warnings,
                       ["'n' is read as booleans but 4 of 4 values are not booleans (e.g. '1'); they count as missing"])
    }
}
