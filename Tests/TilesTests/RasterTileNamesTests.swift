import CCairo
import ClusterCore
import Foundation
import MapModel
import MapRender
import TileTestSupport
import XCTest

/// A raster tile file prints its own names (Toner, a topographic map): where its tiles are drawn
/// the built-in names give way, as they do over a vector street map, so no town is named twice.
final class RasterTileNamesTests: XCTestCase {
    /// A raster MBTiles file of four grey zoom-1 tiles covering the world but the south-east quarter.
    func rasterFile(in folder: TemporaryFolder) throws -> String {
        let path = folder.path("names.mbtiles")
        let writer = try MBTilesWriter(path: path, metadata: [
            "name": "printed names", "format": "png", "minzoom": "1", "maxzoom": "1",
            "bounds": "-180,-85.0511,180,85.0511",
        ])
        let image = ImageSurface(width: 256, height: 256)
        image.withContext { cr in
            MapColor(hex: 0xBBBBBB).setSource(on: cr)
            cairo_paint(cr)
        }
        let file = folder.url.appendingPathComponent("grey.png")
        try image.writePNG(to: file)
        let png = try Data(contentsOf: file)
        for (x, y) in [(0, 0), (1, 0), (0, 1)] { try writer.insert(z: 1, x: x, y: y, data: png) }
        return path
    }

    func testBuiltInNamesGiveWayWhereRasterTilesAreDrawn() throws {
        let folder = TemporaryFolder()
        let tiles = try TileMapLayer(path: try rasterFile(in: folder))
        let camera = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2, viewportSize: ScreenSize(width: 1024, height: 1024))
        // Before any tile is drawn the built-in names stay.
        XCTAssertNil(tiles.labelOverlay(for: camera, margin: 384))
        tiles.loadSynchronously(camera: camera, scale: 1, dark: false)
        let overlay = try XCTUnwrap(tiles.labelOverlay(for: camera, margin: 384))
        XCTAssertTrue(overlay.candidates.isEmpty, "raster tiles bring no names of their own to place")
        let london = GeoCoordinate(latitude: 51.5, longitude: -0.13), perth = GeoCoordinate(latitude: -31.95, longitude: 115.86)
        let unit = { (g: GeoCoordinate) in (WebMercator.x(longitude: g.longitude), WebMercator.y(latitude: g.latitude)) }
        XCTAssertTrue(overlay.covers(x: unit(london).0, y: unit(london).1))
        XCTAssertFalse(overlay.covers(x: unit(perth).0, y: unit(perth).1), "no tile in the south-east quarter")

        let names = [("London", london), ("Perth", perth)].map { name, g in
            MapLabelCandidate(text: name, x: unit(g).0, y: unit(g).1, kind: .city, minZoom: 0)
        }
        let layout = MapLabelLayout(index: MapLabelIndex(candidates: names))
        let measure = { (_: Int) in MapLabelSize(width: 50, height: 12) }
        XCTAssertEqual(layout.labels(for: camera, size: measure).map(\.text).sorted(), ["London", "Perth"])
        layout.setOverlay(overlay)
        XCTAssertEqual(layout.labels(for: camera, size: measure).map(\.text), ["Perth"],
                       "London is printed on the tiles: the built-in name gives way; Perth has no tile")
    }
}
