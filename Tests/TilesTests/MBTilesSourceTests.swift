import CCairo
import Foundation
import Compression
import GeoData
import MapRender
import TileTestSupport
@testable import Tiles
import XCTest

final class MBTilesSourceTests: XCTestCase {
    func testReadsTheRealLeipzigExtract() throws {
        let source = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let m = source.metadata
        XCTAssertEqual(m.format, .mvt)
        XCTAssertEqual(m.minZoom, 0)
        XCTAssertEqual(m.maxZoom, 14)
        XCTAssertEqual(m.bounds?.west ?? 0, 12.179, accuracy: 1e-9)
        XCTAssertEqual(m.bounds?.north ?? 0, 51.459, accuracy: 1e-9)
        XCTAssertEqual(m.center?.zoom, 14)
        XCTAssertEqual(m.plainAttribution, "© OpenMapTiles © OpenStreetMap contributors")
        XCTAssertTrue(m.vectorLayers.contains("transportation"))
        XCTAssertEqual(m.vectorLayers.first, "water")

        for (z, x, y) in Fixtures.leipzigTiles {
            let data = try XCTUnwrap(try source.tileData(for: TileID(z: z, x: x, y: y)), "\(z)/\(x)/\(y)")
            XCTAssertFalse(Gzip.isGzipped(data), "gzip is removed")
            let tile = try MVTDecoder.decode(data)
            XCTAssertNotNil(tile.layer(named: "water") ?? tile.layer(named: "transportation"), "\(z)/\(x)/\(y)")
        }
        // The TMS flip: the XYZ row of the stored TMS row is absent, the flipped one present.
        XCTAssertNil(try source.tileData(for: TileID(z: 14, x: 8755, y: 10923)))
        XCTAssertNil(try source.tileData(for: TileID(z: 15, x: 0, y: 0)), "past maxzoom")
        XCTAssertNil(try source.tileData(for: TileID(z: 3, x: 1, y: 1)), "absent")
        // A wrapped column reads the canonical tile.
        XCTAssertEqual(try source.tileData(for: TileID(z: 14, x: 8755 - 16384, y: 5460)),
                       try source.tileData(for: TileID(z: 14, x: 8755, y: 5460)))
    }

    func testRasterFixtureMadeWithSQLite() throws {
        let folder = TemporaryFolder()
        let path = folder.path("raster.mbtiles")
        // Four distinct PNGs at zoom 1, one per quadrant, each a flat colour.
        let colours: [UInt32] = [0xFF0000, 0x00FF00, 0x0000FF, 0xFFFF00]
        var pngs: [Data] = []
        do {
            let writer = try MBTilesWriter(path: path, metadata: [
                "name": "test raster", "format": "png", "minzoom": "1", "maxzoom": "1",
                "bounds": "-180,-85.0511,180,85.0511", "attribution": "© Test &amp; Co",
            ])
            for (i, colour) in colours.enumerated() {
                let image = ImageSurface(width: 256, height: 256)
                image.withContext { cr in
                    MapColor(hex: colour).setSource(on: cr)
                    cairo_paint(cr)
                }
                let file = folder.url.appendingPathComponent("\(i).png")
                try image.writePNG(to: file)
                let png = try Data(contentsOf: file)
                pngs.append(png)
                try writer.insert(z: 1, x: i % 2, y: i / 2, data: png)
            }
        }
        let source = try MBTilesSource(path: path)
        XCTAssertEqual(source.metadata.format, .png)
        XCTAssertFalse(source.metadata.format.isVector)
        XCTAssertEqual(source.metadata.minZoom, 1)
        XCTAssertEqual(source.metadata.plainAttribution, "© Test & Co")
        for i in 0..<4 {
            XCTAssertEqual(try source.tileData(for: TileID(z: 1, x: i % 2, y: i / 2)), pngs[i], "tile \(i) (TMS flip)")
        }
        XCTAssertNil(try source.tileData(for: TileID(z: 0, x: 0, y: 0)), "below minzoom")
    }

    func testMissingAndCorruptFilesThrow() throws {
        XCTAssertThrowsError(try MBTilesSource(path: "/nonexistent/x.mbtiles"))
        let folder = TemporaryFolder()
        let junk = folder.path("junk.mbtiles")
        try Data("this is not a database, just text that goes on for a while".utf8).write(to: URL(fileURLWithPath: junk))
        XCTAssertThrowsError(try MBTilesSource(path: junk))
        // A SQLite file without the MBTiles tables.
        let empty = folder.path("empty.mbtiles")
        let w = try MBTilesWriter(path: empty, metadata: [:])
        try w.exec("DROP TABLE tiles")
        XCTAssertThrowsError(try MBTilesSource(path: empty))
    }

    func testConcurrentReadsShareOneStatement() throws {
        let source = try MBTilesSource(path: Fixtures.path("leipzig-subset.mbtiles"))
        let expected = try Fixtures.leipzigTiles.map { try source.tileData(for: TileID(z: $0.0, x: $0.1, y: $0.2)) }
        let failures = Counter()
        DispatchQueue.concurrentPerform(iterations: 4) { worker in
            for round in 0..<20 {
                let i = (worker + round) % Fixtures.leipzigTiles.count
                let (z, x, y) = Fixtures.leipzigTiles[i]
                if (try? source.tileData(for: TileID(z: z, x: x, y: y))) != expected[i] { failures.add() }
            }
        }
        XCTAssertEqual(failures.value, 0)
    }
}

/// A thread-safe counter for concurrent tests.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
