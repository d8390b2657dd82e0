import XCTest
import GeoData
@testable import ClusterCore
@testable import AppSupport

/// After a live update with a filter on, the new session's prepared points are updated from the
/// old session's (`UpdatePlan.applied` hooks the caches together), equal a fresh preparation of
/// the new points (with the old first band's zooms), and the filtered clusters still equal an unprepared build.
final class LivePreparedPointsTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    func testALiveUpdateUpdatesThePreparedPointsAndFiltersStayExact() throws {
        var places = Fixture.places(3000, seed: 5)
        let s0 = MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(places), name: "events.csv")])
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 1")
        _ = try XCTUnwrap(try FilterEngine(session: s0).run(settings))
        let old = try XCTUnwrap(s0.preparedPoints.ifMade, "a big selection waited for the prepared points")
        // Two places move, twenty are added (row numbers are the ids: rows keep theirs).
        places[10].lat += 0.5
        places[200].lon -= 1
        places += Fixture.places(20, seed: 9)
        let plan = try XCTUnwrap(s0.planUpdate(to: try PointSetLoader.load(text: Fixture.csv(places), name: "events.csv"),
                                               dataset: nil, idProperty: nil))
        XCTAssertEqual(plan.change, MapDataSession.Change(added: 20, moved: 2))
        let s1 = plan.applied().session
        let merges = PreparedPoints.updatesMerged.count
        let shown = try XCTUnwrap(try FilterEngine(session: s1).run(settings))
        let made = try XCTUnwrap(s1.preparedPoints.ifMade)
        XCTAssertFalse(made === old, "prepared again for the new points")
        XCTAssertGreaterThan(PreparedPoints.updatesMerged.count, merges, "updated from the old ones, not made afresh")
        // Prepared afresh with the old first band's zooms (an update keeps them).
        let fresh = PreparedPoints(points: s1.places.coordinates, options: MapDataSession.clusterOptions, parts: nil,
                                   lastZoom: old.lastZoom)
        XCTAssertEqual(made.count, fresh.count)
        XCTAssertEqual(made.order, fresh.order)
        XCTAssertEqual(made.x.map(\.bitPattern), fresh.x.map(\.bitPattern))
        XCTAssertEqual(made.orderY.map(\.bitPattern), fresh.orderY.map(\.bitPattern))
        let (categories, values) = s1.aggregateInputs()
        let plain = SubsetClusterer(points: s1.places.coordinates, selection: shown.result.selection, categories: categories,
                                    values: values, method: .hierarchical(MapDataSession.clusterOptions))
        XCTAssertEqual(plain.indexedCount, shown.passing)
        for zoom in [0, 3, 6, 9, 12, 19] {
            XCTAssertEqual(Fixture.canonical(shown.index, zoom: zoom), Fixture.canonical(plain, zoom: zoom), "zoom \(zoom)")
        }
    }
}
