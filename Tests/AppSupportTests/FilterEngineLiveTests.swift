import XCTest
import GeoData
@testable import ClusterCore
import MapModel
import MapRender
@testable import AppSupport

/// Live data with a filter on (issue 29): after a live update only the places added, changed or
/// removed are decoded again, and what the filter shows equals a fresh filter over the current
/// places (passing places, groups, counts, "N of M places", clusters, the panel's catalog).
final class FilterEngineLiveTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    struct Row { var id: Int; var place: Fixture.Place }

    static func csv(_ rows: [Row]) -> String {
        "id,lat,lon,mag,type,date\n" + rows.map { r in
            let p = r.place
            return "\(r.id),\(p.lat),\(p.lon),\(p.mag),\(p.type),\(DateText.text(Double(p.day) * 86400 + 946_684_800).prefix(10))"
        }.joined(separator: "\n") + "\n"
    }

    static func set(_ rows: [Row]) throws -> PointSet { try PointSetLoader.load(text: csv(rows), name: "live.csv") }

    /// The next version of `rows`: `changed` places get another magnitude and type (a type never
    /// seen before among them, early in the file, so the texts' first appearances move), `moved`
    /// move, `removed` go and `added` new ones come at the end. Returns how many rows' bytes changed.
    static func next(_ rows: [Row], round: Int, changed: Int, moved: Int, removed: Int, added: Int, nextID: inout Int) -> ([Row], Int) {
        var out = rows
        let stride = max(1, rows.count / (changed + moved + removed + 1))
        var k = round % stride
        for c in 0..<changed {
            out[k].place.mag += 3.25
            out[k].place.type = c % 3 == 0 ? "tornado\(round)" : Fixture.types[(c + round) % Fixture.types.count]
            k += stride
        }
        for _ in 0..<moved {
            out[k].place.lat += 0.5
            k += stride
        }
        var gone = Set<Int>()
        for _ in 0..<removed {
            gone.insert(out[k].id)
            k += stride
        }
        out.removeAll { gone.contains($0.id) }
        for p in Fixture.places(added, seed: UInt64(100 + round)) {
            out.append(Row(id: nextID, place: p))
            nextID += 1
        }
        return (out, changed + moved + added)
    }

    func testALiveUpdateDecodesOnlyWhatChangedAndFiltersExactlyAsAFreshFilter() throws {
        var nextID = 0
        var rows = Fixture.places(2000, seed: 5).map { p -> Row in defer { nextID += 1 }; return Row(id: nextID, place: p) }
        var session = MapDataSession(pointSets: [try Self.set(rows)])
        _ = session.identityKeys(idProperty: "id")
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(session)
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 1.5 and type != 'storm'")
        _ = try settings.set("by", "type")
        try p.applyFilter(settings)
        XCTAssertEqual(p.filterEngine()?.recordsDecoded, rows.count, "the first filter decodes every place")

        for round in 1...3 {
            let (newRows, rewritten) = Self.next(rows, round: round, changed: 30, moved: 10, removed: 40, added: 50, nextID: &nextID)
            rows = newRows
            let plan = try XCTUnwrap(session.planUpdate(to: try Self.set(rows), dataset: nil, idProperty: "id"))
            let (updated, newID, _) = plan.applied()
            _ = p.dataDidChange(to: updated, newID: newID)
            let job = try XCTUnwrap(p.refilter(keepingFrom: session))
            _ = p.finishFilter(job.run())
            session = updated
            let shown = try XCTUnwrap(p.shownFilter)
            XCTAssertEqual(p.filterEngine()?.recordsDecoded, rewritten, "round \(round): only added, changed and moved places are decoded")

            // The oracle: a fresh engine over the same session decodes everything.
            let fresh = try XCTUnwrap(try FilterEngine(session: updated).run(settings))
            XCTAssertEqual(shown.passing, fresh.passing, "round \(round)")
            XCTAssertEqual(shown.total, fresh.total, "round \(round)")
            XCTAssertEqual(shown.placesText, fresh.placesText, "round \(round)")
            XCTAssertEqual(chosen(shown.result.selection), chosen(fresh.result.selection), "round \(round)")
            XCTAssertEqual(shown.result.groups, fresh.result.groups, "round \(round): same categories, numbered alike")
            XCTAssertEqual(shown.result.groupNames, fresh.result.groupNames, "round \(round)")
            for zoom in [0, 3, 6, 10, 19] {
                XCTAssertEqual(Fixture.canonical(shown.index, zoom: zoom), Fixture.canonical(fresh.index, zoom: zoom), "round \(round), zoom \(zoom)")
            }
            XCTAssertEqual(try XCTUnwrap(p.filterEngine()).catalog(types: [:]), FilterEngine(session: updated).catalog(types: [:]),
                           "round \(round): the panel shows the same properties, counts and ranges")
            // And by the fixture's own values: what passes is what the rows say.
            let expected = rows.filter { $0.place.mag >= 1.5 && $0.place.type != "storm" }.count
            XCTAssertEqual(shown.passing, expected, "round \(round)")
        }
    }

    /// A place whose values changed but which did not move (same key, same spot, same name) is
    /// read again too: its digest differs.
    func testAChangedValueWithoutAMoveIsReadAgain() throws {
        let rows = Fixture.places(300, seed: 9).enumerated().map { Row(id: $0.offset, place: $0.element) }
        let session = MapDataSession(pointSets: [try Self.set(rows)])
        _ = session.identityKeys(idProperty: "id")
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 100")
        let before = FilterEngine(session: session)
        XCTAssertEqual(try before.run(settings)?.passing, 0)
        var changed = rows
        changed[7].place.mag = 150
        changed[8].place.type = "other"
        let plan = try XCTUnwrap(session.planUpdate(to: try Self.set(changed), dataset: nil, idProperty: "id"))
        XCTAssertTrue(plan.change.isEmpty, "no place moved, came or went")
        let updated = plan.applied().session
        let after = FilterEngine(session: updated, following: before)
        XCTAssertEqual(try after.run(settings)?.passing, 1)
        XCTAssertEqual(after.recordsDecoded, 2)
    }

    /// The replay adds places to the same set: none of the earlier ones is read again.
    func testTheReplayDecodesOnlyTheNewPlaces() throws {
        let rows = Fixture.places(500, seed: 3).enumerated().map { Row(id: $0.offset, place: $0.element) }
        let replay = EarthquakeReplay(set: try Self.set(rows), dataset: nil, daysPerSecond: 200)
        replay.advance(seconds: 2)
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 1")
        let first = FilterEngine(session: replay.session)
        _ = try first.run(settings)
        let shownBefore = replay.shown
        XCTAssertGreaterThan(shownBefore, 0)
        replay.advance(seconds: 2)
        XCTAssertGreaterThan(replay.shown, shownBefore)
        let next = FilterEngine(session: replay.session, following: first)
        let shown = try XCTUnwrap(try next.run(settings))
        XCTAssertEqual(next.recordsDecoded, replay.shown - shownBefore)
        XCTAssertEqual(shown.passing, try XCTUnwrap(try FilterEngine(session: replay.session).run(settings)).passing)
    }

    private func chosen(_ s: PointSelection?) -> [Int] {
        var out: [Int] = []
        s?.forEachChosen { out.append($0) }
        return out
    }
}
