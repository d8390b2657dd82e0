import XCTest
import ClusterCore
@testable import MapModel

/// The scene as text: what is drawn where for a camera and a state.
final class SceneBuilderTests: XCTestCase {
    struct Places: PlaceDirectory {
        var coords: [GeoCoordinate]
        func name(of point: Int) -> String { "P\(point)" }
        func label(of point: Int) -> String? { point == 1 ? "$120" : nil }
        func color(of point: Int) -> UInt32 { 0x336699 }
        func coordinate(of point: Int) -> GeoCoordinate { coords[point] }
    }

    let camera = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 4, viewportSize: ScreenSize(width: 800, height: 600))
    let places = Places(coords: [GeoCoordinate(latitude: 0, longitude: 0), GeoCoordinate(latitude: 1, longitude: 1),
                                 GeoCoordinate(latitude: 2, longitude: -2)])

    private func describe(_ s: Scene) -> String {
        var lines: [String] = []
        for b in s.bubbles { lines.append("bubble \(b.id) @\(Int(b.center.x.rounded())),\(Int(b.center.y.rounded())) r\(Int(b.radius)) \(b.label)\(b.containsSelection ? " marked" : "")") }
        for p in s.pins { lines.append("pin \(p.name) @\(Int(p.center.x.rounded())),\(Int(p.center.y.rounded()))\(p.label.map { " [\($0)]" } ?? "")\(p.isSelected ? " selected" : "")") }
        return lines.joined(separator: "\n")
    }

    func testBubblesAndPinsAtTheirScreenPositions() {
        let items = [PlacedItem(item: ClusterItem(kind: .cluster(ClusterID(rawValue: 99)), coordinate: GeoCoordinate(latitude: 0, longitude: 0), count: 1234)),
                     PlacedItem(item: ClusterItem(kind: .point(1), coordinate: places.coords[1], count: 1))]
        let s = SceneBuilder().build(camera: camera, items: items, places: places, state: SceneState())
        XCTAssertEqual(describe(s), """
        bubble cluster 99 @400,300 r26 1.2k
        pin P1 @411,289 [$120]
        """)
    }

    func testSelectedPlaceInsideABubbleStaysDrawnAndMarksIt() {
        let items = [PlacedItem(item: ClusterItem(kind: .cluster(ClusterID(rawValue: 99)), coordinate: GeoCoordinate(latitude: 0.5, longitude: 0.5), count: 3))]
        var state = SceneState()
        state.selectedPoint = 2
        let s = SceneBuilder().build(camera: camera, items: items, places: places, state: state, selectedContainer: .cluster(99))
        XCTAssertEqual(describe(s), """
        bubble cluster 99 @406,294 r15 3 marked
        pin P2 @377,277 selected
        """)
    }

    func testSelectedPinIsDrawnLast() {
        let items = (0..<3).map { PlacedItem(item: ClusterItem(kind: .point($0), coordinate: places.coords[$0], count: 1)) }
        var state = SceneState()
        state.selectedPoint = 0
        let s = SceneBuilder().build(camera: camera, items: items, places: places, state: state)
        XCTAssertEqual(s.pins.last?.name, "P0")
        XCTAssertTrue(s.pins.last!.isSelected)
        XCTAssertEqual(s.pins.filter(\.isSelected).count, 1)
    }

    func testItemsRepeatWithTheWrappedWorld() {
        // At zoom 1 the world is 512 px wide, the viewport 1280: each item appears in every copy.
        let wide = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 1, viewportSize: ScreenSize(width: 1280, height: 500))
        let items = [PlacedItem(item: ClusterItem(kind: .point(0), coordinate: places.coords[0], count: 1))]
        let s = SceneBuilder().build(camera: wide, items: items, places: places, state: SceneState())
        XCTAssertEqual(s.pins.map { Int($0.center.x.rounded()) }, [128, 640, 1152])
    }

    func testOffscreenItemsAreNotInTheScene() {
        let far = PlacedItem(item: ClusterItem(kind: .point(0), coordinate: GeoCoordinate(latitude: 60, longitude: 90), count: 1))
        let s = SceneBuilder().build(camera: camera, items: [far], places: places, state: SceneState())
        XCTAssertTrue(s.isEmpty)
    }

    func testFanPlacesMembersAroundTheBubbleWithLegs() {
        var state = SceneState()
        state.fan = SceneState.Fan(cluster: .cluster(7), center: GeoCoordinate(latitude: 0, longitude: 0), members: [0, 1, 2])
        let s = SceneBuilder().build(camera: camera, items: [], places: places, state: state)
        XCTAssertEqual(s.pins.count, 3)
        XCTAssertEqual(s.fanLegs.count, 3)
        for leg in s.fanLegs { XCTAssertEqual(leg.from, ScreenPoint(x: 400, y: 300)) }
    }

    func testTheHoverHullGoesWithItsBubble() {
        var state = SceneState()
        state.hovered = .cluster(99)
        state.hoverMembers = [GeoCoordinate(latitude: 0, longitude: 0), GeoCoordinate(latitude: 1, longitude: 1),
                              GeoCoordinate(latitude: -1, longitude: 1)]
        let bubble = PlacedItem(item: ClusterItem(kind: .cluster(ClusterID(rawValue: 99)), coordinate: GeoCoordinate(latitude: 0, longitude: 0.5), count: 3))
        XCTAssertFalse(SceneBuilder().build(camera: camera, items: [bubble], places: places, state: state).hull.isEmpty)
        // After a flight the bubble split: its members are pins now, and no outline stays behind.
        let split = (0..<3).map { PlacedItem(item: ClusterItem(kind: .point($0), coordinate: places.coords[$0], count: 1)) }
        XCTAssertTrue(SceneBuilder().build(camera: camera, items: split, places: places, state: state).hull.isEmpty)
    }
}
