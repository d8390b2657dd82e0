import XCTest
import ClusterCore
import GeoData
@testable import AppSupport

/// `0`/Home fits what passes the filter (review-s16 finding 14), checked against the fixture.
final class HomeBoundsTests: XCTestCase {
    func testHomeFitsThePassingPlaces() throws {
        let places = MapPresentationFilterTests.places(1200, seed: 5)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: MapPresentationFilterTests.csv(places), name: "e.csv")])
        let engine = FilterEngine(session: session)
        // No filter: every place, as before.
        XCTAssertEqual(session.homeBounds(shown: nil), session.bounds)
        var s = FilterSettings()
        s.conditions = ["mag >= 8.5"]
        let shown = try XCTUnwrap(try engine.run(s))
        let passing = places.filter { $0.mag >= 8.5 }
        XCTAssertGreaterThan(passing.count, 1)
        let b = try XCTUnwrap(session.homeBounds(shown: shown))
        XCTAssertEqual(b.west, passing.map(\.lon).min()!, accuracy: 1e-9)
        XCTAssertEqual(b.east, passing.map(\.lon).max()!, accuracy: 1e-9)
        XCTAssertEqual(b.south, passing.map(\.lat).min()!, accuracy: 1e-9)
        XCTAssertEqual(b.north, passing.map(\.lat).max()!, accuracy: 1e-9)
        XCTAssertNotEqual(b, session.bounds, "narrower than every place")
        // One place: a small box around it, not a point.
        let one = try XCTUnwrap(places.indices.first { i in
            !places.indices.contains { $0 != i && places[$0].mag == places[i].mag && places[$0].day == places[i].day } })
        let day = DateText.text(Double(places[one].day) * 86400 + 946_684_800).prefix(10)
        s.conditions = ["mag = \(places[one].mag) and date >= '\(day)' and date <= '\(day)'"]
        let singleShown = try XCTUnwrap(try engine.run(s))
        XCTAssertEqual(singleShown.passing, 1)
        let single = try XCTUnwrap(session.homeBounds(shown: singleShown))
        XCTAssertEqual(single.east - single.west, 0.04, accuracy: 1e-9)
        XCTAssertTrue(single.contains(GeoCoordinate(latitude: places[one].lat, longitude: places[one].lon)))
        // Nothing passes: every place (the map says "0 of N"; 0 still shows the data).
        s.conditions = ["mag > 100"]
        XCTAssertEqual(session.homeBounds(shown: try engine.run(s)), session.bounds)
    }
}
