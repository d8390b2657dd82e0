import Foundation
import XCTest
import ClusterCore
import GeoData
import MapModel
import MapRender
@testable import AppSupport

/// Issue 32 item 5: each colour on the map means one thing. A category's colour is never also
/// the bubbles' fill or the selection's, and the legend shows every bubble step and what a
/// labelled place looks like.
final class ColourMeaningTests: XCTestCase {
    /// ΔE (CIE76) below which two colours read as "the same colour" on a map: museum blue
    /// 0x2F7ED8 and the old bubble blue 0x1C74C8 were 7 apart, park orange 0xE0702A and the old
    /// selection orange 0xE8590C 9 apart.
    static let sameColour = 20.0

    var categoryColours: [UInt32] { PlaceColors.categorical + [MapDataSession.otherCategoryColor] }

    func testNoCategoryColourIsTheMixedBubblesFill() {
        let fill = MapColor(hex: BubbleLook.mixFill)
        for c in categoryColours {
            XCTAssertGreaterThan(MapColor(hex: c).difference(to: fill), Self.sameColour,
                                 String(format: "category %06X looks like the bubbles' fill", c))
        }
    }

    func testNoCategoryColourIsTheSelectionColour() {
        for palette in [MapPalette.light, MapPalette.dark] {
            for c in categoryColours + [BubbleLook.mixFill] {
                XCTAssertGreaterThan(MapColor(hex: c).difference(to: palette.selection), Self.sameColour,
                                     String(format: "%06X looks like the %@ selection", c, palette.name))
            }
            // The ring shows on the map's land and on its halo.
            XCTAssertGreaterThan(palette.selection.difference(to: palette.land), 40)
            XCTAssertGreaterThan(palette.selection.difference(to: palette.selectionHalo.withAlpha(1)), 40)
        }
    }

    func testTheDifferenceMeasureSeesTheOldClashes() {
        // The oracle itself: the clashes the issue reported are under the threshold.
        XCTAssertLessThan(MapColor(hex: 0x2F7ED8).difference(to: MapColor(hex: 0x1C74C8)), Self.sameColour)
        XCTAssertLessThan(MapColor(hex: 0xE0702A).difference(to: MapColor(hex: 0xE8590C)), Self.sameColour)
        XCTAssertEqual(MapColor(hex: 0xFFFFFF).difference(to: MapColor(hex: 0x000000)), 100, accuracy: 0.1)
    }

    func testMadridsBubblesAreNoCategorysColour() throws {
        let text = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","properties":{"name":"Prado","category":"museum"},"geometry":{"type":"Point","coordinates":[-3.6921,40.4138]}},
        {"type":"Feature","properties":{"name":"Reina Sofía","category":"museum"},"geometry":{"type":"Point","coordinates":[-3.6944,40.4080]}},
        {"type":"Feature","properties":{"name":"Retiro","category":"park"},"geometry":{"type":"Point","coordinates":[-3.6846,40.4153]}},
        {"type":"Feature","properties":{"name":"Plaza Mayor","category":"square"},"geometry":{"type":"Point","coordinates":[-3.7074,40.4155]}}
        ]}
        """
        let s = MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "madrid.geojson")])
        let cam = Camera(center: GeoCoordinate(latitude: 40.41, longitude: -3.69), zoom: 10, viewportSize: ScreenSize(width: 800, height: 600))
        var scene = SceneBuilder().build(camera: cam, items: s.visibleItems(for: cam), places: s.places, state: SceneState())
        s.decorateBubbles(in: &scene)
        XCTAssertFalse(scene.bubbles.isEmpty)
        let dots = s.legend.entries.compactMap { e -> UInt32? in if case .dot(let c) = e.swatch { return c } else { return nil } }
        XCTAssertEqual(dots.count, 3)
        for b in scene.bubbles {
            let fill = try XCTUnwrap(b.look.fill, "a mixed bubble has its own fill, not the count step's blue")
            for d in dots { XCTAssertGreaterThan(MapColor(hex: fill).difference(to: MapColor(hex: d)), Self.sameColour) }
        }
    }

    func testTheLegendShowsEachBubbleStepTheDataCanReach() throws {
        func session(_ n: Int) throws -> MapDataSession {
            var csv = "name,lat,lon\n"
            for i in 0..<n { csv += "p\(i),\(Double(i % 40) * 0.01),\(Double(i / 40) * 0.01)\n" }
            return MapDataSession(pointSets: [try PointSetLoader.load(text: csv, name: "p.csv")])
        }
        let steps: (MapDataSession) -> [MapLegend.Swatch] = { $0.legend.entries.map(\.swatch).filter { if case .step = $0 { return true } else { return false } } }
        XCTAssertEqual(steps(try session(800)), [.step(0), .step(1), .step(2)])
        XCTAssertEqual(steps(try session(150)), [.step(0), .step(1)], "750 or more can't happen with 150")
        XCTAssertEqual(steps(try session(5)), [.step(0)])
        let texts = try session(800).legend.entries.map(\.text)
        XCTAssertTrue(texts.contains("Bubble of 100–749 places"), "\(texts)")
        XCTAssertTrue(texts.contains("Bubble of 750 or more places"), "\(texts)")
    }

    func testLisbonsLegendShowsAPriceCapsule() throws {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        let set = try PointSetLoader.load(path: url.appendingPathComponent("data/points/lisbon.geojson").path,
                                          options: LoadOptions(numericProperty: "price_usd"))
        let s = MapDataSession(pointSets: [set], datasets: [DatasetCatalog.dataset(id: "lisbon")])
        let first = try XCTUnwrap(s.legend.entries.first)
        XCTAssertEqual(first.swatch, .capsule("$120"))
        XCTAssertEqual(first.text, "One stay and its price")
        XCTAssertEqual(s.legend.entries.count, 1, "its stays are never in bubbles: no bubble line")
    }
}
