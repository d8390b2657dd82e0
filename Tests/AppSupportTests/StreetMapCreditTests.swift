import XCTest
import ClusterCore
import MapModel
import MapRender
@testable import AppSupport

/// The credits line names the street map only while its tiles are drawn (issue 32 item 8): an
/// online map whose tiles never arrive (offline; the quiet notice says the built-in map shows)
/// credits OpenStreetMap for nothing on screen otherwise.
final class StreetMapCreditTests: XCTestCase {
    private let credit = "© OpenStreetMap contributors"
    private let camera = Camera(center: GeoCoordinate(latitude: 38.71, longitude: -9.14), zoom: 12,
                                viewportSize: ScreenSize(width: 800, height: 600))

    private func presentation() -> (MapPresentation, TileMapLayer) {
        let p = MapPresentation.still(session: nil, labels: .empty, sceneRenderer: SceneRenderer())
        let layer = TileMapLayer(online: "https://tile.openstreetmap.org/{z}/{x}/{y}.png", attribution: credit)
        p.setStreetMap(layer)
        return (p, layer)
    }

    private func tile() -> TileMapLayer.Outcome { .image(ImageSurface(width: 256, height: 256)) }

    func testNoCreditWhileNoTileHasArrived() {
        let (p, layer) = presentation()
        XCTAssertFalse(p.attribution(for: Scene(), view: camera).contains("OpenStreetMap"))
        for key in layer.keysToLoad(camera: camera, scale: 1, dark: false) { layer.deliver(.failed, for: key) }
        XCTAssertFalse(p.attribution(for: Scene(), view: camera).contains("OpenStreetMap"), "every tile failed")
        XCTAssertTrue(p.attribution(for: Scene(), view: camera).hasPrefix(MapFrameRenderer.defaultAttribution.components(separatedBy: " · ")[0]),
                      "the built-in map's credit stays")
    }

    func testCreditOnceATileOfTheViewIsDrawn() throws {
        let (p, layer) = presentation()
        let key = try XCTUnwrap(layer.keysToLoad(camera: camera, scale: 1, dark: false).first)
        layer.deliver(tile(), for: key)
        XCTAssertTrue(p.attribution(for: Scene(), view: camera).hasSuffix(" · " + credit))
    }

    func testACachedParentStandingInCounts() {
        let (p, layer) = presentation()
        let far = Camera(center: camera.center, zoom: 9, viewportSize: camera.viewportSize)
        for key in layer.keysToLoad(camera: far, scale: 1, dark: false) { layer.deliver(tile(), for: key) }
        XCTAssertTrue(p.attribution(for: Scene(), view: camera).hasSuffix(credit), "zoom 9 tiles stand in at zoom 12")
        // Somewhere else, none of them is drawn.
        let elsewhere = Camera(center: GeoCoordinate(latitude: -33.9, longitude: 151.2), zoom: 12, viewportSize: camera.viewportSize)
        XCTAssertFalse(p.attribution(for: Scene(), view: elsewhere).contains("OpenStreetMap"))
    }

    func testWithoutAViewTheCreditStays() {
        let (p, _) = presentation()
        XCTAssertTrue(p.attribution(for: Scene()).hasSuffix(credit))
    }
}
