import XCTest
import GeoData
@testable import AppSupport

/// Callouts say things in words, not as the file's raw keys and values ("Admin1: 14", "square").
final class CalloutWordsTests: XCTestCase {
    func testCategoriesAndCodesReadAsWords() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-3.7074,40.4155]},
         "properties":{"name":"Plaza Mayor","category":"square","admin2_code":"28079","feature_code":"SQR"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[-3.70,40.42]},
         "properties":{"name":"Lot","category":"parking_lot"}}]}
        """
        let set = try PointSetLoader.load(text: text, name: "m.geojson")
        let session = MapDataSession(pointSets: [set])
        let plaza = session.calloutText(of: 0)
        XCTAssertEqual(plaza.lines, ["Square"])
        XCTAssertEqual(plaza.moreLines, ["District code: 28079", "Feature code: SQR"])
        XCTAssertEqual(session.calloutText(of: 1).lines, ["Parking lot"])
        XCTAssertEqual(PropertyFormat.words("admin1"), "Region code")
        XCTAssertEqual(PropertyFormat.words("km_from_charing_cross"), "Km from charing cross", "other keys as before")
    }
}
