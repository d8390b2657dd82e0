import Foundation
import MapRender
import TileTestSupport
@testable import Tiles
import GoldenSupport
import XCTest

/// A vector MBTiles made by GDAL (`ogr2ogr -f MBTiles`, gdal-bin, installed by
/// `scripts/setup.sh test`) from a small made-up town with the OpenMapTiles layer names: the
/// tiles a common extract tool produces, painted by the built-in style, and the same tiles as
/// PMTiles giving the same pixels.
final class OgrTownTests: XCTestCase {
    static let town = URL(fileURLWithPath: Fixtures.path("synthetic/town.vrt"))
    /// The zoom-13 tile the town is centred in (see `make-town.py`).
    static let townTile = TileID(z: 13, x: 4323, y: 2777)

    private func makeMBTiles(in folder: TemporaryFolder) throws -> String {
        let candidates = ["/usr/bin/ogr2ogr", "/usr/local/bin/ogr2ogr"]
        guard let ogr2ogr = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            XCTFail("ogr2ogr not found: install gdal-bin (scripts/setup.sh test)")
            throw CocoaError(.fileNoSuchFile)
        }
        let out = folder.path("town.mbtiles")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ogr2ogr)
        p.arguments = ["-f", "MBTiles", out, Self.town.path, "-dsco", "MINZOOM=12", "-dsco", "MAXZOOM=14"]
        p.standardError = FileHandle.nullDevice
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "ogr2ogr failed")
        return out
    }

    private func render(_ source: TileSource, _ t: TileID, dark: Bool = false) throws -> ImageSurface {
        let style = TileStyle.builtIn(for: TileSchema(vectorLayers: source.metadata.vectorLayers))
        let tile = try MVTDecoder.decode(try XCTUnwrap(try source.tileData(for: t), "\(t)"))
        return VectorTilePainter(style: style, dark: dark).render(tile, zoom: t.z)
    }

    func testGDALVectorMBTilesPaintedInBothPalettes() throws {
        let folder = TemporaryFolder()
        let source = try MBTilesSource(path: try makeMBTiles(in: folder))
        XCTAssertEqual(source.metadata.format, .mvt)
        XCTAssertEqual(source.metadata.minZoom, 12)
        XCTAssertEqual(source.metadata.maxZoom, 14)
        XCTAssertEqual(Set(source.metadata.vectorLayers), ["landcover", "landuse", "park", "water", "waterway", "transportation",
                                                           "building", "boundary", "place", "water_name", "transportation_name"])
        XCTAssertEqual(TileSchema(vectorLayers: source.metadata.vectorLayers), .openMapTiles)
        TileGolden.assertMatches(try render(source, Self.townTile), named: "town-z13-light")
        TileGolden.assertMatches(try render(source, Self.townTile, dark: true), named: "town-z13-dark")

        let tile = try MVTDecoder.decode(try XCTUnwrap(try source.tileData(for: Self.townTile)))
        let labels = TileLabels.candidates(in: tile, style: .openMapTiles, zoom: 13)
        XCTAssertEqual(labels.map(\.text), ["Testburg", "Testsee", "Hauptstraße"])
        // The town centre point is the middle of the tile (within a pixel of GDAL's rounding).
        XCTAssertEqual(labels[0].x, 256, accuracy: 1.5)
        XCTAssertEqual(labels[0].y, 256, accuracy: 1.5)
    }

    func testTheSameTilesAsPMTilesGiveTheSamePixels() throws {
        let folder = TemporaryFolder()
        let mb = try MBTilesSource(path: try makeMBTiles(in: folder))
        var tiles: [TileID: Data] = [:]
        for z in 12...14 {
            let n = 1 << z
            let (x0, y0) = ((Self.townTile.x << z) >> 13, (Self.townTile.y << z) >> 13)
            for x in max(0, x0 - 2)...min(n - 1, x0 + 2) {
                for y in max(0, y0 - 2)...min(n - 1, y0 + 2) {
                    if let d = try mb.tileData(for: TileID(z: z, x: x, y: y)) { tiles[TileID(z: z, x: x, y: y)] = d }
                }
            }
        }
        XCTAssertGreaterThanOrEqual(tiles.count, 4)
        let path = folder.path("town.pmtiles")
        try PMTilesWriter.write(tiles: tiles, metadata: ["vector_layers": mb.metadata.vectorLayers.map { ["id": $0] }], to: path)
        let pm = try PMTilesSource(path: path)
        XCTAssertEqual(pm.header.internalCompression, .none)
        XCTAssertEqual(pm.metadata.vectorLayers, mb.metadata.vectorLayers)
        for t in tiles.keys.sorted(by: { ($0.z, $0.x, $0.y) < ($1.z, $1.x, $1.y) }) {
            for dark in [false, true] {
                let diff = PixelDiff.compare(try render(mb, t, dark: dark), try render(pm, t, dark: dark), channelTolerance: 0)
                XCTAssertTrue(diff.sizesMatch)
                XCTAssertEqual(diff.differingPixels, 0, "\(t) dark: \(dark)")
            }
        }
    }
}
