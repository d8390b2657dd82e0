import XCTest
import ClusterCore
import GeoData
import MapModel
import MapRender
import MapStill
@testable import AppSupport

/// `MapPresentation` without a display: intents change what the map shows and say what to log;
/// one selection path whether a click or a live update made the card.
final class MapPresentationTests: XCTestCase {
    static func feature(_ name: String, _ lat: Double, _ lon: Double, extra: String = "") -> String {
        "{\"type\":\"Feature\",\"properties\":{\"name\":\"\(name)\"\(extra)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(lon),\(lat)]}}"
    }

    static func session(_ features: [String]) throws -> MapDataSession {
        let text = "{\"type\":\"FeatureCollection\",\"features\":[\(features.joined(separator: ","))]}"
        return MapDataSession(pointSets: [try PointSetLoader.load(text: text, name: "t.geojson")])
    }

    /// Two places far apart, the second with an id behind "More".
    static func twoPlaces(alphaLat: Double = 40.40) throws -> MapDataSession {
        try session([feature("Alpha", alphaLat, -3.70), feature("Beta", 40.50, -3.60, extra: ",\"geonameid\":12345")])
    }

    let camera = Camera(center: GeoCoordinate(latitude: 40.45, longitude: -3.65), zoom: 9,
                        viewportSize: ScreenSize(width: 800, height: 600))

    func presentation() throws -> MapPresentation {
        let p = MapPresentation(labelRenderer: MapLabelRenderer())
        p.show(try Self.twoPlaces())
        return p
    }

    func testSelectingOpensTheFullCardAndLogsIt() throws {
        let p = try presentation()
        let events = p.select(point: 1, now: 10, reducedMotion: false)
        XCTAssertEqual(events.map(\.name), ["select"])
        let card = try XCTUnwrap(p.state.callout)
        XCTAssertEqual(card.title, "Beta")
        XCTAssertEqual(Set(card.buttons.map(\.action)), [.close, .copyCoordinates, .more])
        XCTAssertTrue(p.isCalloutAnimating(at: 10.1))
        XCTAssertFalse(p.isCalloutAnimating(at: 10 + MapPresentation.calloutAppearSeconds + 0.01))
    }

    /// The live update's card is the click's card (issue 33 item 4: it had lost its buttons and width).
    func testALiveUpdateKeepsTheSelectedPlacesWholeCard() throws {
        let p = try presentation()
        _ = p.select(point: 1, now: 0, reducedMotion: false)
        _ = p.pressCalloutButton(.more, of: 1)
        let before = try XCTUnwrap(p.state.callout)
        XCTAssertTrue(p.isCalloutExpanded)
        // Alpha moves and the ids swap places (as a re-read file may number them).
        let updated = try Self.session([Self.feature("Beta", 40.50, -3.60, extra: ",\"geonameid\":12345"),
                                        Self.feature("Alpha", 40.41, -3.69)])
        let events = p.dataDidChange(to: updated, newID: { [1: 0, 0: 1][$0] })
        XCTAssertTrue(events.isEmpty, "no deselect: \(events.map(\.name))")
        XCTAssertEqual(p.state.selectedPoint, 0)
        let after = try XCTUnwrap(p.state.callout)
        // Oracle: the card a fresh click on the same place would make, still expanded.
        XCTAssertEqual(after, p.calloutContent(of: 0, expanded: true))
        XCTAssertEqual(after.size, before.size)
        XCTAssertEqual(after.buttons.map(\.action), before.buttons.map(\.action))
        XCTAssertTrue(after.buttons.contains { $0.action == .close })
    }

    func testALiveUpdateThatRemovesTheSelectedPlaceDeselects() throws {
        let p = try presentation()
        _ = p.select(point: 1, now: 0, reducedMotion: false)
        let events = p.dataDidChange(to: try Self.session([Self.feature("Alpha", 40.40, -3.70)]), newID: { $0 == 0 ? 0 : nil })
        XCTAssertEqual(events.map(\.name), ["deselect"])
        XCTAssertNil(p.state.selectedPoint)
        XCTAssertNil(p.state.callout)
        XCTAssertFalse(p.isCalloutAnimating(at: 0.05))
    }

