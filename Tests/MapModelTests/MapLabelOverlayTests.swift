import ClusterCore
import XCTest
@testable import MapModel

/// A street map's names in the label placement: placed before the built-in ones, built-in names
/// giving way where the street map is drawn (and only there), turned street names keeping clear
/// the box around them, and names keeping their places when the overlay changes.
final class MapLabelOverlayTests: XCTestCase {
    func size(_ c: MapLabelCandidate) -> MapLabelSize {
        MapLabelSize(width: Double(c.text.count) * 7, height: 12)
    }

    let camera = Camera(center: GeoCoordinate(latitude: 51.34, longitude: 12.37), zoom: 14,
                        viewportSize: ScreenSize(width: 1280, height: 800))
    var x: Double { WebMercator.x(longitude: 12.37) }
    var y: Double { WebMercator.y(latitude: 51.34) }

    /// The unit box of the view's left or right half.
    func half(_ left: Bool) -> UnitBox {
        let ws = camera.worldSize, c = camera.centerWorldPixel
        return left ? UnitBox(minX: (c.x - 640) / ws, minY: (c.y - 400) / ws, maxX: c.x / ws, maxY: (c.y + 400) / ws)
                    : UnitBox(minX: c.x / ws, minY: (c.y - 400) / ws, maxX: (c.x + 640) / ws, maxY: (c.y + 400) / ws)
    }

    func labels(_ layout: MapLabelLayout) -> [SceneLabel] {
        layout.labels(for: camera) { self.size(layout.candidate(id: $0)!) }
    }

    func testBuiltInNamesGiveWayOnlyWhereTheStreetMapIsDrawn() {
        let d = 200 / camera.worldSize  // 200 px
        let builtIn = [MapLabelCandidate(text: "Leipzig", x: x - d, y: y, kind: .city, minZoom: 0),
                       MapLabelCandidate(text: "Markkleeberg", x: x + d, y: y, kind: .town, minZoom: 0)]
        let layout = MapLabelLayout(index: MapLabelIndex(candidates: builtIn))
        XCTAssertEqual(Set(labels(layout).map(\.text)), ["Leipzig", "Markkleeberg"])
        // The street map covers the left half, where it names Leipzig itself (and a street).
        let overlay = MapLabelOverlay(candidates: [
            MapLabelCandidate(id: -1, text: "Leipzig", x: x - d + 1e-7, y: y, kind: .city, minZoom: 0),
            MapLabelCandidate(id: -2, text: "Grimmaische Straße", x: x - d, y: y + 90 / camera.worldSize, kind: .road,
                              minZoom: 0, angle: 0.5),
        ], covered: [half(true)], revision: 1)
        layout.setOverlay(overlay)
        let shown = labels(layout)
        XCTAssertEqual(shown.filter { $0.text == "Leipzig" }.map(\.id), [-1], "Leipzig is named once, by the street map")
        XCTAssertTrue(shown.contains { $0.text == "Markkleeberg" && $0.id >= 0 }, "outside the street map, built-in names stay")
        let street = try! XCTUnwrap(shown.first { $0.text == "Grimmaische Straße" })
        XCTAssertEqual(street.angle, 0.5)
        // The box around text 126 × 12 turned by 0.5 rad.
        XCTAssertEqual(street.frame.width, 126 * cos(0.5) + 12 * sin(0.5), accuracy: 1e-9)
        XCTAssertEqual(street.frame.height, 126 * sin(0.5) + 12 * cos(0.5), accuracy: 1e-9)
    }

    func testTheStreetMapsNamesArePlacedFirst() {
        // A built-in name and a street map name at the same spot, both outside any covered area
        // (e.g. in a tile's buffer): the street map's wins the collision.
        let builtIn = [MapLabelCandidate(text: "Capital", x: x, y: y, kind: .capital, minZoom: 0)]
        let layout = MapLabelLayout(index: MapLabelIndex(candidates: builtIn))
        layout.setOverlay(MapLabelOverlay(candidates: [MapLabelCandidate(id: -7, text: "Quarter", x: x, y: y, kind: .district,
                                                                         minZoom: 0)],
                                          covered: [], revision: 1))
        XCTAssertEqual(labels(layout).map(\.text), ["Quarter"])
    }

