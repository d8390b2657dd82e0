import XCTest
import GeoData
@testable import AppSupport

/// Id-like columns go last in the filter panel (review-s16 finding 16); the person's own
/// properties keep the data's order, and a column they typed or filtered on stays.
final class FilterPanelOrderTests: XCTestCase {
    func testIdsGoLastAndAChosenOneStays() throws {
        var csv = "geonameid,lat,lon,name,population,country,id,paid,code\n"
        for i in 0..<60 {
            // geonameid: sparse unique; id: a serial 1…60; code: unique text (a text row, like name); paid: a yes/no.
            csv += "\(12 + i * 7919),\(Double(i % 9)),\(Double(i / 9)),Town \(i),\(1000 + (i * 37) % 500),\(["FR", "DE", "ES"][i % 3]),"
            csv += "\(i + 1),\(i % 2 == 0 ? "true" : "false"),K\(i)\n"
        }
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: csv, name: "towns.csv")])
        let catalog = FilterEngine(session: session).catalog(types: [:])
        let data = catalog.properties.map(\.name)
        XCTAssertEqual(Array(data.prefix(1)), ["geonameid"], "the data's order puts the id first: \(data)")
        let rows = FilterPanelModel(catalog: catalog, settings: FilterSettings(), passing: nil).rows.map(\.property)
        let ids = ["geonameid", "id"]
        XCTAssertEqual(Array(rows.suffix(ids.count)), ids, "\(rows)")
        XCTAssertEqual(rows.first, data.first { !ids.contains($0) }, "the first real property leads")
        XCTAssertEqual(Set(rows), Set(data), "every property still has its row")
        XCTAssertTrue(rows.contains("paid") && !ids.contains("paid"), "a yes/no named …id is not an id")
        // Filtered on, an id stays where the data has it.
        var s = FilterSettings()
        s.conditions = ["geonameid >= 100"]
        XCTAssertEqual(FilterPanelModel(catalog: catalog, settings: s, passing: nil).rows.first?.property, "geonameid")
    }
}
