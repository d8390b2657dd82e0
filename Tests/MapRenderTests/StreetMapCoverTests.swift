import AppSupport
import ClusterCore
import MapModel
@testable import MapRender
import Tiles
import XCTest

/// Under a vector street map whose tiles are all in, the built-in map is not drawn: it would be
/// painted only to be covered (about a third of a frame's drawing over dense street tiles).
final class StreetMapCoverTests: XCTestCase {
    let fixture = Golden.testsFolder.deletingLastPathComponent()
        .appendingPathComponent("TilesTests/Fixtures/leipzig-subset.mbtiles").path
    /// Inside the fixture's two zoom-14 tiles (8755–8756/5460, 1024 × 512 px at zoom 15).
    let camera = Camera(center: GeoCoordinate(latitude: 51.33748, longitude: 12.39258), zoom: 15,
                        viewportSize: ScreenSize(width: 960, height: 480))

    func testAStreetMapWithEveryTileInHidesTheBuiltInMapAndChangesNoPixel() throws {
        let tiles = try TileMapLayer(path: fixture)
        XCTAssertFalse(tiles.hidesBaseMap(camera: camera, palette: .light, scale: 1), "no tile loaded yet")
        tiles.loadSynchronously(camera: camera, scale: 1, dark: false)
        XCTAssertTrue(tiles.hidesBaseMap(camera: camera, palette: .light, scale: 1))
        XCTAssertFalse(tiles.hidesBaseMap(camera: camera, palette: .dark, scale: 1), "the dark tiles are not in")
        XCTAssertFalse(tiles.hidesBaseMap(camera: camera, palette: .light, scale: 2), "nor those of scale 2")

        // Oracle: the tiles over the built-in map give the same pixels as the tiles alone.
        let picture = StillPicture(palette: .light)
        let renderer = picture.frameRenderer(camera: camera)
        let both = ImageSurface(width: 960, height: 480), alone = ImageSurface(width: 960, height: 480)
        both.withContext { cr in
            renderer.baseMap.draw(in: cr, camera: camera, isAnimating: false)
            tiles.draw(in: cr, camera: camera, palette: .light)
        }
        alone.withContext { tiles.draw(in: $0, camera: camera, palette: .light) }
        var differing = 0
        for y in stride(from: 0, to: 480, by: 3) {
            for x in stride(from: 0, to: 960, by: 3) where both.pixel(x: x, y: y) != alone.pixel(x: x, y: y) { differing += 1 }
        }
        XCTAssertEqual(differing, 0, "the street map covers every pixel")

        // The frame renderer skips the built-in map then, and the frame still counts as exact.
        renderer.overlays.insert(tiles, at: 0)
        let frame = ImageSurface(width: 960, height: 480)
        frame.withContext { renderer.draw(in: $0, camera: camera) }
        XCTAssertTrue(renderer.lastFrameWasExact)
        XCTAssertLessThan(renderer.lastFramePhases.baseMap, 0.5, "the built-in map was not painted (ms; painted it took 4)")
    }

    func testTheBuiltInMapShowsWhereTheStreetMapCanNotCoverIt() throws {
        let tiles = try TileMapLayer(path: fixture)
        // Outside the file's extent: its tiles are absent there.
        let away = Camera(center: GeoCoordinate(latitude: 48.85, longitude: 2.35), zoom: 15, viewportSize: camera.viewportSize)
        tiles.loadSynchronously(camera: away, scale: 1, dark: false)
        XCTAssertFalse(tiles.hidesBaseMap(camera: away, palette: .light, scale: 1))
        // A view reaching past the world's northern edge (no tile rows there).
        let edge = Camera(center: GeoCoordinate(latitude: 85, longitude: 0), zoom: 1, viewportSize: camera.viewportSize)
        XCTAssertFalse(tiles.hidesBaseMap(camera: edge, palette: .light, scale: 1))
        // Raster tiles may be transparent: never.
        XCTAssertFalse(TileMapLayer(online: "http://127.0.0.1:1/{z}/{x}/{y}.png", attribution: nil)
            .hidesBaseMap(camera: camera, palette: .light, scale: 1))
    }
}
