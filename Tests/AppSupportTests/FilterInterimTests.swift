import XCTest
import Foundation
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

/// A small filter change through `MapPresentation` without a display (issue 29 item 3): the job
/// first hands over an interim (the live index of the shown passing places, changed in one
/// repaired batch) — shown at once, with the right places and the live index's rules — and then
/// the exact build, which replaces it and equals a fresh build of the passing places. The
/// interim is never what stays: a late interim is dropped, and grouped, totalled or big changes
/// go straight to the exact build.
final class FilterInterimTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    func settings(_ expressions: String...) throws -> FilterSettings {
        var s = FilterSettings()
        for e in expressions { _ = try s.set("where", e) }
        return s
    }

    /// A presentation showing `mag >= 3` with the fast path on for up to `maximumChanges` places.
    func showing(_ places: [Fixture.Place], maximumChanges: Int = 200) throws -> MapPresentation {
        let p = try Fixture.presentation(places)
        p.filtering.interim.tune(minimumPassing: 0, maximumChanges: maximumChanges)
        try p.applyFilter(settings("mag >= 3"))
        return p
    }

    /// Runs a job as the window does: the interim (if any) shown through `finishFilter`, checked
    /// by `whileInterim`, then the exact outcome shown. Returns both frames' events.
    func run(_ job: FilterJob, in p: MapPresentation, whileInterim: @escaping (MapPresentation) throws -> Void = { _ in })
        throws -> (interim: [MapEvent], settled: [MapEvent], interimOutcome: FilterOutcome?) {
        var interimEvents: [MapEvent] = []
        var interimOutcome: FilterOutcome?
        var failure: Error?
        let settled = job.run(showingInterim: { outcome in
            interimOutcome = outcome
            interimEvents = p.finishFilter(outcome)
            do { try whileInterim(p) } catch { failure = error }
        })
        if let failure { throw failure }
        return (interimEvents, p.finishFilter(settled), interimOutcome)
    }

    func fields(_ event: MapEvent) -> [String: JSONValue] { Dictionary(event.fields, uniquingKeysWith: { a, _ in a }) }

    func testASmallChangeShowsAnInterimThenSettlesExactly() throws {
        let places = Fixture.places(3000)
        let p = try showing(places)
        let passing = places.indices.filter { places[$0].mag >= 3.2 }
        let changed = places.indices.filter { places[$0].mag >= 3 && places[$0].mag < 3.2 }.count
        XCTAssertGreaterThan(changed, 20)
        let job = try XCTUnwrap(p.setFilter(settings("mag >= 3.2")))
        let (interim, settled, _) = try run(job, in: p) { p in
            XCTAssertTrue(p.filterIsInterim)
            let shown = try XCTUnwrap(p.session?.shownIndex)
            // The interim holds exactly the passing places (every one alone above the deepest zoom)…
            let top = shown.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: 19)
            XCTAssertEqual(top.compactMap(\.pointIndex).sorted(), passing)
            // …and its bubbles keep the hierarchical rules, counts adding up at every zoom.
            for z in [0, 3, 6, 9, 12] {
                let items = shown.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: Double(z))
                XCTAssertEqual(items.reduce(0) { $0 + $1.count }, passing.count, "zoom \(z)")
                for item in items { if let id = item.clusterID { XCTAssertEqual(shown.leaves(of: id).count, item.count) } }
            }
            XCTAssertEqual(p.filterPlacesText, FilterState.placesText(passing: passing.count, of: 3000))
        }
        XCTAssertEqual(interim.map(\.name), ["filter-interim"])
        let i = fields(interim[0])
        XCTAssertEqual(i["changed"], .int(changed))
        XCTAssertEqual(i["passing"], .int(passing.count))
        XCTAssertNotNil(i["interim_ms"])
        XCTAssertEqual(settled.map(\.name), ["filter"])
        let s = fields(settled[0])
        XCTAssertEqual(s["passing"], .int(passing.count))
        XCTAssertEqual(s["expression"], .string("mag >= 3.2"))
        XCTAssertNotNil(s["ms"])
        XCTAssertNotNil(s["interim_ms"], "the settled event says an interim showed")
        XCTAssertNotNil(s["settled_ms"])
        XCTAssertFalse(p.filterIsInterim)
        try Fixture.assertShowsExactly(passing, of: places, in: p)

        // The next small change starts from the settled set (adopted), added places this time.
        let back = try XCTUnwrap(p.setFilter(settings("mag >= 3.1")))
        let (again, _, late) = try run(back, in: p)
        XCTAssertEqual(again.map(\.name), ["filter-interim"])
        XCTAssertEqual(fields(again[0])["changed"], .int(places.filter { $0.mag >= 3.1 && $0.mag < 3.2 }.count))
        try Fixture.assertShowsExactly(places.indices.filter { places[$0].mag >= 3.1 }, of: places, in: p)
        // An interim arriving after its request settled is dropped: the exact clusters stay.
        XCTAssertEqual(p.finishFilter(try XCTUnwrap(late)).map(\.name), [])
        XCTAssertFalse(p.filterIsInterim)
    }

    func testASelectedPlaceTheChangeRemovesIsDeselectedAtTheInterim() throws {
        let places = Fixture.places(1200)
        let p = try showing(places)
        let gone = try XCTUnwrap(places.indices.first { places[$0].mag >= 3 && places[$0].mag < 3.2 })
        _ = p.select(point: gone, now: 0, reducedMotion: true)
        let (interim, settled, _) = try run(try XCTUnwrap(p.setFilter(settings("mag >= 3.2"))), in: p) { p in
            XCTAssertNil(p.state.selectedPoint)
        }
        XCTAssertEqual(interim.map(\.name), ["deselect", "filter-interim"])
        XCTAssertEqual(settled.map(\.name), ["filter"])
    }

    func testBigGroupedAndTotalledChangesGoStraightToTheExactBuild() throws {
        let places = Fixture.places(2000)
        let p = try showing(places, maximumChanges: 40)
        // More than 40 places change.
        var (interim, settled, _) = try run(try XCTUnwrap(p.setFilter(settings("mag >= 4"))), in: p)
        XCTAssertEqual(interim.map(\.name), [])
        XCTAssertEqual(settled.map(\.name), ["filter"])
        XCTAssertNil(fields(settled[0])["interim_ms"])
        // Grouped: no interim, and none held for the next change either.
        var grouped = try settings("mag >= 4.1")
        _ = try grouped.set("by", "type")
        (interim, settled, _) = try run(try XCTUnwrap(p.setFilter(grouped)), in: p)
        XCTAssertEqual(interim.map(\.name), [])
        (interim, settled, _) = try run(try XCTUnwrap(p.setFilter(settings("mag >= 4.2"))), in: p)
        XCTAssertEqual(interim.map(\.name), [], "nothing held after a grouped build")
        var totalled = try settings("mag >= 4.3")
        _ = try totalled.set("total", "sum:mag")
        (interim, settled, _) = try run(try XCTUnwrap(p.setFilter(totalled)), in: p)
        XCTAssertEqual(interim.map(\.name), [])
        try Fixture.assertShowsExactly(places.indices.filter { places[$0].mag >= 4.3 }, of: places, in: p)
        // Without a way to show it (`render`, `applyFilter`) there is no interim either.
        try p.applyFilter(settings("mag >= 4.4"))
        XCTAssertFalse(p.filterIsInterim)
    }
}
