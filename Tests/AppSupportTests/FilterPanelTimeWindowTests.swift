import XCTest
import GeoData
@testable import AppSupport

/// The date row of the time property follows `--since/--until` (issue 29): launching with a time
/// window (or restoring one) shows its ends on that row's sliders, and moving them changes the
/// same window — one source of truth, never a second condition on the property.
final class FilterPanelTimeWindowTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests
    static let epoch2000 = 946_684_800.0

    func day(_ text: String) -> Double { DateText.seconds(text)! }

    func range(_ model: FilterPanelModel, _ property: String) throws -> (FilterPanelModel.Row, FilterPanelModel.RangeControl) {
        let row = try XCTUnwrap(model.rows.first { $0.property == property })
        guard case .range(let r) = row.control else { throw XCTSkip("no range") }
        return (row, r)
    }

    func testTheDateRowShowsAndSetsTheTimeWindow() throws {
        let places = Fixture.places(1500, seed: 17)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(places), name: "e.csv")])
        let engine = FilterEngine(session: session)
        let catalog = engine.catalog(types: [:])
        var launch = FilterSettings()
        _ = try launch.set("since", "2003-01-01")
        _ = try launch.set("until", "2004-12-31")

        // Launched with --since/--until: the date row's sliders stand at those days.
        let model = FilterPanelModel(catalog: catalog, settings: launch, passing: nil)
        let (row, r) = try range(model, "date")
        XCTAssertEqual(r.lower, day("2003-01-01"))
        XCTAssertEqual(r.upper, day("2004-12-31"))
        XCTAssertEqual(r.lowerText, "2003-01-01")
        XCTAssertEqual(r.upperText, "2004-12-31")
        XCTAssertTrue(row.isActive)
        XCTAssertTrue(row.accessibleLabel.hasSuffix("from 2003-01-01 to 2004-12-31, filtered"), row.accessibleLabel)
        XCTAssertEqual(model.chips.map(\.removal), [.timeWindow], "one chip: the window, no condition of its own")
        XCTAssertFalse(try range(model, "mag").0.isActive)

        // Moving the lower slider changes the window (the other end keeps its text), no condition.
        let moved = FilterPanelModel.settingRange(of: "date", lower: day("2003-06-01") + 3600, upper: r.upper,
                                                  catalog: catalog, settings: launch)
        XCTAssertEqual(moved.since, "2003-06-01")
        XCTAssertEqual(moved.until, "2004-12-31")
        XCTAssertEqual(moved.conditions, [])
        let (_, r2) = try range(FilterPanelModel(catalog: catalog, settings: moved, passing: nil), "date")
        XCTAssertEqual(r2.lower, day("2003-06-01"))
        XCTAssertEqual(r2.upper, day("2004-12-31"))
        // What passes is the fixture's own count of places on those days (until: the whole day).
        let shown = try XCTUnwrap(try engine.run(moved))
        let lo = Int((day("2003-06-01") - Self.epoch2000) / 86400), hi = Int((day("2004-12-31") - Self.epoch2000) / 86400)
        XCTAssertEqual(shown.passing, places.filter { $0.day >= lo && $0.day <= hi }.count)

        // A time bar's instants are kept while their day stays on the slider.
        var exact = launch
        exact.since = "2003-01-01T06:30:00Z"
        exact.until = "2004-12-31T18:00:00Z"
        let upperOnly = FilterPanelModel.settingRange(of: "date", lower: day("2003-01-01"), upper: day("2004-06-30"),
                                                      catalog: catalog, settings: exact)
        XCTAssertEqual(upperOnly.since, "2003-01-01T06:30:00Z")
        XCTAssertEqual(upperOnly.until, "2004-06-30")
        XCTAssertEqual(FilterPanelModel.chips(exact, timeProperty: "date").last?.text, "date 2003-01-01 06:30 – 2004-12-31 18:00")
        exact.since = "2003-01-01T00:00:00Z"
        XCTAssertEqual(FilterPanelModel.chips(exact, timeProperty: "date").last?.text, "date 2003-01-01 – 2004-12-31 18:00")

        // The whole range: no window; a condition on the date saved before is replaced, not doubled.
        let bounds = r.bounds
        let cleared = FilterPanelModel.settingRange(of: "date", lower: bounds.lowerBound, upper: bounds.upperBound,
                                                    catalog: catalog, settings: launch)
        XCTAssertNil(cleared.since)
        XCTAssertNil(cleared.until)
        var saved = FilterSettings()
        saved.conditions = ["mag >= 2", FilterCondition(property: "date", kind: .dateRange(lower: day("2002-01-01"), upper: nil)).expression]
        let replaced = FilterPanelModel.settingRange(of: "date", lower: day("2005-01-01"), upper: bounds.upperBound,
                                                     catalog: catalog, settings: saved)
        XCTAssertEqual(replaced.conditions, ["mag >= 2"])
        XCTAssertEqual(replaced.since, "2005-01-01")
        XCTAssertNil(replaced.until)
    }

    /// With `--time` naming another date property, that one's row holds the window; the others
    /// keep their own conditions.
    func testOnlyTheTimePropertysRowIsTheWindow() throws {
        let whole = day("2000-01-01")...day("2010-01-01")
        let catalog = FilterCatalog(properties: [
            .init(name: "opened", type: .date, inferred: .date, present: 10, missing: 0, range: whole, histogram: [10]),
            .init(name: "closed", type: .date, inferred: .date, present: 10, missing: 0, range: whole, histogram: [10]),
        ], placeCount: 10)
        var settings = FilterSettings()
        _ = try settings.set("since", "2004-01-01")
        XCTAssertEqual(FilterPanelModel.timeWindowProperty(settings, catalog: catalog), "opened", "the first date property")
        _ = try settings.set("time", "closed")
        XCTAssertEqual(FilterPanelModel.timeWindowProperty(settings, catalog: catalog), "closed")
        let model = FilterPanelModel(catalog: catalog, settings: settings, passing: nil)
        XCTAssertEqual(try range(model, "closed").1.lower, day("2004-01-01"))
        XCTAssertEqual(try range(model, "opened").1.lower, whole.lowerBound)
        let other = FilterPanelModel.settingRange(of: "opened", lower: day("2006-01-01"), upper: whole.upperBound,
                                                  catalog: catalog, settings: settings)
        XCTAssertEqual(other.since, "2004-01-01", "the window stays")
        XCTAssertEqual(other.conditions.count, 1, "the other date property gets a condition")
        let window = FilterPanelModel.settingRange(of: "closed", lower: day("2007-01-01"), upper: whole.upperBound,
                                                   catalog: catalog, settings: settings)
        XCTAssertEqual(window.since, "2007-01-01")
        XCTAssertEqual(window.conditions, [])
    }
}
