import XCTest
import ClusterCore
import GeoData
import MapModel
@testable import AppSupport

/// Colour that says what it means (SPEC §7, issue 12 item 4): bubbles take the members' maximum on
/// the points' ramp, or a ring of their categories; the legend names every colour in use.
final class LegendTests: XCTestCase {
    func testEarthquakeBubblesTakeTheStrongestMembersColour() throws {
        let csv = "date,lat,lon,mag\n2000-01-01,10,20,5.5\n2000-01-02,10.01,20.01,5.6\n2000-01-03,10.02,20.02,9.1\n2000-01-04,-40,-70,5.5\n"
        let set = try PointSetLoader.load(text: csv, name: "q.csv", options: LoadOptions(numericProperty: "mag"))
        let s = MapDataSession(pointSets: [set], datasets: [try XCTUnwrap(DatasetCatalog.dataset(id: "earthquakes"))])
        let cam = Camera(center: GeoCoordinate(latitude: 10, longitude: 20), zoom: 3, viewportSize: ScreenSize(width: 800, height: 600))
        var scene = SceneBuilder().build(camera: cam, items: s.visibleItems(for: cam), places: s.places, state: SceneState())
        XCTAssertEqual(scene.bubbles.count, 1)
        s.decorateBubbles(in: &scene)
        XCTAssertEqual(scene.bubbles[0].look.fill, PlaceColors.ramp(9.1, in: 5.5...9.1), "the M 9.1 member's colour")
        XCTAssertTrue(scene.bubbles[0].look.ring.isEmpty)
        // A bubble whose cluster left the index (still fading out after a live change) keeps the
        // look it was shown with; without one remembered it is the plain step's.
        var gone = scene
        gone.bubbles[0].id = .cluster(Int.max - 7)
        gone.bubbles[0].look = BubbleLook()
        var plain = gone
        s.decorateBubbles(in: &plain)
        XCTAssertNil(plain.bubbles[0].look.fill)
        s.decorateBubbles(in: &gone, remembered: [gone.bubbles[0].id: scene.bubbles[0].look])
        XCTAssertEqual(gone.bubbles[0].look.fill, PlaceColors.ramp(9.1, in: 5.5...9.1))
        let legend = s.legend
        XCTAssertEqual(legend.title, "Magnitude")
        XCTAssertEqual(legend.entries.map(\.text), ["M 5.5 to M 9.1", "Bubbles: coloured by the strongest inside"])
        XCTAssertTrue(legend.accessibleText.hasPrefix("Legend, Magnitude: M 5.5 to M 9.1"))
    }

    func testCategoryBubblesCarryARingOfTheirMix() throws {
        var csv = "name,lat,lon,category\n"
        for i in 0..<6 { csv += "m\(i),40.41\(i),-3.69\(i),museum\n" }
        for i in 0..<2 { csv += "p\(i),40.42\(i),-3.68\(i),park\n" }
        let set = try PointSetLoader.load(text: csv, name: "c.csv")
        let s = MapDataSession(pointSets: [set])
        let cam = Camera(center: GeoCoordinate(latitude: 40.42, longitude: -3.69), zoom: 5, viewportSize: ScreenSize(width: 800, height: 600))
        var scene = SceneBuilder().build(camera: cam, items: s.visibleItems(for: cam), places: s.places, state: SceneState())
        s.decorateBubbles(in: &scene)
        let ring = try XCTUnwrap(scene.bubbles.first?.look.ring)
        XCTAssertEqual(ring.map(\.twentyFourths), [18, 6], "6 museums and 2 parks")
        XCTAssertEqual(ring.map(\.color), [PlaceColors.category(0), PlaceColors.category(1)])
        XCTAssertEqual(s.legend.entries.map(\.text), ["museum", "park", "Bubbles: ring shows the mix inside"])
    }

    func testRingSharesAlwaysMakeAWholeRing() {
        let shares: [(color: UInt32, count: Int)] = [(1, 500), (2, 300), (3, 120), (4, 50), (5, 20), (6, 5), (7, 3), (8, 2)]
        let ring = BubbleLook.ring(shares, other: 9)
        XCTAssertEqual(ring.reduce(0) { $0 + $1.twentyFourths }, 24)
        XCTAssertLessThanOrEqual(ring.count, 6)
        XCTAssertEqual(ring.first?.color, 1)
    }

    func testPlainDataExplainsTheBubbleSteps() throws {
        let set = try PointSetLoader.load(text: "name,lat,lon\na,1,1\n", name: "a.csv")
        let legend = MapDataSession(pointSets: [set]).legend
        XCTAssertEqual(legend.title, "Places")
        XCTAssertTrue(legend.entries.contains { $0.swatch == .step(0) })
    }
}
