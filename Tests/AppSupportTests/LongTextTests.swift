import XCTest
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// A 1 MB property value and a right-to-left override in a name (issue 34): the callout, the In
/// View list and the names on the map stay bounded, with a longer excerpt behind "More".
final class LongTextTests: XCTestCase {
    let hugeName = String(repeating: "Nametown ", count: 120_000)  // ≈ 1 MB
    let hugeValue = String(repeating: "v", count: 1_000_000)

    func session() throws -> MapDataSession {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"\(hugeName)","note":"\(hugeValue)","\(String(repeating: "k", count: 5000))":"x"},"geometry":{"type":"Point","coordinates":[1,2]}},
        {"type":"Feature","properties":{"name":"Quake\\u202Egpj.exe","category":"\(hugeValue)"},"geometry":{"type":"Point","coordinates":[3,4]}},
        {"type":"Feature","properties":{"name":"Lisbon"},"geometry":{"type":"Point","coordinates":[-9.1,38.7]}}]}
        """
        return MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "long.geojson")])
    }

    func testTheCalloutIsBoundedWithMoreBehindIt() throws {
        let s = try session()
        let card = s.calloutText(of: 0)
        XCTAssertEqual(card.title.unicodeScalars.count, DisplayText.nameLength - 1, "a space before … is dropped")
        XCTAssertTrue(card.title.hasPrefix("Nametown Nametown"))
        XCTAssertTrue(card.title.hasSuffix("…"))
        for line in card.lines + card.moreLines { XCTAssertLessThanOrEqual(line.unicodeScalars.count, DisplayText.fullLength + 8, line.prefix(40) + "…") }
        let more = try XCTUnwrap(card.moreLines.first)
        XCTAssertTrue(more.hasPrefix("Name: Nametown"), "the longer excerpt behind More")
        XCTAssertEqual(more.unicodeScalars.count, "Name: ".count + DisplayText.fullLength)
        XCTAssertTrue(card.lines.contains { $0.hasPrefix("Note: vvv") && $0.hasSuffix("…") })
        XCTAssertTrue((card.lines + card.moreLines).contains { $0.hasSuffix("k…: x") && $0.unicodeScalars.count == CalloutText.maxKeyCharacters + 3 },
                      "a long property name is cut too: \((card.lines + card.moreLines).map { $0.prefix(50) })")
        // Measured as drawn: within the card's width, the title on its two lines at most.
        let short = CalloutMeasurer.size(title: "Lisbon", lines: [])
        let size = CalloutMeasurer.size(title: card.title, lines: card.lines)
        XCTAssertLessThanOrEqual(size.width, 280)
        XCTAssertLessThanOrEqual(size.height, CalloutMeasurer.defaultMaxHeight)
        XCTAssertGreaterThan(size.width, short.width)
        XCTAssertEqual(s.calloutText(of: 2).title, "Lisbon", "short names as they are")
    }

    func testTheOverrideIsShownInEveryPlaceItAppears() throws {
        let s = try session()
        XCTAssertEqual(s.places.name(of: 1), "Quake\\u202egpj.exe")
        XCTAssertEqual(s.calloutText(of: 1).title, "Quake\\u202egpj.exe")
        XCTAssertEqual(s.places.name(of: 0), s.calloutText(of: 0).title, "the name drawn on the map, bounded")
    }

    func testInViewRowsAreBounded() throws {
        let s = try session()
        let rows = s.inViewRows(order: (0..<3).map { SceneItemID.point($0) }, scene: Scene())
        XCTAssertEqual(rows.count, 3)
        for row in rows {
            XCTAssertLessThanOrEqual(row.title.unicodeScalars.count, DisplayText.nameLength)
            XCTAssertLessThanOrEqual(row.subtitle.unicodeScalars.count, DisplayText.nameLength)
            XCTAssertLessThanOrEqual(row.name.unicodeScalars.count, 2 * DisplayText.nameLength + 2)
        }
        XCTAssertEqual(rows[2].title, "Lisbon")
        // The shortened name is read whole (up to the long limit) in the row's tooltip; a short one has none.
        let full = try XCTUnwrap(rows[0].fullTitle)
        XCTAssertLessThanOrEqual(full.unicodeScalars.count, DisplayText.fullLength)
        XCTAssertGreaterThan(full.unicodeScalars.count, DisplayText.fullLength - 2, "as long as the long limit allows")
        XCTAssertTrue(full.hasPrefix(String(rows[0].title.dropLast())), "the tooltip continues the shown name")
        XCTAssertNil(rows[2].fullTitle)
    }

    func testLegendCategoriesAreBounded() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"a","category":"\(hugeValue)"},"geometry":{"type":"Point","coordinates":[1,2]}},
        {"type":"Feature","properties":{"name":"b","category":"Evil\\u202Ereversed"},"geometry":{"type":"Point","coordinates":[3,4]}}]}
        """
        let s = MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "cats.geojson")])
        let legend = s.legend
        XCTAssertEqual(legend.title, "Category")
        for entry in legend.entries { XCTAssertLessThanOrEqual(entry.text.unicodeScalars.count, 100, String(entry.text.prefix(40))) }
        XCTAssertTrue(legend.entries.contains { $0.text == "Evil\\u202ereversed" }, "\(legend.entries.map { $0.text.prefix(30) })")
    }
}
