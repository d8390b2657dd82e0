import XCTest
import Foundation
import ClusterCore
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// The first filter after "no filter" (issue 29 item 3): with nothing filtered, the fast path
/// holds every place — the session's own build, adopted off the GTK thread while its live index
/// had no change — so a small first change (a rare category unticked, a range nudged from its
/// end) shows an interim at once and then settles exactly. A live update drops what was held:
/// the stale places are never shown.
final class FilterInterimFromNoFilterTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    func settings(_ expression: String) throws -> FilterSettings {
        var s = FilterSettings()
        _ = try s.set("where", expression)
        return s
    }

    /// Runs a job as the window's worker does: interim (if any) shown, exact shown, then the
    /// fast path readied for the next change.
    func work(_ job: FilterJob, in p: MapPresentation, whileInterim: @escaping (MapPresentation) throws -> Void = { _ in })
        throws -> (interim: [MapEvent], settled: [MapEvent]) {
        var interim: [MapEvent] = []
        var failure: Error?
        let exact = job.run(showingInterim: { outcome in
            interim = p.finishFilter(outcome)
            do { try whileInterim(p) } catch { failure = error }
        })
        if let failure { throw failure }
        let settled = p.finishFilter(exact)
        job.prepareForNextChange()
        return (interim, settled)
    }

    func fields(_ event: MapEvent) -> [String: JSONValue] { Dictionary(event.fields, uniquingKeysWith: { a, _ in a }) }

    /// The top zoom's points of the shown index (each alone there) with their coordinates.
    func shownPoints(_ p: MapPresentation) throws -> [String] {
        let shown = try XCTUnwrap(p.session?.shownIndex)
        return shown.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: 19)
            .map { "\($0.pointIndex ?? -1) \($0.coordinate.latitude) \($0.coordinate.longitude)" }.sorted()
    }

    func testTheFirstSmallFilterAfterNoFilterShowsAnInterimThenSettlesExactly() throws {
        let places = Fixture.places(3000)
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: 0, maximumChanges: 200)
        // The data is shown with no filter: the window readies the fast path (nothing shows).
        let ready = try XCTUnwrap(p.readyFilterFastPath())
        XCTAssertEqual(try work(ready, in: p).settled.map(\.name), [], "readying shows nothing")
        XCTAssertNil(p.shownFilter)
        XCTAssertTrue(p.filtering.interim.holdsPlaces)

        let passing = places.indices.filter { places[$0].mag <= 8.8 }
        let removed = places.count - passing.count
        XCTAssertGreaterThan(removed, 10)
        let (interim, settled) = try work(try XCTUnwrap(p.setFilter(settings("mag <= 8.8"))), in: p) { p in
            XCTAssertTrue(p.filterIsInterim)
            XCTAssertEqual(try self.shownPoints(p), passing.map { "\($0) \(places[$0].lat) \(places[$0].lon)" }.sorted())
            XCTAssertEqual(p.filterPlacesText, FilterState.placesText(passing: passing.count, of: places.count))
        }
        XCTAssertEqual(interim.map(\.name), ["filter-interim"], "the first filter after no filter takes the fast path")
        let i = fields(try XCTUnwrap(interim.first))
        XCTAssertEqual(i["changed"], .int(removed))
        XCTAssertEqual(i["passing"], .int(passing.count))
        XCTAssertEqual(settled.map(\.name), ["filter"])
        XCTAssertNotNil(fields(settled[0])["interim_ms"])
        XCTAssertFalse(p.filterIsInterim)
        try Fixture.assertShowsExactly(passing, of: places, in: p)

        // Back to no filter (its job takes the session's build again), then another small change.
        XCTAssertEqual(try work(try XCTUnwrap(p.setFilter(FilterSettings())), in: p).settled.map(\.name), ["filter"])
        XCTAssertNil(p.shownFilter)
        let others = places.indices.filter { places[$0].mag >= 0.2 }
        let (again, _) = try work(try XCTUnwrap(p.setFilter(settings("mag >= 0.2"))), in: p)
        XCTAssertEqual(again.map(\.name), ["filter-interim"])
        XCTAssertEqual(fields(again[0])["changed"], .int(places.count - others.count))
        try Fixture.assertShowsExactly(others, of: places, in: p)
    }

    func testALiveUpdateDropsTheHeldPlacesAndTheFilterSettlesOnTheNewOnes() throws {
        typealias Live = FilterEngineLiveTests
        var nextID = 0
        var rows = Fixture.places(2000, seed: 5).map { p -> Live.Row in defer { nextID += 1 }; return Live.Row(id: nextID, place: p) }
        let session = MapDataSession(pointSets: [try Live.set(rows)])
        _ = session.identityKeys(idProperty: "id")
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(session)
        p.filtering.interim.tune(minimumPassing: 0, maximumChanges: 400)
        _ = try work(try XCTUnwrap(p.readyFilterFastPath()), in: p)
        XCTAssertTrue(p.filtering.interim.holdsPlaces)

        // Places move and go (same ids, so the old held set would still fit the new session's size).
        rows = Live.next(rows, round: 1, changed: 0, moved: 40, removed: 30, added: 0, nextID: &nextID).0
        let plan = try XCTUnwrap(session.planUpdate(to: try Live.set(rows), dataset: nil, idProperty: "id"))
        let (updated, newID, _) = plan.applied()
        XCTAssertEqual(updated.pointCount, session.pointCount)
        _ = p.dataDidChange(to: updated, newID: newID)
        // As the window does after a live update with no filter.
        XCTAssertNil(p.refilter(keepingFrom: session))
        _ = try work(try XCTUnwrap(p.readyFilterFastPath()), in: p)
        XCTAssertFalse(p.filtering.interim.holdsPlaces, "the live update dropped the places held for the data before")

        let filter = try settings("mag <= 8.8")
        let (interim, settled) = try work(try XCTUnwrap(p.setFilter(filter)), in: p)
        XCTAssertEqual(interim.map(\.name), [], "nothing stale is shown")
        XCTAssertEqual(settled.map(\.name), ["filter"])
        // The oracle: a fresh engine over the updated session, and the rows' own values.
        let shown = try XCTUnwrap(p.shownFilter)
        let fresh = try XCTUnwrap(try FilterEngine(session: updated).run(filter))
        XCTAssertEqual(shown.passing, rows.filter { $0.place.mag <= 8.8 }.count)
        for zoom in [0, 3, 6, 10, 19] {
            XCTAssertEqual(Fixture.canonical(shown.index, zoom: zoom), Fixture.canonical(fresh.index, zoom: zoom), "zoom \(zoom)")
        }
    }

    /// From "no filter" a changed place costs more (interim2-s15's bench: 1,483 places in 36.4
    /// and 35.6 ms CPU at 1M): the limit is lower, so a change at the limit stays in the budget.
    func testTheLimitFromNoFilterKeepsAChangeAtTheLimitWithinTheFrameBudget() {
        let measuredMicroseconds = [36.4, 35.6].map { $0 * 1000 / 1483 }
        for places in [1_000_000, 4_000_000, 10_000_000] {
            let fromNone = FilterInterim.changeLimit(places: places, passing: places, fromEverything: true)
            XCTAssertGreaterThan(fromNone, 1000, "still a fast path at \(places)")
            for cost in measuredMicroseconds {
                XCTAssertLessThanOrEqual(Double(fromNone) * cost / 1000, FilterInterim.budgetMilliseconds, "\(places)")
            }
            // A filter's own subset keeps its measured limit.
            XCTAssertEqual(FilterInterim.changeLimit(places: places, passing: places / 2), 2500)
        }
        // Small data: 1 % of the places and half the build's cost still bound it.
        XCTAssertEqual(FilterInterim.changeLimit(places: 100_000, passing: 100_000, fromEverything: true), 500)
    }
}
