import ClusterCore
import CCairo
import Foundation
@testable import MapRender
import TileTestSupport
import Tiles
import XCTest

/// Raster tiles in the three formats tile servers and MBTiles files use: PNG, JPEG and WebP,
/// decoded to the right pixels (premultiplied alpha included), and anything else refused.
final class RasterTileDecoderTests: XCTestCase {
    func data(_ name: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: TileFixtures.path("raster/" + name))) }

    /// (a, r, g, b) of one pixel, un-premultiplied.
    func pixel(_ s: ImageSurface, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        cairo_surface_flush(s.surface)
        let stride = Int(cairo_image_surface_get_stride(s.surface))
        let p = UnsafeRawPointer(cairo_image_surface_get_data(s.surface)! + y * stride + 4 * x).load(as: UInt32.self)
        let a = Int(p >> 24), r = Int(p >> 16 & 0xFF), g = Int(p >> 8 & 0xFF), b = Int(p & 0xFF)
        guard a > 0 else { return (0, 0, 0, 0) }
        return (a, r * 255 / a, g * 255 / a, b * 255 / a)
    }

    func assertQuadrants(_ s: ImageSurface?, tolerance: Int, file: StaticString = #filePath, line: UInt = #line) {
        guard let s else { return XCTFail("not decoded", file: file, line: line) }
        XCTAssertEqual(s.pixelWidth, 256, file: file, line: line)
        XCTAssertEqual(s.pixelHeight, 256, file: file, line: line)
        let expected = [(64, 64, (255, 0, 192, 0)), (192, 64, (255, 0, 192, 0)), (64, 192, (255, 0, 0, 255)), (192, 192, (255, 255, 255, 255))]
        // Red top-left; green top-right; blue bottom-left; white bottom-right.
        let wanted: [(Int, Int, (Int, Int, Int, Int))] = [(64, 64, (255, 255, 0, 0))] + expected.dropFirst()
        for (x, y, e) in wanted {
            let p = pixel(s, x, y)
            for (got, want) in [(p.0, e.0), (p.1, e.1), (p.2, e.2), (p.3, e.3)] {
                XCTAssertLessThanOrEqual(abs(got - want), tolerance, "pixel (\(x), \(y)) is \(p), wanted \(e)", file: file, line: line)
            }
        }
    }

    func testPNGJPEGAndWebPGiveTheSamePicture() throws {
        XCTAssertEqual(RasterTileDecoder.format(of: try data("quadrants.png")), .png)
        XCTAssertEqual(RasterTileDecoder.format(of: try data("quadrants.jpg")), .jpeg)
        XCTAssertEqual(RasterTileDecoder.format(of: try data("quadrants.webp")), .webp)
        assertQuadrants(RasterTileDecoder.decode(try data("quadrants.png")), tolerance: 0)
        assertQuadrants(RasterTileDecoder.decode(try data("quadrants.jpg")), tolerance: 12)
        assertQuadrants(RasterTileDecoder.decode(try data("quadrants.webp")), tolerance: 16)
    }

    func testWebPAlphaIsPremultipliedForCairo() throws {
        let s = try XCTUnwrap(RasterTileDecoder.decode(try data("half-alpha.webp")))
        cairo_surface_flush(s.surface)
        let raw = UnsafeRawPointer(cairo_image_surface_get_data(s.surface)!).load(as: UInt32.self)
        XCTAssertEqual(Int(raw >> 24), 128, accuracy: 1, "half alpha")
        XCTAssertEqual(Int(raw >> 16 & 0xFF), 128, accuracy: 1, "red 255 premultiplied by half alpha")
        XCTAssertEqual(Int(raw & 0xFF), 0)
    }

    func testBrokenAndUnknownBytesAreRefused() throws {
        XCTAssertNil(RasterTileDecoder.decode(Data()))
        XCTAssertNil(RasterTileDecoder.decode(Data("<html>not a tile</html>".utf8)))
        for name in ["quadrants.png", "quadrants.jpg", "quadrants.webp"] {
            let whole = try data(name)
            // Cut short and corrupted after the signature: never a crash; at most a partial picture.
            _ = RasterTileDecoder.decode(whole.prefix(whole.count / 2))
            var noisy = whole
            var rng = SeededRandom(seed: 11)
            for _ in 0..<200 {
                for _ in 0..<8 { noisy[12 + Int(rng.next() % UInt64(noisy.count - 12))] = UInt8(truncatingIfNeeded: rng.next()) }
                _ = RasterTileDecoder.decode(noisy)
            }
        }
        XCTAssertNil(RasterTileDecoder.decode(try data("quadrants.jpg").prefix(20)), "a JPEG header alone")
    }

    func testAJPEGMBTilesFileIsDrawn() throws {
        let folder = TemporaryFolder()
        let path = folder.path("jpeg.mbtiles")
        do {
            let writer = try MBTilesWriter(path: path, metadata: ["name": "jpeg", "format": "jpg", "minzoom": "0", "maxzoom": "0"])
            try writer.insert(z: 0, x: 0, y: 0, data: try data("quadrants.jpg"))
        }
        let layer = try TileMapLayer(path: path)
        XCTAssertEqual(layer.tileSize, 256)
        let outcome = TileMapLayer.renderTile(TileMapLayer.Key(tile: TileID(z: 0, x: 0, y: 0), dark: false, scale: 1),
                                              source: layer.source, style: layer.style, tileSize: layer.tileSize)
        guard case .image(let image, _) = outcome else { return XCTFail("the JPEG tile was not drawn: \(outcome)") }
        assertQuadrants(image, tolerance: 12)
    }
}
