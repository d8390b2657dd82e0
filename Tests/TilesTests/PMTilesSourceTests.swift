import ClusterCore
import Foundation
import GeoData
import TileTestSupport
@testable import Tiles
import XCTest

final class PMTilesSourceTests: XCTestCase {
    func testHilbertIDsMatchTheSpec() {
        // Values from the PMTiles v3 specification's reference implementation.
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 0, x: 0, y: 0)), 0)
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 1, x: 0, y: 0)), 1)
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 1, x: 0, y: 1)), 2)
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 1, x: 1, y: 1)), 3)
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 1, x: 1, y: 0)), 4)
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 2, x: 0, y: 0)), 5)
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 3, x: 7, y: 0)), 84)
        // Cross-checked with the `pmtiles` Python package (zxy_to_tileid).
        XCTAssertEqual(HilbertTileID.id(for: TileID(z: 14, x: 8755, y: 5460)), 317_884_916)
        XCTAssertNil(HilbertTileID.id(for: TileID(z: 1, x: 2, y: 0)))
        XCTAssertNil(HilbertTileID.id(for: TileID(z: 27, x: 0, y: 0)))
        var rng = SeededRandom(seed: 11)
        for _ in 0..<2000 {
            let z = Int.random(in: 0...TileID.maxZoom, using: &rng)
            let t = TileID(z: z, x: Int.random(in: 0..<(1 << z), using: &rng), y: Int.random(in: 0..<(1 << z), using: &rng))
            let id = HilbertTileID.id(for: t)!
            XCTAssertEqual(HilbertTileID.tile(for: id), t)
        }
        // Ids are dense: every id of zoom 0…4 maps to a distinct tile.
        let tiles = (0..<341).compactMap { HilbertTileID.tile(for: UInt64($0)) }
        XCTAssertEqual(Set(tiles).count, 341)
        XCTAssertEqual(tiles.last?.z, 4)
    }

    func testReadsTheFlorenceExtract() throws {
        let source = try PMTilesSource(path: Fixtures.path("firenze-subset.pmtiles"))
        XCTAssertEqual(source.header.tileType, 1)
        XCTAssertEqual(source.header.internalCompression, .gzip)
        let m = source.metadata
        XCTAssertEqual(m.format, .mvt)
        XCTAssertEqual(m.minZoom, 0)
        XCTAssertEqual(m.maxZoom, 14)
        XCTAssertEqual(m.plainAttribution, "Protomaps © OpenStreetMap")
        XCTAssertEqual(m.vectorLayers.prefix(4), ["earth", "natural", "land", "water"])
        XCTAssertEqual(m.bounds?.west ?? 0, 11.154026, accuracy: 1e-6)
        let data = try XCTUnwrap(try source.tileData(for: TileID(z: 14, x: 8704, y: 5972)))
        let tile = try MVTDecoder.decode(data)
        XCTAssertNotNil(tile.layer(named: "roads"))
        XCTAssertGreaterThan(tile.layer(named: "buildings")?.features.count ?? 0, 100)
        XCTAssertNotNil(try source.tileData(for: TileID(z: 0, x: 0, y: 0)))
        XCTAssertNil(try source.tileData(for: TileID(z: 14, x: 0, y: 0)))
        XCTAssertNil(try source.tileData(for: TileID(z: 15, x: 17408, y: 11944)), "past maxzoom")
    }

    func testSameTilesAsTheMBTilesThroughLeafDirectories() throws {
        let pm = try PMTilesSource(path: Fixtures.path("leipzig-subset.pmtiles"))
        let mb = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        XCTAssertGreaterThan(pm.header.leafDirectoriesLength, 0, "the fixture has leaf directories")
        XCTAssertEqual(pm.metadata.vectorLayers, mb.metadata.vectorLayers)
        XCTAssertEqual(pm.metadata.plainAttribution, mb.metadata.plainAttribution)
        for (z, x, y) in Fixtures.leipzigTiles {
            let t = TileID(z: z, x: x, y: y)
            let a = try pm.tileData(for: t)
            XCTAssertNotNil(a, "\(t)")
            XCTAssertEqual(a, try mb.tileData(for: t), "\(t)")
        }
        XCTAssertNil(try pm.tileData(for: TileID(z: 14, x: 8757, y: 5460)))
    }

    func testDirectoryDecoding() throws {
        // 3 entries: ids 5, 6, 10 (deltas 5, 1, 4); runs 1, 2, 0; lengths 10, 20, 30; offsets 1 (→0),
        // 0 (→ after previous: 10), 101 (→100).
        let bytes: [UInt8] = [3, 5, 1, 4, 1, 2, 0, 10, 20, 30, 1, 0, 101]
        let d = try PMTilesDirectory(decoding: bytes)
        XCTAssertEqual(d.entries.map(\.tileID), [5, 6, 10])
        XCTAssertEqual(d.entries.map(\.offset), [0, 10, 100])
        XCTAssertEqual(d.entry(for: 7)?.tileID, 6, "inside a run of 2")
        XCTAssertNil(d.entry(for: 8), "past the run")
        XCTAssertEqual(d.entry(for: 1000)?.runLength, 0, "a leaf directory covers the rest")
        XCTAssertNil(d.entry(for: 4))
        XCTAssertThrowsError(try PMTilesDirectory(decoding: Array(bytes.dropLast())))
        XCTAssertThrowsError(try PMTilesDirectory(decoding: [0xff, 0xff, 0xff, 0xff, 0x0f]), "huge count")
        XCTAssertThrowsError(try PMTilesDirectory(decoding: [1, 1, 1, 1, 0]), "offset 0 on the first entry")
    }

    func testBadFilesThrow() throws {
        let folder = TemporaryFolder()
        XCTAssertThrowsError(try PMTilesSource(path: folder.path("missing.pmtiles")))
        let good = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("firenze-subset.pmtiles")))
        let cases: [(String, Data)] = [
            ("short", good.prefix(100)),
            ("magic", Data("PMTilez".utf8) + good.dropFirst(7)),
            ("version", good.prefix(7) + Data([2]) + good.dropFirst(8)),
            ("root cut", good.prefix(200)),
        ]
        for (name, bytes) in cases {
            let p = folder.path("\(name).pmtiles")
            try bytes.write(to: URL(fileURLWithPath: p))
            XCTAssertThrowsError(try PMTilesSource(path: p), name)
        }
        // Tile data cut off: opens, but reading a tile past the end throws (no crash, no garbage).
        let cut = folder.path("cut.pmtiles")
        try good.prefix(good.count - 1000).write(to: URL(fileURLWithPath: cut))
        let source = try PMTilesSource(path: cut)
        var failures = 0
        for (z, x, y) in Fixtures.firenzeTiles {
            do { _ = try source.tileData(for: TileID(z: z, x: x, y: y)) } catch { failures += 1 }
        }
        XCTAssertEqual(failures, 1, "the last tile in the file is cut")
    }
}
