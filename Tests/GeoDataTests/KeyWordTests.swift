import XCTest
@testable import GeoData

/// The packed member names match the strings they stand for.
final class KeyWordTests: XCTestCase {
    func testKeyWordConstantsMatchTheirNames() {
        let pairs: [(KeyWord, StaticString)] = [
            (.type, "type"), (.features, "features"), (.geometry, "geometry"), (.properties, "properties"),
            (.id, "id"), (.coordinates, "coordinates"), (.point, "Point"), (.multiPoint, "MultiPoint"),
            (.name, "name"), (.title, "title"), (.label, "label"), (.category, "category"),
            (.description, "description"), (.markerColor, "marker-color"), (.markerSymbol, "marker-symbol"),
        ]
        for (key, text) in pairs {
            let built = KeyWord(text)
            XCTAssertEqual(key.count, built.count, "\(text)")
            XCTAssertEqual(key.w0, built.w0, "\(text)")
            XCTAssertEqual(key.w1, built.w1, "\(text)")
            let bytes = Array("\(text)\"xxxxxxxxxxxxxxxxxx".utf8)
            XCTAssertTrue(key.matches(bytes, 0, key.count))
            XCTAssertFalse(key.matches(bytes, 0, key.count + 1))
            XCTAssertFalse(key.matches(bytes, 1, key.count))
        }
    }
}
