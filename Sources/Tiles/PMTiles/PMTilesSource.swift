import Foundation
import Compression

/// Tiles from a local PMTiles v3 archive, read with positioned reads (`pread`) so several loader
/// threads can share one file descriptor without a lock.
///
/// The root directory is decoded once; leaf directories are decoded on demand and kept in a small
/// LRU cache. Gzip-compressed directories, metadata and tiles are inflated through zlib; brotli and
/// zstd archives are refused at open (Debian's zlib is the only codec linked).
public final class PMTilesSource: TileSource, @unchecked Sendable {
    public let metadata: TileSourceMetadata
    /// The parsed header.
    public let header: PMTilesHeader
    /// The file's path.
    public let path: String

    private let fd: Int32
    private let fileSize: UInt64
    private let root: PMTilesDirectory
    /// Decoded leaves, each decoded once: the largest accepted (`PMTilesDirectory.maxEntries`,
    /// 24 MB) fits, so a big leaf is not decoded again for every tile.
    private let leaves = TileCache<UInt64, PMTilesDirectory>(byteLimit: 48 << 20)
    /// Leaves that could not be read or decoded (by offset): not tried again for every tile.
    private var badLeaves: [UInt64: TileSourceError] = [:]
    private let badLeavesLock = NSLock()
    /// Leaf directories decoded so far (tests check that each is decoded once).
    private(set) var leafDecodes = 0

    /// Biggest directory or metadata blob accepted (decompressed): a directory of
    /// `PMTilesDirectory.maxEntries` takes at most a few MB of varints.
    static let maxDirectoryBytes = 16 << 20
    /// Biggest decompressed tile accepted.
    static let maxTileBytes = 32 << 20
    /// Root → leaf → leaf…: the spec needs at most a few levels; more is a loop in a corrupt file.
    static let maxDepth = 4

