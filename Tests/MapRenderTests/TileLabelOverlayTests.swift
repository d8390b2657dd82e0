import AppSupport
import ClusterCore
import MapModel
@testable import MapRender
import XCTest

/// A vector street map names its own places, waters and streets through the map's label
/// placement; the built-in names give way where it is drawn.
final class TileLabelOverlayTests: XCTestCase {
    let fixture = Golden.testsFolder.deletingLastPathComponent()
        .appendingPathComponent("TilesTests/Fixtures/leipzig-subset.mbtiles").path
    let camera = Camera(center: GeoCoordinate(latitude: 51.34, longitude: 12.375), zoom: 15,
                        viewportSize: ScreenSize(width: 1280, height: 800))

    func testTheTilesNamesBecomeTheOverlayWithStableIDs() throws {
        let tiles = try TileMapLayer(path: fixture)
        tiles.loadSynchronously(camera: camera, scale: 1, dark: false)
        let overlay = try XCTUnwrap(tiles.labelOverlay(for: camera, margin: 384))
        XCTAssertTrue(overlay.candidates.contains { $0.text == "Leipzig" && $0.kind == .majorCity })
        XCTAssertTrue(overlay.candidates.contains { $0.text == "Grimmaischer Steinweg" && $0.kind == .road && $0.angle != 0 })
        XCTAssertTrue(overlay.candidates.contains { $0.kind == .district && $0.text == $0.text.uppercased() })
        XCTAssertGreaterThan(overlay.candidates.count, 50)
        XCTAssertTrue(overlay.candidates.allSatisfy { $0.id < 0 && overlay.covers(x: $0.x, y: $0.y) })
        XCTAssertEqual(Set(overlay.candidates.map(\.id)).count, overlay.candidates.count, "ids are unique")
        // Unchanged tiles: the same overlay (no new placement); after a pan the same names keep their ids.
        XCTAssertEqual(tiles.labelOverlay(for: camera, margin: 384)?.revision, overlay.revision)
        var moved = camera
        moved.pan(by: 120, 40)
        tiles.loadSynchronously(camera: moved, scale: 1, dark: false)
        let after = try XCTUnwrap(tiles.labelOverlay(for: moved, margin: 384))
        let before = Dictionary(overlay.candidates.map { ("\($0.text)|\($0.x)|\($0.y)", $0.id) }, uniquingKeysWith: { a, _ in a })
        let common = after.candidates.compactMap { c in before["\(c.text)|\(c.x)|\(c.y)"].map { ($0, c.id) } }
        XCTAssertGreaterThan(common.count, 20)
        XCTAssertTrue(common.allSatisfy { $0.0 == $0.1 }, "a name keeps its id")
    }

    func testTheBuiltInNamesGiveWayWhereTheStreetMapIsDrawn() throws {
        // Over the east of the centre, where the built-in map's dot for Leipzig is.
        let camera = Camera(center: GeoCoordinate(latitude: 51.3365, longitude: 12.40), zoom: 15,
                            viewportSize: ScreenSize(width: 1280, height: 800))
        let picture = StillPicture(palette: .light)
        let plain = picture.frameRenderer(camera: camera)
        let plainLabels = try XCTUnwrap(plain.overlays.compactMap { $0 as? SceneRenderer }.first).scene.labels
        XCTAssertTrue(plainLabels.contains { $0.text == "Leipzig" && $0.id >= 0 }, "the built-in map names Leipzig: \(plainLabels.map(\.text))")
        let tiles = try TileMapLayer(path: fixture)
        let renderer = picture.frameRenderer(camera: camera, tiles: tiles)
        let labels = try XCTUnwrap(renderer.overlays.compactMap { $0 as? SceneRenderer }.first).scene.labels
        XCTAssertEqual(labels.filter { $0.text == "Leipzig" }.map { $0.id < 0 }, [true], "named once, by the street map")
        XCTAssertGreaterThan(labels.filter { $0.id < 0 && $0.angle != 0 }.count, 10, "street names along the streets")
        // No built-in name is anchored where the street map is drawn.
        let overlay = try XCTUnwrap(tiles.labelOverlay(for: camera, margin: 384))
        let ws = camera.worldSize, c = camera.centerWorldPixel
        for l in labels where l.id >= 0 {
            let anchor = l.dot ?? ScreenPoint(x: l.frame.x + l.frame.width / 2, y: l.frame.y + l.frame.height / 2)
            XCTAssertFalse(overlay.covers(x: (anchor.x + c.x - 640) / ws, y: (anchor.y + c.y - 400) / ws),
                           "built-in \(l.text) inside the street map")
        }
        // Nothing overlaps, whichever source a name comes from.
        for (i, a) in labels.enumerated() {
            for b in labels[(i + 1)...] {
                XCTAssertFalse(a.frame.minX < b.frame.maxX && b.frame.minX < a.frame.maxX
                               && a.frame.minY < b.frame.maxY && b.frame.minY < a.frame.maxY, "\(a.text) overlaps \(b.text)")
            }
        }
    }

    func testRasterSourcesBringNoNames() {
        let online = TileMapLayer(online: "http://127.0.0.1:1/{z}/{x}/{y}.png", attribution: nil)
        XCTAssertNil(online.labelOverlay(for: camera, margin: 384))
    }
}
