import AppSupport
import Foundation
import GeoData
import MapModel
import XCTest

/// The base-map names load in two steps (issue 10: names on the map soon after launch).
final class BaseMapLabelSourceTests: XCTestCase {
    /// The first step holds a world view's names — oceans, seas, countries, capitals — and none
    /// of the second's (lakes, rivers, GeoNames places); together they are the whole index, in
    /// the same order, so the names placed once everything is in don't depend on the two steps.
    func testFirstLabelsAreTheWorldViewsNamesInTheFullIndexOrder() throws {
        let first = try BaseMapLabelSource.loadFirst(dataDirectory: LabelMaps.dataDirectory).index
        let all = LabelMaps.labels
        let kinds = Set(first.candidates.map(\.kind))
        for kind in [MapLabelKind.ocean, .sea, .country, .capital, .city] {
            XCTAssertTrue(kinds.contains(kind), "first step names \(kind)s")
        }
        XCTAssertFalse(kinds.contains(.lake) || kinds.contains(.river), "lakes and rivers come later")
        XCTAssertTrue(first.candidates.contains { $0.text == "Pacific Ocean" || $0.text.uppercased().contains("PACIFIC") })
        XCTAssertTrue(first.candidates.contains { $0.kind == .country && $0.text.lowercased() == "france" }, "\(first.candidates.filter { $0.kind == .country }.prefix(5).map(\.text))")
        XCTAssertLessThan(first.count * 10, all.count, "the first step is a small part")
        // The first step's candidates appear in the full index in the same relative order.
        var k = 0
        for c in all.candidates where k < first.count {
            let f = first.candidates[k]
            if c.text == f.text && c.x == f.x && c.y == f.y && c.kind == f.kind { k += 1 }
        }
        XCTAssertEqual(k, first.count, "every first-step name is in the full index, in order")
        let again = try BaseMapLabelSource.load(continuing: BaseMapLabelSource.loadFirst(dataDirectory: LabelMaps.dataDirectory),
                                                dataDirectory: LabelMaps.dataDirectory)
        XCTAssertEqual(again.candidates, all.candidates)
    }

    /// The data folder the app finds (`DataDirectory`) holds the base map.
    func testDataDirectoryHoldsTheBaseMap() throws {
        let dir = try XCTUnwrap(DataDirectory.locate(environment: [:], executablePath: #filePath))
        XCTAssertTrue(BaseMapLocation.holdsBaseMap(URL(fileURLWithPath: dir)))
        XCTAssertFalse(BaseMapLocation.holdsBaseMap(URL(fileURLWithPath: "/nonexistent")))
    }
}

/// The repository's data folder and its base-map names, loaded once per test process.
private enum LabelMaps {
    static let dataDirectory: URL = {
        guard let dir = DataDirectory.locate(executablePath: #filePath).map({ URL(fileURLWithPath: $0) }) else {
            fatalError("data/basemap not found above \(#filePath); set CLUSTERMAP_DATA_DIR")
        }
        return dir
    }()
    static let labels: MapLabelIndex = try! BaseMapLabelSource.load(dataDirectory: dataDirectory)
}
