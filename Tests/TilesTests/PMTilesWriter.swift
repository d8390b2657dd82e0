import Foundation
import TileTestSupport
@testable import Tiles

/// Writes minimal PMTiles v3 archives for tests: one uncompressed root directory, uncompressed
/// metadata, tiles stored as given (so the reader's "compression none" path is covered too).
enum PMTilesWriter {
    static func write(tiles: [TileID: Data], metadata: [String: Any], tileCompression: UInt8 = 1, to path: String) throws {
        let sorted = tiles.map { (HilbertTileID.id(for: $0.key)!, $0.value) }.sorted { $0.0 < $1.0 }
        var data = Data()
        var offsets: [Int] = []
        for (_, bytes) in sorted { offsets.append(data.count); data += bytes }
        var dir = MVTEncoder.varint(UInt64(sorted.count))
        var last: UInt64 = 0
        for (id, _) in sorted { dir += MVTEncoder.varint(id - last); last = id }
        for _ in sorted { dir += MVTEncoder.varint(1) }
        for (_, bytes) in sorted { dir += MVTEncoder.varint(UInt64(bytes.count)) }
        for o in offsets { dir += MVTEncoder.varint(UInt64(o) + 1) }
        let json = try JSONSerialization.data(withJSONObject: metadata)
        let zooms = tiles.keys.map(\.z)
        var header = Data("PMTiles".utf8) + Data([3])
        func u64(_ v: Int) { var le = UInt64(v).littleEndian; header += Data(bytes: &le, count: 8) }
        func i32(_ v: Double) { var le = Int32(v * 10_000_000).littleEndian; header += Data(bytes: &le, count: 4) }
        let rootOffset = 127, metaOffset = rootOffset + dir.count, dataOffset = metaOffset + json.count
        u64(rootOffset); u64(dir.count); u64(metaOffset); u64(json.count); u64(dataOffset); u64(0)
        u64(dataOffset); u64(data.count); u64(tiles.count); u64(tiles.count); u64(tiles.count)
        header += Data([1, 1, tileCompression, 1, UInt8(zooms.min() ?? 0), UInt8(zooms.max() ?? 0)])
        i32(-180); i32(-85); i32(180); i32(85)
        header += Data([UInt8(zooms.min() ?? 0)])
        i32(0); i32(0)
        precondition(header.count == 127)
        try (header + dir + json + data).write(to: URL(fileURLWithPath: path))
    }
}
