import XCTest
import ClusterCore
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// Filters through `MapPresentation` without a display (issue 29 items 2, 6, 7): after
/// `setFilter` the map shows exactly the clusters of a fresh build of the passing places,
/// computed here from the fixture's own values (not through the filter engine).
final class MapPresentationFilterTests: XCTestCase {
    struct Place { var lat, lon, mag: Double; var type: String; var day: Int }
    static let types = ["quake", "blast", "slide", "storm", "flood"]

    /// `n` places around a few hot spots, with a category, a number and a date; a fixed seed.
    static func places(_ n: Int, seed: UInt64 = 7) -> [Place] {
        var s = seed
        func next() -> Double {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return Double(s >> 11) / Double(1 << 53)
        }
        let centres = (0..<5).map { _ in (next() * 120 - 60, next() * 340 - 170) }
        return (0..<n).map { i in
            let c = centres[i % centres.count]
            let spread = i % 3 == 0 ? 8.0 : 0.4
            // Types are skewed so the checklist order (most common first) is known.
            let t = Int(pow(next(), 2) * Double(types.count))
            return Place(lat: c.0 + (next() - 0.5) * spread, lon: c.1 + (next() - 0.5) * spread,
                         mag: (next() * 90).rounded() / 10, type: types[t], day: Int(next() * 3650))
        }
    }

    static func csv(_ places: [Place]) -> String {
        "lat,lon,mag,type,date\n" + places.map { p in
            "\(p.lat),\(p.lon),\(p.mag),\(p.type),\(DateText.text(Double(p.day) * 86400 + 946_684_800).prefix(10))"
        }.joined(separator: "\n") + "\n"
    }

    static func presentation(_ places: [Place]) throws -> MapPresentation {
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(MapDataSession(pointSets: [try PointSetLoader.load(text: csv(places), name: "events.csv")]))
        return p
    }