    /// Opens `path`, reads the header, root directory and metadata; throws if it isn't a usable
    /// PMTiles v3 file.
    public init(path: String) throws {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw TileSourceError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            close(fd)
            throw TileSourceError.cannotOpen(path: path, reason: String(cString: strerror(errno)))
        }
        self.fd = fd
        fileSize = UInt64(max(0, st.st_size))
        do {
            let headerBytes = try Self.read(fd: fd, fileSize: fileSize, offset: 0, length: UInt64(PMTilesHeader.length))
            header = try PMTilesHeader(headerBytes)
            guard header.internalCompression == .none || header.internalCompression == .gzip || header.internalCompression == .unknown else {
                throw TileSourceError.corrupt(path: path, reason: "directories use an unsupported compression")
            }
            guard header.tileCompression == .none || header.tileCompression == .gzip || header.tileCompression == .unknown else {
                throw TileSourceError.corrupt(path: path, reason: "tiles use an unsupported compression")
            }
            let rootBytes = try Self.read(fd: fd, fileSize: fileSize, offset: header.rootDirectoryOffset,
                                          length: header.rootDirectoryLength)
            root = try PMTilesDirectory(decoding: Self.inflate(rootBytes, header.internalCompression,
                                                               limit: Self.maxDirectoryBytes))
            var meta = TileSourceMetadata(format: header.format, minZoom: header.minZoom,
                                          maxZoom: min(TileID.maxZoom, max(header.minZoom, header.maxZoom)))
            meta.bounds = (header.minLongitude, header.minLatitude, header.maxLongitude, header.maxLatitude)
            meta.center = (header.centerLongitude, header.centerLatitude, Double(header.centerZoom))
            if header.metadataLength > 0 {
                let raw = try Self.read(fd: fd, fileSize: fileSize, offset: header.metadataOffset,
                                        length: header.metadataLength)
                let json = try Self.inflate(raw, header.internalCompression, limit: Self.maxDirectoryBytes)
                meta.merge(json: Data(json))
            }
            metadata = meta
        } catch let error as TileSourceError {
            close(fd)
            throw error
        } catch {
            close(fd)
            throw TileSourceError.corrupt(path: path, reason: "\(error)")
        }
    }

    deinit { close(fd) }

    public func tileData(for tile: TileID) throws -> Data? {
        let t = tile.wrapped
        guard t.z >= metadata.minZoom, t.z <= metadata.maxZoom, let id = HilbertTileID.id(for: t) else { return nil }
        var directory = root
        var depth = 0
        while depth < Self.maxDepth {
            depth += 1
            guard let entry = directory.entry(for: id) else { return nil }
            if entry.runLength > 0 {
                let (start, overflow) = header.tileDataOffset.addingReportingOverflow(entry.offset)
                guard !overflow else { throw TileSourceError.readFailed(reason: "tile offset out of range") }
                let bytes = try Self.read(fd: fd, fileSize: fileSize, offset: start, length: UInt64(entry.length))
                return Data(try Self.inflateTile(bytes, header.tileCompression))
            }
            directory = try leaf(at: entry.offset, length: entry.length)
        }
        throw TileSourceError.readFailed(reason: "leaf directories nested too deep")
    }

    private func leaf(at offset: UInt64, length: UInt32) throws -> PMTilesDirectory {
        if let cached = leaves.value(for: offset) { return cached }
        if let known = badLeavesLock.withLock({ badLeaves[offset] }) { throw known }
        do {
            let (start, overflow) = header.leafDirectoriesOffset.addingReportingOverflow(offset)
            guard !overflow else { throw TileSourceError.readFailed(reason: "leaf offset out of range") }
            let raw = try Self.read(fd: fd, fileSize: fileSize, offset: start, length: UInt64(length))
            badLeavesLock.withLock { leafDecodes += 1 }
            let dir = try PMTilesDirectory(decoding: Self.inflate(raw, header.internalCompression,
                                                                  limit: Self.maxDirectoryBytes))
            leaves.insert(dir, for: offset, cost: dir.entries.count * MemoryLayout<PMTilesDirectory.Entry>.stride + 64)
            return dir
        } catch {
            let reason = error as? TileSourceError ?? .readFailed(reason: "\(error)")
            badLeavesLock.withLock { if badLeaves.count < 1024 { badLeaves[offset] = reason } }
            throw reason
        }
    }

    // MARK: - Bytes

    static func read(fd: Int32, fileSize: UInt64, offset: UInt64, length: UInt64) throws -> [UInt8] {
        let (end, overflow) = offset.addingReportingOverflow(length)
        guard !overflow, end <= fileSize, length <= UInt64(Int.max / 2) else {
            throw TileSourceError.readFailed(reason: "range \(offset)+\(length) outside the file (\(fileSize) bytes)")
        }
        let count = Int(length)
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        try bytes.withUnsafeMutableBytes { buffer in
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { throw TileSourceError.readFailed(reason: n == 0 ? "unexpected end of file" : String(cString: strerror(errno))) }
                done += n
            }
        }
        return bytes
    }

    static func inflate(_ bytes: [UInt8], _ compression: PMTilesHeader.Compression, limit: Int) throws -> [UInt8] {
        // "unknown" compression: trust the gzip magic number rather than the header.
        guard compression == .gzip || (compression == .unknown && Gzip.isGzipped(bytes)) else { return bytes }
        do {
            let out = try bytes.withUnsafeBytes { try Gzip.decompress($0, sizeHint: min(bytes.count * 4, limit), sizeLimit: limit) }
            return [UInt8](out)
        } catch let error as Gzip.DecompressionError where error.message.hasPrefix("more than") {
            throw SizeLimitError(limit: limit)
        }
    }

    /// A blob that inflates past its limit (a zip bomb or a corrupt file), in words.
    struct SizeLimitError: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "a compressed block inflates to more than \(limit >> 20) MB" }
    }

    static func inflateTile(_ bytes: [UInt8], _ compression: PMTilesHeader.Compression) throws -> [UInt8] {
        // Some archives say "none" but store gzipped MVT anyway; the magic number decides.
        guard compression == .gzip || Gzip.isGzipped(bytes) else { return bytes }
        return try inflate(bytes, .gzip, limit: maxTileBytes)
    }
}
