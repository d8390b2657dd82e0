import Foundation
@testable import MapRender
import GeoData
import MapModel
import TileTestSupport
import Tiles
import XCTest

/// Images that claim more pixels than a tile can have (issue 34): refused from their header,
/// before any pixel is decoded, from a server's bytes and from a tile file alike. Without the
/// header check, the PNG below cost 1.19 GB and 24 s and the JPEG 1.31 GB and 16 s.
final class OversizedImageTests: XCTestCase {
    func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("raster/" + name)))
    }

    /// A valid grey PNG of `side`×`side` px (all black: about 260 KB at 16384), made with Python's zlib.
    func png(side: Int) throws -> Data {
        let script = """
        import struct, zlib, sys
        side = \(side)
        def chunk(k, d): return struct.pack('>I', len(d)) + k + d + struct.pack('>I', zlib.crc32(k + d) & 0xFFFFFFFF)
        z = zlib.compressobj(9); row = bytes(side + 1)
        idat = b''.join(z.compress(row) for _ in range(side)) + z.flush()
        sys.stdout.buffer.write(b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', side, side, 8, 0, 0, 0, 0))
                                + chunk(b'IDAT', idat) + chunk(b'IEND', b''))
        """
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", "-c", script]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return data
    }

    /// The quadrants JPEG with its SOF0 size set to `width`×`height` (a few hundred bytes of header
    /// are all an attacker needs: the decoder fills the rest).
    func jpeg(width: Int, height: Int) throws -> Data {
        var b = [UInt8](try fixture("quadrants.jpg"))
        let sof = try XCTUnwrap((2..<b.count - 1).first { b[$0] == 0xFF && b[$0 + 1] == 0xC0 })
        b[sof + 5] = UInt8(height >> 8); b[sof + 6] = UInt8(height & 0xFF)
        b[sof + 7] = UInt8(width >> 8); b[sof + 8] = UInt8(width & 0xFF)
        return Data(b)
    }

    /// The quadrants WebP (lossy VP8) with its frame size set to `side` (14 bits at most).
    func webp(side: Int) throws -> Data {
        var b = [UInt8](try fixture("quadrants.webp"))
        XCTAssertEqual(String(decoding: b[12..<16], as: UTF8.self), "VP8 ")
        for at in [26, 28] { b[at] = UInt8(side & 0xFF); b[at + 1] = UInt8(side >> 8 & 0x3F) }
        return Data(b)
    }

    func testHeadersGiveTheSizeOfEachFormat() throws {
        for name in ["quadrants.png", "quadrants.jpg", "quadrants.webp"] {
            let size = RasterImageHeader.size(of: try fixture(name))
            XCTAssertEqual(size?.width, 256, name)
            XCTAssertEqual(size?.height, 256, name)
        }
        let alpha = RasterImageHeader.size(of: try fixture("half-alpha.webp"))
        XCTAssertNotNil(alpha)
        XCTAssertEqual(RasterImageHeader.size(of: try jpeg(width: 20000, height: 300)).map { [$0.width, $0.height] }, [20000, 300])
        XCTAssertEqual(RasterImageHeader.size(of: try webp(side: 16383)).map { [$0.width, $0.height] }, [16383, 16383])
        XCTAssertNil(RasterImageHeader.size(of: try fixture("quadrants.jpg").prefix(20)), "no SOF yet")
        XCTAssertNil(RasterImageHeader.size(of: Data("RIFF\0\0\0\0WEBPVP8 ".utf8)))
        XCTAssertNil(RasterImageHeader.size(of: Data([0xFF, 0xD8, 0xFF, 0xDA, 0, 2])), "scan data before a size")
    }

    /// Decodes `data`, returning whether it was refused, the seconds and the peak memory rise (MB).
    func refusal(_ data: Data) -> (refused: Bool, seconds: Double, megabytes: Double) {
        var image: ImageSurface?
        let started = Date()
        let rise = PeakMemory.rise { image = RasterTileDecoder.decode(data) }
        return (image == nil, Date().timeIntervalSince(started), rise)
    }

    func testOversizedImagesAreRefusedBeforeDecoding() throws {
        let hugePNG = try png(side: 16384)
        XCTAssertLessThan(hugePNG.count, 400_000)
        XCTAssertEqual(RasterImageHeader.size(of: hugePNG)?.width, 16384)
        for (name, data) in [("png 16384", hugePNG), ("jpeg 20000", try jpeg(width: 20000, height: 20000)),
                             ("webp 16383", try webp(side: 16383)), ("png 4097 wide", try png(side: 4097))] {
            let (refused, seconds, megabytes) = refusal(data)
            XCTAssertTrue(refused, name)
            XCTAssertLessThan(seconds, 0.2, name)
            XCTAssertLessThan(megabytes, 16, "\(name): peak rise in MB")
            print("\(name): refused in \(String(format: "%.4f", seconds)) s, peak rise \(Int(megabytes)) MB")
        }
        // The limit itself still decodes (a 4096-px image is a big but honest tile).
        let (refused, _, _) = refusal(try png(side: 4096))
        XCTAssertFalse(refused, "4096 px is allowed")
    }

    func testAnOversizedTileInATileFileIsRefusedToo() throws {
        let folder = TemporaryFolder()
        let path = folder.path("huge.mbtiles")
        do {
            let writer = try MBTilesWriter(path: path, metadata: ["name": "huge", "format": "jpg", "minzoom": "0", "maxzoom": "0"])
            try writer.insert(z: 0, x: 0, y: 0, data: try jpeg(width: 20000, height: 20000))
        }
        let layer = try TileMapLayer(path: path)
        var outcome: TileMapLayer.Outcome?
        let rise = PeakMemory.rise {
            outcome = TileMapLayer.renderTile(TileMapLayer.Key(tile: TileID(z: 0, x: 0, y: 0), dark: false, scale: 1),
                                              source: layer.source, style: layer.style, tileSize: layer.tileSize)
        }
        guard case .failed? = outcome else { return XCTFail("expected a failed tile, got \(String(describing: outcome))") }
        XCTAssertLessThan(rise, 16)
    }
}

/// A tile file's credit line is shown bounded (issue 34): a 100 KB attribution hid the scale bar
/// and the other credits.
final class LongAttributionTests: XCTestCase {
    func testAHugeAttributionIsCutAndMeasuresNarrow() throws {
        let folder = TemporaryFolder()
        let path = folder.path("credit.mbtiles")
        let huge = "<a href=\"x\">© Someone</a> " + String(repeating: "credit ", count: 15_000) + "\u{202E}evil"
        do {
            let writer = try MBTilesWriter(path: path, metadata: ["name": "credit", "format": "png", "minzoom": "0",
                                                                  "maxzoom": "0", "attribution": huge])
            try writer.insert(z: 0, x: 0, y: 0, data: try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("raster/quadrants.png"))))
        }
        let layer = try TileMapLayer(path: path)
        let credit = try XCTUnwrap(layer.attribution)
        XCTAssertTrue(credit.hasPrefix("© Someone credit"))
        XCTAssertLessThanOrEqual(credit.unicodeScalars.count, DisplayText.attributionLength)
        XCTAssertFalse(credit.unicodeScalars.contains("\u{202E}"))
        // As drawn: the credit's backing leaves most of an 800-px-wide map for the scale bar.
        let image = ImageSurface(width: 800, height: 100)
        let size = image.withContext { cr in
            AttributionLabel.draw(credit, in: cr, bottomRight: 800, 100, palette: .light)
        }
        XCTAssertLessThan(size.width, 560, "credit width in px")
        XCTAssertLessThan(size.height, 20, "one line")
    }
}