    /// Every item of `index` at `zoom`, naming its points by input id (equal lists: equal clusters).
    static func canonical(_ index: any PointClusterer, zoom: Int, id: (Int) -> Int = { $0 }) -> [String] {
        index.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: Double(zoom)).map { item in
            switch item.kind {
            case .point(let i): return "p \(id(i)) \(item.coordinate.latitude) \(item.coordinate.longitude)"
            case .cluster(let c):
                return "c \(item.count) \(item.coordinate.latitude) \(item.coordinate.longitude) ez \(index.expansionZoom(of: c) ?? -1) "
                    + "\(index.leaves(of: c, limit: .max, offset: 0).map(id).sorted())"
            }
        }.sorted()
    }

    /// The oracle: a fresh build of exactly the passing places (in input order).
    static func assertShowsExactly(_ passing: [Int], of places: [Place], in p: MapPresentation,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        let session = try XCTUnwrap(p.session)
        let points = passing.map { GeoCoordinate(latitude: places[$0].lat, longitude: places[$0].lon) }
        let fresh = ClusteringMethod.hierarchical(MapDataSession.clusterOptions).build(points: points, categories: [], values: [])
        for zoom in [0, 2, 4, 6, 9, 12, 19] {
            XCTAssertEqual(canonical(session.shownIndex, zoom: zoom), canonical(fresh, zoom: zoom, id: { passing[$0] }),
                           "zoom \(zoom)", file: file, line: line)
        }
        // The settled scene draws what the oracle holds in view: the same counts.
        let camera = Camera(center: GeoCoordinate(latitude: 10, longitude: 20), zoom: 2.5, viewportSize: ScreenSize(width: 900, height: 700))
        _ = p.scene(for: camera, now: 100, moving: false, reducedMotion: true)
        let scene = p.scene(for: camera, now: 200, moving: false, reducedMotion: true).scene
        let expected = fresh.clusters(in: MapDataSession.queryBounds(camera, margin: 40), zoom: camera.zoom).map(\.count).sorted()
        XCTAssertEqual((scene.bubbles.map(\.count) + scene.pins.map { _ in 1 }).sorted(), expected, file: file, line: line)
    }

    func testAFilterShowsAFreshBuildOfThePassingPlaces() throws {
        let places = Self.places(3000)
        let p = try Self.presentation(places)
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 4.5")
        _ = try settings.set("where", "type in ('quake', 'slide')")
        _ = try settings.set("since", "2002-01-01")
        _ = try settings.set("until", "2006-12-31")
        let events = try p.applyFilter(settings)
        let lo = 731, hi = 2556  // 2002-01-01 … 2006-12-31 inclusive, days since 2000-01-01
        let passing = places.indices.filter {
            places[$0].mag >= 4.5 && ["quake", "slide"].contains(places[$0].type) && places[$0].day >= lo && places[$0].day <= hi
        }
        XCTAssertGreaterThan(passing.count, 100)
        XCTAssertLessThan(passing.count, 1500)
        try Self.assertShowsExactly(passing, of: places, in: p)
        let event = try XCTUnwrap(events.last)
        XCTAssertEqual(event.name, "filter")
        let fields = Dictionary(event.fields, uniquingKeysWith: { a, _ in a })
        XCTAssertEqual(fields["passing"], .int(passing.count))
        XCTAssertEqual(fields["places"], .int(3000))
        XCTAssertEqual(fields["expression"], .string("(mag >= 4.5) and (type in ('quake', 'slide')) and (date >= '2002-01-01') and (date <= '2006-12-31')"))
        XCTAssertEqual(p.filterPlacesText, FilterState.placesText(passing: passing.count, of: 3000))

        // Taken back: every place, from the live index again.
        _ = try p.applyFilter(FilterSettings())
        XCTAssertNil(p.session?.filtered)
        try Self.assertShowsExactly(Array(places.indices), of: places, in: p)
    }

    func testEveryFilterKindMatchesItsOracle() throws {
        let places = Self.places(1500, seed: 99)
        let p = try Self.presentation(places)
        let cases: [(String, (Place) -> Bool)] = [
            ("mag < 1", { $0.mag < 1 }),
            ("not type = 'quake'", { $0.type != "quake" }),
            ("type contains 'o'", { $0.type.contains("o") }),
            ("mag >= 3 and mag <= 6 or type = 'flood'", { ($0.mag >= 3 && $0.mag <= 6) || $0.type == "flood" }),
            ("mag > 100", { _ in false }),
            ("mag >= 0", { _ in true }),
        ]
        for (expression, oracle) in cases {
            var settings = FilterSettings()
            _ = try settings.set("where", expression)
            try p.applyFilter(settings)
            try Self.assertShowsExactly(places.indices.filter { oracle(places[$0]) }, of: places, in: p)
        }
    }

    func testGroupingKeepsCategoriesApartAndCountsEveryPassingPlace() throws {
        let places = Self.places(2000, seed: 3)
        let p = try Self.presentation(places)
        var settings = FilterSettings()
        _ = try settings.set("by", "type")
        _ = try settings.set("where", "mag >= 2")
        let events = try p.applyFilter(settings)
        let session = try XCTUnwrap(p.session)
        let passing = places.indices.filter { places[$0].mag >= 2 }
        for zoom in [0, 3, 8] {
            var seen = 0
            for item in session.shownIndex.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: Double(zoom)) {
                let members = item.clusterID.map { session.shownIndex.leaves(of: $0, limit: .max, offset: 0) } ?? [item.pointIndex!]
                XCTAssertEqual(Set(members.map { places[$0].type }).count, 1, "a bubble never mixes types")
                seen += members.count
            }
            XCTAssertEqual(seen, passing.count)
        }
        XCTAssertEqual(Dictionary(events.last!.fields, uniquingKeysWith: { a, _ in a })["by"], .string("type"))
    }

    /// The newest request wins: a slower, older result arriving late is dropped.
    func testAnOlderResultArrivingLateIsDropped() throws {
        let places = Self.places(800)
        let p = try Self.presentation(places)
        var a = FilterSettings(), b = FilterSettings()
        _ = try a.set("where", "mag >= 8")
        _ = try b.set("where", "mag < 2")
        let jobA = try XCTUnwrap(p.setFilter(a))
        let jobB = try XCTUnwrap(p.setFilter(b))
        let outB = jobB.run(), outA = jobA.run()
        XCTAssertEqual(p.finishFilter(outA).count, 0, "superseded")
        XCTAssertNil(p.session?.filtered, "the previous clusters stay until the newest are ready")
        XCTAssertEqual(p.finishFilter(outB).map(\.name), ["filter"])
        try Self.assertShowsExactly(places.indices.filter { places[$0].mag < 2 }, of: places, in: p)
    }

    func testAnUnanswerableFilterKeepsWhatIsShownAndSaysWhy() throws {
        let places = Self.places(500)
        let p = try Self.presentation(places)
        var good = FilterSettings(), bad = FilterSettings()
        _ = try good.set("where", "mag >= 5")
        _ = try bad.set("where", "depth >= 5")
        try p.applyFilter(good)
        XCTAssertThrowsError(try p.applyFilter(bad)) { error in
            XCTAssertTrue("\(error)".contains("no property 'depth'"), "\(error)")
        }
        try Self.assertShowsExactly(places.indices.filter { places[$0].mag >= 5 }, of: places, in: p)
        let job = try XCTUnwrap(p.setFilter(bad))
        let events = p.finishFilter(job.run())
        XCTAssertEqual(events.map(\.name), ["filter"])
        XCTAssertNotNil(Dictionary(events[0].fields, uniquingKeysWith: { a, _ in a })["error"])
    }

    func testASelectedPlaceThatNoLongerPassesIsDeselected() throws {
        let places = Self.places(400)
        let p = try Self.presentation(places)
        let low = try XCTUnwrap(places.indices.first { places[$0].mag < 3 })
        _ = p.select(point: low, now: 0, reducedMotion: true)
        var settings = FilterSettings()
        _ = try settings.set("where", "mag >= 3")
        let events = try p.applyFilter(settings)
        XCTAssertEqual(events.map(\.name), ["deselect", "filter"])
        XCTAssertNil(p.state.selectedPoint)
    }

    /// Several files side by side: one property table over the global ids; a property only one
    /// file has passes none of the other's places.
    func testSeveralFilesAreFilteredByGlobalId() throws {
        let a = try PointSetLoader.load(text: "lat,lon,kind\n1,1,x\n2,2,y\n3,3,x\n", name: "a.csv")
        let b = try PointSetLoader.load(text: "lat,lon,size\n10,10,5\n11,11,50\n", name: "b.csv")
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(MapDataSession(pointSets: [a, b]))
        var settings = FilterSettings()
        _ = try settings.set("where", "kind = 'x' or size > 10")
        try p.applyFilter(settings)
        let items = try XCTUnwrap(p.session).shownIndex.clusters(in: GeoBounds(west: -180, south: -85, east: 180, north: 85), zoom: 19)
        XCTAssertEqual(Set(items.compactMap(\.pointIndex)), [0, 2, 4])
    }
}
