import XCTest
import GeoData
@testable import ClusterCore
@testable import AppSupport

/// The scratch pool of a session's filtered builds (`PreparedPoints.scratchPool`) is kept while
/// a filter is shown — the next filter's build reuses it — and given back when the filter is
/// cleared (SPEC §8's memory lines: it costs memory only while a filter is in use).
final class FilterScratchReleaseTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    func testTheScratchIsReusedWhileFilteringAndReleasedWhenTheFilterIsCleared() throws {
        let places = Fixture.places(3000, seed: 23)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(places), name: "events.csv")])
        let engine = FilterEngine(session: session)
        let prepared = try XCTUnwrap(engine.preparedPoints(forChosen: session.pointCount))
        prepared.scratchPool.minimumBytes = 1024  // pool this small session's buffers too
        for expression in ["mag >= 1", "mag >= 2", "mag >= 1"] {
            var settings = FilterSettings()
            _ = try settings.set("where", expression)
            _ = try XCTUnwrap(try engine.run(settings))
            XCTAssertGreaterThan(prepared.scratchPool.idleBytes, 0, "\(expression): kept for the next filter")
        }
        XCTAssertGreaterThan(prepared.scratchPool.reuseCount, 0, "later filters reuse the scratch")
        XCTAssertNil(try engine.run(FilterSettings()), "no filter: the live index shows")
        XCTAssertEqual(prepared.scratchPool.idleBytes, 0, "cleared: the scratch is given back")
    }
}
