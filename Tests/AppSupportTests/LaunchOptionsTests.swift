import XCTest
@testable import AppSupport

final class LaunchOptionsTests: XCTestCase {
    func testDefaults() throws {
        let o = try LaunchOptions.parse([])
        XCTAssertEqual(o.width, 1280)
        XCTAssertEqual(o.height, 800)
        XCTAssertNil(o.dataset)
        XCTAssertFalse(o.reduceMotion)
    }

    func testAllWindowOptions() throws {
        let o = try LaunchOptions.parse(["--dataset", "madrid", "--center", "40.4,-3.7", "--zoom=12.5",
                                         "--size", "800x600", "--reduce-motion", "--event-log", "-"])
        XCTAssertEqual(o.dataset, "madrid")
        XCTAssertEqual(o.center?.latitude, 40.4)
        XCTAssertEqual(o.center?.longitude, -3.7)
        XCTAssertEqual(o.zoom, 12.5)
        XCTAssertEqual(o.width, 800)
        XCTAssertEqual(o.height, 600)
        XCTAssertTrue(o.reduceMotion)
        XCTAssertEqual(o.eventLogPath, "-")
    }

    func testFilesAndDoubleDash() throws {
        let o = try LaunchOptions.parse(["a.geojson", "--", "--weird.csv"])
        XCTAssertEqual(o.files, ["a.geojson", "--weird.csv"])
    }

    func testBadValuesAreOneLineErrors() {
        let cases: [[String]] = [["--zoom", "abc"], ["--zoom", "19"], ["--zoom", "nan"], ["--center", "91,0"],
                                 ["--center", "1"], ["--size", "10x10"], ["--size", "big"], ["--bogus"],
                                 ["--zoom"], ["--output", "x.png"], ["--reduce-motion=yes"],
                                 ["a.csv", "--dataset", "madrid"], ["--dataset", "atlantis"]]
        for c in cases {
            XCTAssertThrowsError(try LaunchOptions.parse(c), "\(c)") { e in
                let m = (e as? LaunchOptions.ParseError)?.message ?? ""
                XCTAssertFalse(m.isEmpty)
                XCTAssertFalse(m.contains("\n"), m)
            }
        }
    }

    func testRenderNeedsOutput() throws {
        XCTAssertThrowsError(try LaunchOptions.parse(["--dark"], mode: .render))
        let o = try LaunchOptions.parse(["--output", "o.png", "--dark", "--size", "640x400"], mode: .render)
        XCTAssertEqual(o.output, "o.png")
        XCTAssertTrue(o.dark)
    }

    func testHelpListsEveryOption() {
        let h = LaunchOptions.helpText(program: "clustermap")
        for o in LaunchOptions.valueOptions { XCTAssertTrue(h.contains("--\(o.name)"), o.name) }
        for f in LaunchOptions.flagOptions { XCTAssertTrue(h.contains("--\(f.name)"), f.name) }
    }
}

final class BasemapOptionTests: XCTestCase {
    func testBasemapTakesBuiltinOrATileFile() throws {
        XCTAssertNil(try LaunchOptions.parse(["--basemap", "builtin"]).basemap)
        XCTAssertEqual(try LaunchOptions.parse(["--basemap", "/maps/region.mbtiles"]).basemap, "/maps/region.mbtiles")
        XCTAssertEqual(try LaunchOptions.parse(["--basemap=city.PMTiles"]).basemap, "city.PMTiles")
        XCTAssertEqual(try LaunchOptions.parse(["--basemap", "osm"]).basemap, LaunchOptions.openStreetMapTemplate)
        XCTAssertTrue(try LaunchOptions.parse(["--basemap", "https://t.example/{z}/{x}/{y}.png"]).basemapIsOnline)
        XCTAssertFalse(try LaunchOptions.parse(["--basemap", "a.pmtiles"]).basemapIsOnline)
        for bad in ["map.png", "https://tile.example/tiles.png"] {
            XCTAssertThrowsError(try LaunchOptions.parse(["--basemap", bad])) { error in
                XCTAssertTrue("\(error)".contains("--basemap"), "\(error)")
            }
        }
    }

    func testFilesAndDemosOpenFittedTheWorldCitiesOnTheWorld() throws {
        XCTAssertFalse(try LaunchOptions.parse([]).opensFittedToData)
        XCTAssertFalse(try LaunchOptions.parse(["--dataset", "world-cities"]).opensFittedToData)
        for demo in ["madrid", "lisbon", "london", "airports", "earthquakes"] {
            XCTAssertTrue(try LaunchOptions.parse(["--dataset", demo]).opensFittedToData, demo)
        }
        XCTAssertTrue(try LaunchOptions.parse(["places.csv"]).opensFittedToData)
        XCTAssertFalse(try LaunchOptions.parse(["--dataset", "madrid", "--zoom", "3"]).opensFittedToData)
        XCTAssertFalse(try LaunchOptions.parse(["places.csv", "--center", "1,2"]).opensFittedToData)
    }
}

/// `HTTP://` in capitals is a URL too (issue 34): URL schemes ignore case.
final class UpperCaseURLTests: XCTestCase {
    func testAnUpperCaseSchemeIsAnOnlineSource() throws {
        let template = "HTTP://127.0.0.1:8080/{z}/{x}/{y}.png"
        XCTAssertEqual(try LaunchOptions.parseBasemap(template), template)
        XCTAssertTrue(LaunchOptions.isOnlineBasemap(template))
        XCTAssertTrue(LaunchOptions.isOnlineBasemap("Https://tiles.example.org/{z}/{x}/{y}.png"))
        XCTAssertFalse(LaunchOptions.isOnlineBasemap("http-tiles.pmtiles"))
        XCTAssertTrue(LaunchOptions.isURL("HTTPS://example.org/feed.geojson"))
    }
}