    func testANameKeepsItsPlaceWhenMoreTilesArrive() {
        let d = 5 / camera.worldSize
        let layout = MapLabelLayout(index: .empty)
        let first = MapLabelCandidate(id: -1, text: "Reudnitz", x: x, y: y, kind: .district, minZoom: 0)
        layout.setOverlay(MapLabelOverlay(candidates: [first], covered: [half(true), half(false)], revision: 1))
        let before = labels(layout)
        XCTAssertEqual(before.map(\.text), ["Reudnitz"])
        // A more important name arrives right next to it: the placed name stays, the newcomer is
        // dropped rather than pushing it away (no jumping names while tiles stream in).
        let newcomer = MapLabelCandidate(id: -2, text: "Leipzig", x: x + d, y: y, kind: .city, minZoom: 0)
        layout.setOverlay(MapLabelOverlay(candidates: [newcomer, first], covered: [half(true), half(false)], revision: 2))
        let after = labels(layout)
        XCTAssertEqual(after.first { $0.id == -1 }?.frame, before[0].frame)
        XCTAssertFalse(after.contains { $0.id == -2 })
        // The same revision again does not place again.
        let count = layout.placementCount
        layout.setOverlay(MapLabelOverlay(candidates: [newcomer, first], covered: [half(true), half(false)], revision: 2))
        _ = labels(layout)
        XCTAssertEqual(layout.placementCount, count)
    }

    func testCoversWrapsLongitude() {
        let o = MapLabelOverlay(candidates: [], covered: [UnitBox(minX: 0.9, minY: 0.2, maxX: 1, maxY: 0.3)], revision: 0)
        XCTAssertTrue(o.covers(x: 0.95, y: 0.25))
        XCTAssertTrue(o.covers(x: -0.05, y: 0.25), "the western world copy")
        XCTAssertFalse(o.covers(x: 0.85, y: 0.25))
        XCTAssertFalse(o.covers(x: 0.95, y: 0.35))
    }
}

/// River and street names: offered several times along their line, never repeated close together.
final class MapLabelRepeatTests: XCTestCase {
    func testTheSameRiverNameIsNotRepeatedCloseBy() {
        let cam = Camera(center: GeoCoordinate(latitude: 48, longitude: 10), zoom: 7, viewportSize: ScreenSize(width: 1280, height: 800))
        let ws = cam.worldSize, x = WebMercator.x(longitude: 10), y = WebMercator.y(latitude: 48)
        func river(_ dx: Double, _ name: String = "Donau") -> MapLabelCandidate {
            MapLabelCandidate(text: name, x: x + dx / ws, y: y, kind: .river, minZoom: 0, angle: 0.2)
        }
        // 120 px apart: once; 400 px: twice; another river close by: both.
        let layout = MapLabelLayout(index: MapLabelIndex(candidates: [river(0), river(120), river(400), river(60, "Iller")]))
        let placed = layout.labels(for: cam) { id in MapLabelSize(width: Double(layout.candidate(id: id)!.text.count) * 7, height: 12) }
        XCTAssertEqual(placed.filter { $0.text == "Donau" }.count, 2)
        XCTAssertEqual(placed.filter { $0.text == "Iller" }.count, 1)
        // Places are not affected: two villages of one name close together are both named.
        let villages = MapLabelLayout(index: MapLabelIndex(candidates: [
            MapLabelCandidate(text: "Au", x: x, y: y, kind: .village, minZoom: 0),
            MapLabelCandidate(text: "Au", x: x + 80 / ws, y: y, kind: .village, minZoom: 0),
        ]))
        XCTAssertEqual(villages.labels(for: cam) { _ in MapLabelSize(width: 14, height: 12) }.count, 2)
    }

    func testCandidatesAreFoundByIDAsByADictionary() {
        // Ids out of order, one repeated (the last one counts, as a dictionary filled in order).
        let ids = [-3, -17, -1, -9, -17, -40, -2]
        let candidates = ids.enumerated().map { i, id in
            MapLabelCandidate(id: id, text: "name \(i)", x: 0.5, y: 0.5, kind: .road, minZoom: 0)
        }
        let overlay = MapLabelOverlay(candidates: candidates, covered: [], revision: 1)
        var expected: [Int: MapLabelCandidate] = [:]
        for c in candidates { expected[c.id] = c }
        for id in -45...0 { XCTAssertEqual(overlay.candidate(id: id), expected[id], "id \(id)") }
        XCTAssertEqual(overlay.candidate(id: -17)?.text, "name 4")
        XCTAssertNil(MapLabelOverlay(candidates: [], covered: [], revision: 0).candidate(id: -1))
    }
}