    func testCalloutButtons() throws {
        let p = try presentation()
        _ = p.select(point: 0, now: 0, reducedMotion: false)
        let copy = p.pressCalloutButton(.copyCoordinates, of: 0)
        XCTAssertEqual(copy.effect, .copy("40.40000, -3.70000"))
        XCTAssertEqual(copy.events.map(\.name), ["callout-button", "copy"])
        XCTAssertTrue(p.state.callout?.buttons.contains { $0.title == "Copied" } ?? false)
        XCTAssertEqual(p.pressCalloutButton(.close, of: 0).effect, .close)
        XCTAssertEqual(p.clearSelection().map(\.name), ["deselect"])
        XCTAssertEqual(p.clearSelection().map(\.name), [], "nothing selected: nothing to log")
        XCTAssertEqual(p.pressCalloutButton(.more, of: 0).effect, .none, "no card open")
    }

    /// The scene shows the selection; the callout is logged once, and again when its card was read again.
    func testSceneAndItsEvents() throws {
        let p = try presentation()
        _ = p.select(point: 1, now: 0, reducedMotion: false)
        let scene = p.scene(for: camera, now: 1, moving: false, reducedMotion: false).scene
        XCTAssertEqual(scene.callout?.pointIndex, 1)
        XCTAssertEqual(scene.pins.filter(\.isSelected).map(\.pointIndex), [1])
        let offset = ScreenPoint(x: 5, y: 50)
        XCTAssertEqual(p.sceneEvents(for: scene, viewport: camera.viewportSize, offset: offset).map(\.name), ["scene", "callout"])
        XCTAssertEqual(p.sceneEvents(for: scene, viewport: camera.viewportSize, offset: offset).map(\.name), ["scene"])
        _ = p.dataDidChange(to: try Self.twoPlaces(alphaLat: 40.41), newID: { $0 })
        let again = p.scene(for: camera, now: 2, moving: false, reducedMotion: false).scene
        XCTAssertEqual(p.sceneEvents(for: again, viewport: camera.viewportSize, offset: offset).map(\.name), ["scene", "callout"])
    }

    func testFanHoverAndFocus() throws {
        let p = try presentation()
        XCTAssertEqual(p.openFan(cluster: .cluster(7), leaves: [0, 1]).map(\.name), ["fan-open"])
        XCTAssertEqual(p.state.fan?.members, [0, 1])
        let version = p.contentVersion
        XCTAssertEqual(p.closeFan().map(\.name), ["fan-close"])
        XCTAssertEqual(p.closeFan().map(\.name), [])
        XCTAssertGreaterThan(p.contentVersion, version, "a changed state is a new content stamp")
        XCTAssertEqual(p.hover(.point(0)).events.map(\.name), ["hover"])
        XCTAssertFalse(p.hover(.point(0)).changed)
        let focus = p.focus(.point(1))
        XCTAssertEqual(focus.first?.fields.first { $0.0 == "name" }?.1, .string("Beta"))
        XCTAssertEqual(p.focus(nil).map(\.name), [])
    }

    /// A still draws what the presentation composes: the window's scene at rest.
    func testTheStillDrawsThePresentationsScene() throws {
        let sceneRenderer = SceneRenderer()
        let still = MapPresentation.still(session: try Self.twoPlaces(), labels: .empty, sceneRenderer: sceneRenderer)
        let renderer = still.stillRenderer(camera: camera, baseMaps: BaseMapSet(coarse: nil, detailed: nil, fine: nil),
                                           palette: .light, sceneRenderer: sceneRenderer)
        let expected = MapPresentation.still(session: try Self.twoPlaces(), labels: .empty, sceneRenderer: SceneRenderer())
            .scene(for: camera, now: 0, moving: false, reducedMotion: false).scene
        XCTAssertEqual(sceneRenderer.scene.pins.map(\.name).sorted(), expected.pins.map(\.name).sorted())
        XCTAssertEqual(sceneRenderer.scene.pins.count, 2)
        XCTAssertTrue(renderer.overlays.contains { $0 === sceneRenderer })
        XCTAssertEqual(renderer.attribution, still.attribution(for: sceneRenderer.scene))
    }
}
