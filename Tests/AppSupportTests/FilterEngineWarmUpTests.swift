import XCTest
import GeoData
@testable import AppSupport

/// The first filter of a session no longer decodes the properties itself: the window starts
/// `FilterEngine.warmUp` once a load is shown, and a filter after it answers from that table.
/// The answer equals a fresh engine's (the person's types apply on top of the warmed table).
final class FilterEngineWarmUpTests: XCTestCase {
    typealias Fixture = MapPresentationFilterTests

    private func warmed(_ engine: FilterEngine) -> Double {
        let ready = expectation(description: "warm-up done")
        let took = LockedBox(-1.0)
        engine.warmUp { ms in
            took.value = ms
            ready.fulfill()
        }
        wait(for: [ready], timeout: 60)
        return took.value
    }

    func testAWarmedEngineAnswersTheFirstFilterWithoutDecodingAgain() throws {
        let places = Fixture.places(3000, seed: 33)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(places), name: "events.csv")])
        let engine = FilterEngine(session: session)
        XCTAssertEqual(engine.recordsDecoded, 0, "nothing decoded before")
        XCTAssertGreaterThan(warmed(engine), 0, "the warm-up decoded the table")
        XCTAssertEqual(engine.recordsDecoded, places.count, "every place decoded before any filter")
        let tableMs = engine.tableMilliseconds
        XCTAssertGreaterThan(tableMs, 0)

        // A second warm-up does nothing (once per engine): no second `done`, no second table.
        engine.warmUp { _ in XCTFail("warmed twice") }

        var settings = FilterSettings()
        _ = try settings.set("type", "mag=text")  // a person's type on top of the warmed table
        _ = try settings.set("where", "type in ('quake', 'slide')")
        let shown = try XCTUnwrap(try engine.run(settings))
        XCTAssertEqual(engine.tableMilliseconds, tableMs, "the filter used the warmed table, not a new one")
        let fresh = try XCTUnwrap(try FilterEngine(session: session).run(settings))
        XCTAssertEqual(shown.passing, fresh.passing)
        XCTAssertEqual(shown.passing, places.filter { $0.type == "quake" || $0.type == "slide" }.count)
        for zoom in [0, 3, 6, 10] {
            XCTAssertEqual(Fixture.canonical(shown.index, zoom: zoom), Fixture.canonical(fresh.index, zoom: zoom), "zoom \(zoom)")
        }
    }

    func testAWarmUpAfterAFilterDecodedFindsTheTableReady() throws {
        let places = Fixture.places(500, seed: 34)
        let session = MapDataSession(pointSets: [try PointSetLoader.load(text: Fixture.csv(places), name: "events.csv")])
        let engine = FilterEngine(session: session)
        var settings = FilterSettings()
        _ = try settings.set("where", "mag < 3")
        _ = try engine.run(settings)
        let tableMs = engine.tableMilliseconds
        XCTAssertEqual(warmed(engine), 0, "already decoded: nothing to do")
        XCTAssertEqual(engine.tableMilliseconds, tableMs)
    }
}

/// A value written on the warm-up's thread and read after its expectation (no race: `wait`).
private final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
