/// The fixed 127-byte header of a PMTiles v3 archive.
public struct PMTilesHeader: Sendable, Hashable {
    /// Compression of directories, metadata or tiles.
    public enum Compression: UInt8, Sendable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }

    /// Header length in bytes.
    public static let length = 127

    /// Byte offset and length of the root directory.
    public var rootDirectoryOffset: UInt64
    public var rootDirectoryLength: UInt64
    /// Byte offset and length of the JSON metadata.
    public var metadataOffset: UInt64
    public var metadataLength: UInt64
    /// Byte offset and length of the leaf directories section.
    public var leafDirectoriesOffset: UInt64
    public var leafDirectoriesLength: UInt64
    /// Byte offset and length of the tile data section.
    public var tileDataOffset: UInt64
    public var tileDataLength: UInt64
    /// Counts: tiles addressed, directory entries, distinct tile contents.
    public var addressedTiles: UInt64
    public var tileEntries: UInt64
    public var tileContents: UInt64
    /// Whether tile data is ordered by tile id.
    public var isClustered: Bool
    /// Compression of directories and metadata.
    public var internalCompression: Compression
    /// Compression of each tile.
    public var tileCompression: Compression
    /// Tile type: 1 MVT, 2 PNG, 3 JPEG, 4 WebP, 5 AVIF.
    public var tileType: UInt8
    /// Shallowest zoom with tiles.
    public var minZoom: Int
    /// Deepest zoom with tiles.
    public var maxZoom: Int
    /// Bounds and centre in degrees (stored as e7 integers).
    public var minLongitude, minLatitude, maxLongitude, maxLatitude: Double
    /// Suggested initial zoom.
    public var centerZoom: Int
    /// Suggested initial centre in degrees.
    public var centerLongitude, centerLatitude: Double

    /// Errors in the header.
    public enum HeaderError: Error, Equatable, CustomStringConvertible {
        case tooShort, notPMTiles, unsupportedVersion(UInt8), unsupportedCompression(UInt8)

        /// In words, for the banner and stderr (not the case names).
        public var description: String {
            switch self {
            case .tooShort: return "too short for a PMTiles file"
            case .notPMTiles: return "not a PMTiles file"
            case .unsupportedVersion(let v): return "PMTiles version \(v) (this app reads version 3)"
            case .unsupportedCompression(let c): return "an unknown compression (\(c))"
            }
        }
    }

    /// Parses a header from the file's first bytes.
    public init(_ bytes: [UInt8]) throws {
        guard bytes.count >= Self.length else { throw HeaderError.tooShort }
        guard Array(bytes[0..<7]) == Array("PMTiles".utf8) else { throw HeaderError.notPMTiles }
        guard bytes[7] == 3 else { throw HeaderError.unsupportedVersion(bytes[7]) }
        func u64(_ at: Int) -> UInt64 {
            var v: UInt64 = 0
            for i in 0..<8 { v |= UInt64(bytes[at + i]) << UInt64(8 * i) }
            return v
        }
        func i32(_ at: Int) -> Double {
            var v: UInt32 = 0
            for i in 0..<4 { v |= UInt32(bytes[at + i]) << UInt32(8 * i) }
            return Double(Int32(bitPattern: v)) / 10_000_000
        }
        rootDirectoryOffset = u64(8); rootDirectoryLength = u64(16)
        metadataOffset = u64(24); metadataLength = u64(32)
        leafDirectoriesOffset = u64(40); leafDirectoriesLength = u64(48)
        tileDataOffset = u64(56); tileDataLength = u64(64)
        addressedTiles = u64(72); tileEntries = u64(80); tileContents = u64(88)
        isClustered = bytes[96] == 1
        guard let ic = Compression(rawValue: bytes[97]) else { throw HeaderError.unsupportedCompression(bytes[97]) }
        guard let tc = Compression(rawValue: bytes[98]) else { throw HeaderError.unsupportedCompression(bytes[98]) }
        internalCompression = ic
        tileCompression = tc
        tileType = bytes[99]
        minZoom = Int(bytes[100]); maxZoom = Int(bytes[101])
        minLongitude = i32(102); minLatitude = i32(106); maxLongitude = i32(110); maxLatitude = i32(114)
        centerZoom = Int(bytes[118])
        centerLongitude = i32(119); centerLatitude = i32(123)
    }

    /// The tile format named by `tileType`.
    public var format: TileFormat {
        switch tileType {
        case 1: return .mvt
        case 2: return .png
        case 3: return .jpeg
        case 4: return .webp
        case 5: return .avif
        default: return .unknown
        }
    }
}
