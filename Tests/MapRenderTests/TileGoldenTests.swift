import Foundation
import MapRender
@testable import Tiles
import GoldenSupport
import XCTest

/// Real tiles of both schemas painted by the built-in styles, compared with reviewed PNGs.
/// The pictures carry OpenStreetMap data: © OpenMapTiles © OpenStreetMap contributors (Leipzig),
/// Protomaps © OpenStreetMap contributors (Florence).
final class TileGoldenTests: XCTestCase {
    private func tile(_ source: TileSource, _ z: Int, _ x: Int, _ y: Int) throws -> VectorTile {
        try MVTDecoder.decode(try XCTUnwrap(try source.tileData(for: TileID(z: z, x: x, y: y))))
    }

    private func render(_ source: TileSource, _ z: Int, _ x: Int, _ y: Int, dark: Bool = false,
                        rect: TileRect = .whole) throws -> ImageSurface {
        let style = TileStyle.builtIn(for: TileSchema(vectorLayers: source.metadata.vectorLayers))
        return VectorTilePainter(style: style, dark: dark).render(try tile(source, z, x, y), zoom: z, rect: rect)
    }

    func testLeipzig() throws {
        let source = try MBTilesSource(path: TileFixtures.path("leipzig-subset.mbtiles"))
        Golden.assertMatches(try render(source, 14, 8755, 5460), named: "leipzig-z14-light")
        Golden.assertMatches(try render(source, 14, 8755, 5460, dark: true), named: "leipzig-z14-dark")
        Golden.assertMatches(try render(source, 12, 2188, 1365), named: "leipzig-z12-light")
        Golden.assertMatches(try render(source, 12, 2188, 1365, dark: true), named: "leipzig-z12-dark")
    }

    func testLeipzigOverZoomedToZoom16() throws {
        let source = try MBTilesSource(path: TileFixtures.path("leipzig-subset.mbtiles"))
        let z16 = TileID(z: 16, x: 8755 * 4 + 1, y: 5460 * 4 + 1)
        let rect = try XCTUnwrap(z16.rect(in: TileID(z: 14, x: 8755, y: 5460)))
        Golden.assertMatches(try render(source, 14, 8755, 5460, rect: rect), named: "leipzig-z16-overzoom-light")
    }

    func testFlorence() throws {
        let source = try PMTilesSource(path: TileFixtures.path("firenze-subset.pmtiles"))
        Golden.assertMatches(try render(source, 14, 8704, 5972), named: "firenze-z14-light")
        Golden.assertMatches(try render(source, 14, 8704, 5972, dark: true), named: "firenze-z14-dark")
        Golden.assertMatches(try render(source, 12, 2176, 1493), named: "firenze-z12-light")
    }

    func testTheSameTilesAsMBTilesAndPMTilesGiveTheSamePixels() throws {
        let mb = try MBTilesSource(path: TileFixtures.path("leipzig-subset.mbtiles"))
        let pm = try PMTilesSource(path: TileFixtures.path("leipzig-subset.pmtiles"))
        for (z, x, y) in [(14, 8756, 5460), (13, 4377, 2730)] {
            let a = try render(mb, z, x, y), b = try render(pm, z, x, y)
            let diff = PixelDiff.compare(a, b, channelTolerance: 0)
            XCTAssertTrue(diff.sizesMatch)
            XCTAssertEqual(diff.differingPixels, 0, "\(z)/\(x)/\(y)")
        }
    }
}
