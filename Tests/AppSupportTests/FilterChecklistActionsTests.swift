import XCTest
import GeoData
@testable import AppSupport

/// A checklist's "All", "None" (over the values the search finds) and "only" (review-s16
/// finding 13), checked against the fixture by the engine itself.
final class FilterChecklistActionsTests: XCTestCase {
    func testNoneAllAndOnlyThis() throws {
        let places = MapPresentationFilterTests.places(1200, seed: 11)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: MapPresentationFilterTests.csv(places), name: "e.csv")])
        let engine = FilterEngine(session: session)
        let catalog = engine.catalog(types: [:])
        func passing(_ s: FilterSettings) throws -> Int { try XCTUnwrap(try engine.run(s)).passing }

        // "only" on a value: just that one passes.
        let only = FilterPanelModel.tickingOnly("slide", of: "type", catalog: catalog, settings: FilterSettings())
        XCTAssertEqual(try passing(only), places.filter { $0.type == "slide" }.count)
        // "All" with no search: every value again, no condition left.
        XCTAssertEqual(FilterPanelModel.tickingAll(true, of: "type", matching: "", catalog: catalog, settings: only).conditions, [])
        // "None" with no search: nothing passes.
        let none = FilterPanelModel.tickingAll(false, of: "type", matching: "", catalog: catalog, settings: FilterSettings())
        XCTAssertEqual(try passing(none), 0)
        XCTAssertEqual(FilterPanelModel.ticked("type", catalog: catalog, settings: none), [])
        // Then "All" over the search "o" (quake? no: blast? no — storm, flood): those come back.
        let found = FilterPanelModel.tickingAll(true, of: "type", matching: " O", catalog: catalog, settings: none)
        XCTAssertEqual(FilterPanelModel.ticked("type", catalog: catalog, settings: found), ["storm", "flood"])
        XCTAssertEqual(try passing(found), places.filter { $0.type.contains("o") }.count)
        // "None" over a search unticks only what it finds; the rest keep their boxes.
        let some = FilterPanelModel.tickingAll(false, of: "type", matching: "s", catalog: catalog, settings: FilterSettings())
        XCTAssertEqual(FilterPanelModel.ticked("type", catalog: catalog, settings: some), ["quake", "flood"])
        XCTAssertEqual(try passing(some), places.filter { !$0.type.contains("s") }.count)
        // Other conditions stay.
        var withMag = FilterSettings()
        withMag.conditions = ["mag >= 4"]
        XCTAssertEqual(FilterPanelModel.tickingOnly("quake", of: "type", catalog: catalog, settings: withMag).conditions.first, "mag >= 4")
    }
}
