import Compression
import Foundation

/// Writes a PMTiles v3 archive (spec: github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md).
///
/// Tiles are added in any order and kept in memory until `write(to:)`, which sorts them by tile
/// id (a "clustered" archive), stores identical tile contents once, joins consecutive ids with
/// the same content into runs, gzips the directories and metadata, and moves entries into leaf
/// directories when the root would not fit in the first 16 KiB.
public struct PMTilesArchiveWriter {
    /// What the tiles are.
    public enum TileType: UInt8 { case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4 }
    /// How the tile bytes are compressed.
    public enum Compression: UInt8 { case unknown = 0, none = 1, gzip = 2 }

    /// Archive-wide facts written to the header.
    public struct Description {
        public var tileType: TileType = .mvt
        public var tileCompression: Compression = .gzip
        /// West, south, east, north in degrees.
        public var bounds: (west: Double, south: Double, east: Double, north: Double) = (-180, -85.0511287798066, 180, 85.0511287798066)
        /// The view a client starts with.
        public var center: (longitude: Double, latitude: Double, zoom: Int) = (0, 0, 0)
        /// The metadata JSON object (vector_layers, name, attribution…), as UTF-8 bytes.
        public var metadataJSON: [UInt8] = Array("{}".utf8)
        public init() {}
    }

    struct Entry: Equatable {
        var tileID: UInt64
        var offset: UInt64
        var length: UInt32
        var runLength: UInt32
    }

    /// Most bytes the header plus the compressed root directory may take (the spec's 16 KiB).
    static let rootBudget = 16_384
    static let headerLength = 127

    private var tiles: [(id: UInt64, bytes: [UInt8])] = []
    private var zooms: ClosedRange<Int>?

    /// An empty archive.
    public init() {}

    /// Adds a tile's bytes (already compressed as the description says). A tile outside the
    /// world is a programming error.
    public mutating func add(_ tile: TileID, bytes: [UInt8]) {
        guard let id = HilbertTileID.id(for: tile) else { preconditionFailure("tile \(tile) is outside the world") }
        tiles.append((id, bytes))
        zooms = zooms.map { min($0.lowerBound, tile.z)...max($0.upperBound, tile.z) } ?? tile.z...tile.z
    }

    /// Number of tiles added.
    public var tileCount: Int { tiles.count }

    /// The archive's bytes.
    public func archive(_ description: Description) -> [UInt8] {
        let sorted = tiles.sorted { $0.id < $1.id }
        // Tile data, each distinct content once (identical tiles, e.g. of a base map's open sea,
        // share their bytes; the spec counts them as "tile contents").
        var data: [UInt8] = []
        var offsetOfContent: [[UInt8]: UInt64] = [:]
        var entries: [Entry] = []
        for (id, bytes) in sorted {
            let offset: UInt64
            if let known = offsetOfContent[bytes] {
                offset = known
            } else {
                offset = UInt64(data.count)
                offsetOfContent[bytes] = offset
                data.append(contentsOf: bytes)
            }
            if var last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == id {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(Entry(tileID: id, offset: offset, length: UInt32(bytes.count), runLength: 1))
            }
        }
        let (root, leaves) = Self.directories(entries)
        let metadata = GzipCompressor.compress(description.metadataJSON)

        var h: [UInt8] = Array("PMTiles".utf8) + [3]
        func u64(_ v: Int) { for s in 0..<8 { h.append(UInt8(truncatingIfNeeded: UInt64(v) >> UInt64(8 * s))) } }
        func e7(_ v: Double) {
            let i = Int32(clamping: Int64((v * 10_000_000).rounded()))
            for s in 0..<4 { h.append(UInt8(truncatingIfNeeded: UInt32(bitPattern: i) >> UInt32(8 * s))) }
        }
        let rootOffset = Self.headerLength
        let metadataOffset = rootOffset + root.count
        let leavesOffset = metadataOffset + metadata.count
        let dataOffset = leavesOffset + leaves.count
        u64(rootOffset); u64(root.count)
        u64(metadataOffset); u64(metadata.count)
        u64(leavesOffset); u64(leaves.count)
        u64(dataOffset); u64(data.count)
        u64(sorted.count)  // addressed tiles
        u64(entries.count)  // tile entries
        u64(offsetOfContent.count)  // distinct contents
        let z = zooms ?? 0...0
        h += [1, Compression.gzip.rawValue, description.tileCompression.rawValue, description.tileType.rawValue,
              UInt8(z.lowerBound), UInt8(z.upperBound)]
        e7(description.bounds.west); e7(description.bounds.south); e7(description.bounds.east); e7(description.bounds.north)
        h.append(UInt8(clamping: description.center.zoom))
        e7(description.center.longitude); e7(description.center.latitude)
        precondition(h.count == Self.headerLength)
        var out = h
        out.reserveCapacity(dataOffset + data.count)
        out += root
        out += metadata
        out += leaves
        out += data
        return out
    }

    /// Writes the archive to `path` (replacing it).
    public func write(to path: String, _ description: Description) throws {
        try Data(archive(description)).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// The compressed root directory and the leaf directories' bytes: all entries in the root when
    /// they fit, else leaves of `leafSize` entries (doubled until the root of leaf pointers fits).
    static func directories(_ entries: [Entry]) -> (root: [UInt8], leaves: [UInt8]) {
        let root = GzipCompressor.compress(serialize(entries))
        if root.count + headerLength <= rootBudget { return (root, []) }
        var leafSize = 4096
        while true {
            var leaves: [UInt8] = []
            var pointers: [Entry] = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(entries.count, start + leafSize)])
                let leaf = GzipCompressor.compress(serialize(chunk))
                pointers.append(Entry(tileID: chunk[0].tileID, offset: UInt64(leaves.count),
                                      length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            let root = GzipCompressor.compress(serialize(pointers))
            if root.count + headerLength <= rootBudget { return (root, leaves) }
            leafSize *= 2
        }
    }

    /// The spec's directory encoding: count, id deltas, run lengths, lengths, offsets (0 meaning
    /// "right after the previous entry", else offset + 1).
    static func serialize(_ entries: [Entry]) -> [UInt8] {
        var w = ProtobufWriter()
        w.varint(UInt64(entries.count))
        var last: UInt64 = 0
        for e in entries {
            w.varint(e.tileID - last)
            last = e.tileID
        }
        for e in entries { w.varint(UInt64(e.runLength)) }
        for e in entries { w.varint(UInt64(e.length)) }
        for (i, e) in entries.enumerated() {
            if i > 0 && e.offset == entries[i - 1].offset + UInt64(entries[i - 1].length) {
                w.varint(0)
            } else {
                w.varint(e.offset + 1)
            }
        }
        return w.bytes
    }
}
