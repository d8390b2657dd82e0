import XCTest
import GeoData
@testable import AppSupport

/// Callouts read like a card (issue 12 item 6, SPEC §7): formatted, no value twice, ids behind More.
final class CalloutCardTests: XCTestCase {
    private func card(_ text: String, name: String, options: LoadOptions = LoadOptions(), at i: Int = 0) throws -> CalloutText.Card {
        let set = try PointSetLoader.load(text: text, name: name, options: options)
        return MapDataSession(pointSets: [set]).calloutText(of: i)
    }

    func testACityReadsAsPlaceCountryAndPopulation() throws {
        let c = try card("geonameid,name,lat,lon,country,admin1,population,timezone\n2267057,Lisbon,38.71667,-9.13333,PT,14,517802,Europe/Lisbon\n",
                         name: "cities.csv", options: LoadOptions(numericProperty: "population"))
        XCTAssertEqual(c.title, "Lisbon")
        XCTAssertEqual(c.lines, ["Lisbon, Portugal · population 517,802"])
        XCTAssertEqual(c.moreLines, ["GeoNames ID: 2267057", "Region code: 14", "Time zone: Europe/Lisbon"])
        XCTAssertFalse((c.lines + c.moreLines).contains { $0.contains("517802") }, "thousands separators")
    }

    func testAStaySaysItsPriceOnce() throws {
        let c = try card("""
        {"type":"FeatureCollection","features":[{"type": "Feature", "id": 1, "properties": {"name": "Rooftop Loft", "label": "$120", "category": "stay", "price_usd": 120}, "geometry": {"type": "Point", "coordinates": [-9.1389, 38.7139]}}]}
        """, name: "lisbon.geojson", options: LoadOptions(numericProperty: "price_usd"))
        XCTAssertEqual(c.title, "Rooftop Loft")
        XCTAssertEqual(c.lines, ["$120", "Stay"])
        XCTAssertTrue(c.moreLines.isEmpty, "\(c.moreLines)")
    }

    func testAnEarthquakeSaysItsMagnitudeOnce() throws {
        let c = try card("date,lat,lon,mag\n2016-12-28,38.3917,-118.8941,5.6\n", name: "quakes.csv",
                         options: LoadOptions(numericProperty: "mag"))
        XCTAssertEqual(c.title, "M 5.6")
        XCTAssertEqual(c.lines, ["Date: 2016-12-28"])
        XCTAssertFalse(c.lines.joined().contains("mag"), "\(c.lines)")
    }

    func testAnAirportNamesItsCityAndCountry() throws {
        let c = try card("icao,iata,name,city,country,lat,lon,elevation_ft,has_iata\nLPPT,LIS,Lisbon Portela Airport,Lisbon,PT,38.7813,-9.13592,374,1\n",
                         name: "airports.csv", options: LoadOptions(numericProperty: "elevation_ft", categoryProperty: "has_iata",
                                                                    categoryLabels: ["1": "With IATA code", "0": "Without IATA code"]))
        XCTAssertEqual(c.lines, ["Lisbon, Portugal · With IATA code · elevation 374 ft", "IATA: LIS"])
        XCTAssertEqual(c.moreLines, ["ICAO: LPPT"])
    }

    func testNumbersForPeople() {
        XCTAssertEqual(PropertyFormat.number(517802), "517,802")
        XCTAssertEqual(PropertyFormat.number(0.19), "0.19")
        XCTAssertEqual(PropertyFormat.number(5.6, decimals: 1), "5.6")
        XCTAssertEqual(PropertyFormat.number(6, decimals: 1), "6.0")
        XCTAssertEqual(PropertyFormat.number(-12345.5), "-12,345.5")
        XCTAssertEqual(PropertyFormat.country("ES"), "Spain")
        XCTAssertEqual(PropertyFormat.country("Atlantis"), "Atlantis")
    }

    /// Tooltips use the dataset's noun and name the strongest members first (issue 12 item 6).
    func testTooltipsUseTheNounAndTheMostImportantMembersFirst() throws {
        var csv = "date,lat,lon,mag\n"
        let mags = [5.5, 5.8, 6.1, 5.6, 7.2, 5.9]
        for (i, m) in mags.enumerated() { csv += "2016-01-0\(i + 1),10.\(i),20.\(i),\(m)\n" }
        let set = try PointSetLoader.load(text: csv, name: "quakes.csv", options: LoadOptions(numericProperty: "mag"))
        let quakes = try XCTUnwrap(DatasetCatalog.dataset(id: "earthquakes"))
        let s = MapDataSession(pointSets: [set], datasets: [quakes])
        let items = s.clusterer.clusters(in: .world, zoom: 2)
        XCTAssertEqual(items.count, 1)
        XCTAssertEqual(s.tooltip(of: items[0], names: 3), "6 earthquakes\nM 7.2, M 6.1, M 5.9, …")
        XCTAssertEqual(s.noun(count: 1), "earthquake")
        // A file without a dataset: "places", index order.
        let plain = MapDataSession(pointSets: [set])
        XCTAssertTrue(plain.tooltip(of: plain.clusterer.clusters(in: .world, zoom: 2)[0]).hasPrefix("6 places\n"))
    }

    /// Search results name the country, not its code (issue 12 item 7).
    func testSearchRowsNameTheCountry() throws {
        let set = try PointSetLoader.load(text: "geonameid,name,lat,lon,country,admin1,population,timezone\n2267057,Lisbon,38.71667,-9.13333,PT,14,517802,Europe/Lisbon\n",
                                          name: "cities.csv")
        XCTAssertEqual(MapDataSession(pointSets: [set]).searchDetail(of: 0), "Portugal · pop. 517,802")
    }
}
