import ClusterCore
import MapModel
@testable import MapRender
import Tiles
import XCTest

/// Past a vector source's deepest zoom (14 for the usual OpenMapTiles and Protomaps builds) its
/// tiles are painted from the ancestor's geometry at the display zoom, as MapLibre over-zooms:
/// crisp streets and buildings at zoom 15–18, not a zoom-14 picture scaled up 2–16×.
final class TileOverzoomTests: XCTestCase {
    let fixture = Golden.testsFolder.deletingLastPathComponent()
        .appendingPathComponent("TilesTests/Fixtures/leipzig-subset.mbtiles").path
    /// The Thomaskirche at zoom 17: 512-px tiles of zoom 16, three levels past the file's 14.
    let deep = Camera(center: GeoCoordinate(latitude: 51.3397, longitude: 12.3731), zoom: 17,
                      viewportSize: ScreenSize(width: 1280, height: 800))

    func testTilesPastTheDeepestZoomArePaintedFromTheirAncestorAtTheirOwnZoom() throws {
        let layer = try TileMapLayer(path: fixture)
        XCTAssertEqual(layer.maxZoom, 14)
        let keys = layer.keysToLoad(camera: deep, scale: 1, dark: false)
        XCTAssertFalse(keys.isEmpty)
        XCTAssertEqual(Set(keys.map(\.tile.z)), [16], "display tiles are asked for, not their zoom-14 ancestor")
        XCTAssertEqual(Set(keys.map(\.tile)).count, keys.count)
        // Oracle: the painter given the ancestor and the display tile's part of it.
        let key = keys[0]
        let ancestor = try XCTUnwrap(key.tile.ancestor(atZoom: 14))
        let source = try XCTUnwrap(layer.source), style = try XCTUnwrap(layer.style)
        let decoded = try MVTDecoder.decode(try XCTUnwrap(try source.tileData(for: ancestor)), layers: style.sourceLayers)
        let expected = VectorTilePainter(style: style).render(decoded, zoom: 14, size: 512, scale: 1,
                                                              rect: try XCTUnwrap(key.tile.rect(in: ancestor)))
        guard case .image(let image, let labels) = TileMapLayer.renderTile(key, source: source, style: style, tileSize: 512,
                                                                        maxZoom: 14, decoded: layer.decodedAncestors) else {
            return XCTFail("no image for \(key.tile)")
        }
        XCTAssertTrue(Self.samePixels(image, expected), "\(key.tile) painted as its ancestor's part at zoom 16")
        XCTAssertFalse(labels.isEmpty, "the ancestor's names come with it")
        // Scaling the ancestor's picture instead gives other (blurred) pixels: the test can fail.
        let whole = VectorTilePainter(style: style).render(decoded, zoom: 14)
        XCTAssertFalse(Self.samePixels(image, whole))
    }

    func testTheAncestorIsDecodedOnceForItsDisplayTiles() throws {
        let layer = try TileMapLayer(path: fixture)
        let keys = layer.keysToLoad(camera: deep, scale: 1, dark: false)
        let source = try XCTUnwrap(layer.source)
        // The fixture is a subset: only ancestors the file has are decoded.
        let ancestors = try Set(keys.compactMap { $0.tile.ancestor(atZoom: 14) }.filter { try source.tileData(for: $0) != nil })
        XCTAssertGreaterThan(keys.count, ancestors.count, "several display tiles share an ancestor")
        layer.loadSynchronously(camera: deep, scale: 1, dark: false)
        XCTAssertEqual(layer.decodedAncestors.count, ancestors.count)
        XCTAssertTrue(layer.keysToLoad(camera: deep, scale: 1, dark: false).isEmpty, "all loaded")
    }

    func testOverzoomedTilesBringTheirAncestorsNamesAndAStandIn() throws {
        let layer = try TileMapLayer(path: fixture)
        layer.loadSynchronously(camera: deep, scale: 1, dark: false)
        let overlay = try XCTUnwrap(layer.labelOverlay(for: deep, margin: 384))
        XCTAssertTrue(overlay.candidates.contains { $0.kind == .road }, "street names at zoom 17")
        XCTAssertTrue(overlay.covers(x: deep.centerWorldPixel.x / deep.worldSize, y: deep.centerWorldPixel.y / deep.worldSize))

        // Zoom 14's tiles cached only: a zoom-17 frame shows them scaled (never blank) and asks for zoom 16.
        let fresh = try TileMapLayer(path: fixture)
        let shallow = Camera(center: deep.center, zoom: 15, viewportSize: deep.viewportSize)
        fresh.loadSynchronously(camera: shallow, scale: 1, dark: false)
        let frame = ImageSurface(width: 1280, height: 800)
        frame.withContext { fresh.draw(in: $0, camera: deep, palette: .light) }
        XCTAssertEqual(frame.pixel(x: 640, y: 400).a, 255, "a stand-in covers the centre")
        XCTAssertEqual(Set(fresh.takeMissing().map(\.tile.z)), [16])
    }

    /// Past the deepest zoom the names and the area they rule are the ancestors': zooming in and
    /// out between zooms 15 and 18 over the same place (display tiles of zooms 15–17, the view's
    /// rows of tiles coming and going) keeps one overlay, so names are not placed again for it.
    func testAZoomAnimationPastTheDeepestZoomKeepsOneOverlay() throws {
        let layer = try TileMapLayer(path: fixture)
        var revisions = Set<Int>()
        var covered: [UnitBox] = []
        for zoom in stride(from: 15.6, through: 17.9, by: 0.1) {
            let cam = Camera(center: deep.center, zoom: zoom, viewportSize: deep.viewportSize)
            layer.loadSynchronously(camera: cam, scale: 1, dark: false)
            let overlay = try XCTUnwrap(layer.labelOverlay(for: cam, margin: 384))
            revisions.insert(overlay.revision)
            covered = overlay.covered
            // The ruled area is whole zoom-14 squares.
            for b in overlay.covered { XCTAssertEqual(b.maxX - b.minX, 1.0 / 16384, accuracy: 1e-12) }
        }
        XCTAssertEqual(revisions.count, 1, "one overlay for the whole animation")
        XCTAssertFalse(covered.isEmpty)
    }

    private static func samePixels(_ a: ImageSurface, _ b: ImageSurface) -> Bool {
        guard a.pixelWidth == b.pixelWidth, a.pixelHeight == b.pixelHeight else { return false }
        for y in 0..<a.pixelHeight {
            for x in 0..<a.pixelWidth where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false }
        }
        return true
    }
}
