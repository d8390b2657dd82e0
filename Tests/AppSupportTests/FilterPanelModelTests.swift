import XCTest
import GeoData
@testable import AppSupport

/// The filter panel and chips as values (issue 29 item 1): rows per property with their type,
/// checklists most common first, ranges with histograms, chips; intents give new settings that
/// the engine answers like the command line.
final class FilterPanelModelTests: XCTestCase {
    func catalog() throws -> (FilterCatalog, FilterEngine, [MapPresentationFilterTests.Place]) {
        let places = MapPresentationFilterTests.places(1200, seed: 11)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: MapPresentationFilterTests.csv(places), name: "e.csv")])
        let engine = FilterEngine(session: session)
        return (engine.catalog(types: [:]), engine, places)
    }

    func testRowsShowEachPropertysTypeAndItsControl() throws {
        let (catalog, _, places) = try catalog()
        let model = FilterPanelModel(catalog: catalog, settings: FilterSettings(), passing: nil)
        XCTAssertEqual(model.rows.map(\.property), ["mag", "type", "date"])
        XCTAssertEqual(model.rows.map(\.type), [.number, .category, .date])
        XCTAssertNil(model.placesText)
        XCTAssertTrue(model.chips.isEmpty)
        // Checklist: most common first, counts from the fixture itself.
        guard case .checklist(let items, let searchable) = model.rows[1].control else { return XCTFail("checklist") }
        XCTAssertFalse(searchable)
        var counts: [String: Int] = [:]
        for p in places { counts[p.type, default: 0] += 1 }
        XCTAssertEqual(items.map(\.text), counts.sorted { $0.value != $1.value ? $0.value > $1.value : false }.map(\.key))
        XCTAssertEqual(items.map(\.count), items.map { counts[$0.text]! })
        XCTAssertTrue(items.allSatisfy(\.isChecked))
        XCTAssertEqual(items[0].accessibleLabel, "\(items[0].text), \(formatCount(items[0].count)) places")
        // Range: the data's own bounds, a histogram that counts every place.
        guard case .range(let r) = model.rows[0].control else { return XCTFail("range") }
        XCTAssertEqual(r.bounds.lowerBound, places.map(\.mag).min())
        XCTAssertEqual(r.bounds.upperBound, places.map(\.mag).max())
        XCTAssertEqual(r.histogram.reduce(0, +), places.count)
        XCTAssertEqual(r.histogram.count, FilterCatalog.bins)
        XCTAssertTrue(r.barsInRange.allSatisfy { $0 })
        guard case .range(let d) = model.rows[2].control else { return XCTFail("date range") }
        XCTAssertTrue(d.isDate)
        XCTAssertEqual(d.step, 86400)
        XCTAssertEqual(d.lowerText.count, 10)
        XCTAssertTrue(model.rows[0].accessibleLabel.hasPrefix("mag, number, 1,200 places, from "))
    }

    func testUntickingAndDraggingMakeConditionsTheEngineAnswers() throws {
        let (catalog, engine, places) = try catalog()
        var s = FilterSettings()
        s = FilterPanelModel.toggling("storm", of: "type", on: false, catalog: catalog, settings: s)
        s = FilterPanelModel.settingRange(of: "mag", lower: 3.04, upper: 7.26, catalog: catalog, settings: s)
        XCTAssertEqual(s.conditions.count, 2)
        XCTAssertEqual(s.conditions[1], "mag >= 3.05 and mag <= 7.25", "snapped to the 0.05 step (the data spans 0–9)")
        let passing = places.filter { $0.type != "storm" && $0.mag >= 3.05 && $0.mag <= 7.25 }.count
        let shown = try XCTUnwrap(try engine.run(s))
        XCTAssertEqual(shown.passing, passing)
        let model = FilterPanelModel(catalog: catalog, settings: s, passing: shown.passing)
        XCTAssertEqual(model.placesText, FilterState.placesText(passing: passing, of: 1200))
        XCTAssertEqual(model.chips.map(\.text).last, "mag 3.05 – 7.25")
        XCTAssertTrue(model.chips[0].text.hasPrefix("type: "))
        guard case .checklist(let items, _) = model.rows[1].control else { return XCTFail() }
        XCTAssertEqual(items.filter { !$0.isChecked }.map(\.text), ["storm"])
        guard case .range(let r) = model.rows[0].control else { return XCTFail() }
        XCTAssertEqual(r.lower, 3.05)
        XCTAssertEqual(r.upper, 7.25)
        XCTAssertFalse(r.barsInRange.allSatisfy { $0 })
        XCTAssertTrue(model.rows[0].isActive)
        // Ticking it back, and the full range, remove the conditions.
        s = FilterPanelModel.toggling("storm", of: "type", on: true, catalog: catalog, settings: s)
        s = FilterPanelModel.settingRange(of: "mag", lower: -100, upper: 100, catalog: catalog, settings: s)
        XCTAssertEqual(s.conditions, [])
    }

    func testChipsRemoveTheirConditionAndClearTakesEveryFilter() throws {
        let (catalog, _, _) = try catalog()
        var s = FilterSettings()
        _ = try s.set("where", "mag > 2 or type = 'quake'")  // not a panel form: a chip of its own
        _ = try s.set("where", "type = 'quake'")
        _ = try s.set("since", "2001-01-01")
        _ = try s.set("by", "type")
        let model = FilterPanelModel(catalog: catalog, settings: s, passing: 10)
        XCTAssertEqual(model.chips.map(\.text), ["mag > 2 or type = 'quake'", "type: quake", "time ≥ 2001-01-01"])
        XCTAssertEqual(model.chips[1].accessibleLabel, "Remove filter: type: quake")
        XCTAssertEqual(FilterPanelModel.chips(s, timeProperty: "date").last?.text, "date ≥ 2001-01-01", "named after the property read")
        XCTAssertEqual(FilterPanelModel.removing(model.chips[0].removal, from: s).conditions, ["type = 'quake'"])
        XCTAssertNil(FilterPanelModel.removing(.timeWindow, from: s).since)
        let cleared = FilterPanelModel.clearing(s)
        XCTAssertTrue(cleared.conditions.isEmpty)
        XCTAssertNil(cleared.since)
        XCTAssertEqual(cleared.groupProperty, "type", "grouping is not a filter")
    }

    func testTypesCanBeOverriddenAndReturned() throws {
        let (catalog, engine, _) = try catalog()
        var s = FilterPanelModel.settingType(.category, of: "mag", catalog: catalog, settings: FilterSettings())
        XCTAssertEqual(s.types, ["mag": .category])
        let asCategory = engine.catalog(types: s.types)
        XCTAssertEqual(asCategory.property("mag")?.type, .category)
        XCTAssertEqual(asCategory.property("mag")?.inferred, .number)
        let model = FilterPanelModel(catalog: asCategory, settings: s, passing: nil)
        guard case .checklist(let items, let searchable) = model.rows[0].control else { return XCTFail() }
        XCTAssertTrue(searchable, "91 values get a search box")
        XCTAssertEqual(FilterPanelModel.items(items, matching: "8.").count, items.filter { $0.text.contains("8.") }.count)
        s = FilterPanelModel.settingType(.number, of: "mag", catalog: catalog, settings: s)
        XCTAssertEqual(s.types, [:])
        XCTAssertEqual(engine.catalog(types: s.types).property("mag")?.type, .number)
    }

    func testConditionsReadBackFromTheirExpressions() {
        let cases: [FilterCondition] = [
            FilterCondition(property: "type", kind: .oneOf(["a", "b'c"])),
            FilterCondition(property: "type", kind: .oneOf([])),
            FilterCondition(property: "mag", kind: .numberRange(lower: 2.5, upper: nil)),
            FilterCondition(property: "mag", kind: .numberRange(lower: nil, upper: -1)),
            FilterCondition(property: "mag", kind: .numberRange(lower: 1, upper: 2)),
            FilterCondition(property: "when day", kind: .dateRange(lower: 86400 * 400, upper: 86400 * 800 + 3600)),
            FilterCondition(property: "name", kind: .contains("san")),
            FilterCondition(property: "open", kind: .isTrue(false)),
        ]
        for c in cases { XCTAssertEqual(FilterCondition(parsing: c.expression), c, c.expression) }
        XCTAssertEqual(FilterCondition(parsing: "type = earthquake"), FilterCondition(property: "type", kind: .oneOf(["earthquake"])))
        XCTAssertNil(FilterCondition(parsing: "mag > 6"))
        XCTAssertNil(FilterCondition(parsing: "a >= 1 and b <= 2"))
    }
}
