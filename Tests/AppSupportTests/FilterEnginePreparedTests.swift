import XCTest
import GeoData
@testable import ClusterCore
@testable import AppSupport

/// The filter engine builds its subsets with the session's `PreparedPoints` (issue 29 item 3),
/// and that changes only the speed: the clusters equal an unprepared build of the same selection.
final class FilterEnginePreparedTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    func testPreparedBuildsGiveTheSameClustersAsUnprepared() throws {
        let places = Fixture.places(3000, seed: 21)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(places), name: "events.csv")])
        let engine = FilterEngine(session: session)
        for (expression, by) in [("mag >= 1", ""), ("type != 'storm'", "type"), ("mag < 0.3", "")] {
            var settings = FilterSettings()
            _ = try settings.set("where", expression)
            if !by.isEmpty { _ = try settings.set("by", by) }
            let used = LevelBuilder.preparedBands.count
            let shown = try XCTUnwrap(try engine.run(settings))
            // A big selection waits for the prepared points and takes the prepared path.
            if shown.passing >= places.count / 16 {
                XCTAssertNotNil(engine.preparedPoints(forChosen: 0), expression)
                XCTAssertGreaterThan(LevelBuilder.preparedBands.count, used, "\(expression): prepared path taken")
            }
            let result = shown.result
            let (categories, values) = session.aggregateInputs()
            let plain = SubsetClusterer(points: session.places.coordinates, selection: result.selection, groups: result.groups,
                                        categories: categories, values: values,
                                        method: .hierarchical(MapDataSession.clusterOptions))
            XCTAssertEqual(plain.indexedCount, shown.passing, expression)
            for zoom in [0, 2, 4, 6, 9, 12, 19] {
                XCTAssertEqual(Fixture.canonical(shown.index, zoom: zoom), Fixture.canonical(plain, zoom: zoom), "\(expression), zoom \(zoom)")
            }
        }
    }
}
