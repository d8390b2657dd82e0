import XCTest
import GeoData
@testable import AppSupport

/// A property that no place holds any more after a live update (issue 29): it leaves the panel
/// (as a fresh decoding would not list it) and a condition on it stays, its chip saying it
/// matches nothing now.
final class FilterUnheldPropertyTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    static func geojson(_ places: [Fixture.Place], notes: Set<Int>) -> String {
        let features = places.enumerated().map { i, p in
            let note = notes.contains(i) ? ",\"note\":\"check\"" : ""
            return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(p.lon),\(p.lat)]},"
                + "\"properties\":{\"id\":\(i),\"mag\":\(p.mag),\"type\":\"\(p.type)\"\(note)}}"
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    }

    func testAPropertyNoPlaceHoldsLeavesThePanelAndItsConditionSaysItMatchesNothing() throws {
        let places = Fixture.places(300, seed: 41)
        let noted: Set<Int> = [3, 50, 120]
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: Self.geojson(places, notes: noted), name: "live.geojson")])
        _ = session.identityKeys(idProperty: "id")
        var settings = FilterSettings()
        _ = try settings.set("where", "note in ('check')")
        _ = try settings.set("where", "mag >= 2")
        let before = FilterEngine(session: session)
        XCTAssertEqual(try before.run(settings)?.passing, noted.filter { places[$0].mag >= 2 }.count)
        XCTAssertTrue(before.catalog(types: [:]).properties.contains { $0.name == "note" })
        XCTAssertEqual(before.propertiesNoPlaceHolds, [])

        // The live update takes the note off every place that had one.
        let plan = try XCTUnwrap(session.planUpdate(to: try PointSetLoader.load(text: Self.geojson(places, notes: []), name: "live.geojson"),
                                                    dataset: nil, idProperty: "id"))
        let after = FilterEngine(session: plan.applied().session, following: before)
        XCTAssertEqual(try after.run(settings)?.passing, 0, "the condition matches nothing now")
        let catalog = after.catalog(types: [:])
        XCTAssertFalse(catalog.properties.contains { $0.name == "note" }, "no empty row for it")
        XCTAssertEqual(catalog.properties.map(\.name), ["id", "mag", "type"])
        XCTAssertEqual(after.propertiesNoPlaceHolds, ["note"])
        let model = FilterPanelModel(catalog: catalog, settings: settings, passing: 0)
        XCTAssertFalse(model.rows.contains { $0.property == "note" })

        let chips = FilterPanelModel.chips(settings, unheld: after.propertiesNoPlaceHolds)
        XCTAssertEqual(chips.count, 2, "the condition is kept")
        XCTAssertTrue(chips[0].text.hasSuffix("· none now"), chips[0].text)
        XCTAssertTrue(chips[0].accessibleLabel.contains("No place has note any more, so it matches nothing"), chips[0].accessibleLabel)
        XCTAssertEqual(chips[0].removal, .condition(0))
        XCTAssertFalse(chips[1].text.contains("none now"), "mag is still held")
        // A hand-written expression naming it says so too.
        var written = FilterSettings()
        _ = try written.set("where", "note = 'check' or mag > 8")
        XCTAssertTrue(FilterPanelModel.chips(written, unheld: ["note"])[0].text.hasSuffix("· none now"))
    }
}
