import CSQLite
import Foundation
import Compression

/// Tiles from an MBTiles file (SQLite): raster PNG/JPEG/WebP or vector MVT, gzipped or not.
///
/// Opened read-only. One prepared statement is reused for every tile, behind a lock (SQLite
/// statements are not re-entrant), so calls from several loader threads are safe. Rows are stored
/// in TMS order and flipped here.
public final class MBTilesSource: TileSource, @unchecked Sendable {
    public let metadata: TileSourceMetadata
    /// The file's path.
    public let path: String

    private var db: OpaquePointer?
    private var statement: OpaquePointer?
    private let lock = NSLock()

    /// Biggest decompressed tile accepted; real vector tiles stay well under 2 MB, so anything far
    /// beyond is a decompression bomb or a corrupt file.
    static let maxTileBytes = 32 << 20

    /// Opens `path` and reads its metadata; throws if it is not an MBTiles file.
    public init(path: String) throws {
        self.path = path
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, nil)
        guard rc == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "error \(rc)"
            sqlite3_close(handle)
            throw TileSourceError.cannotOpen(path: path, reason: reason)
        }
        db = handle
        do {
            metadata = try Self.readMetadata(handle, path: path)
            var stmt: OpaquePointer?
            let sql = "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3"
            guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK, let stmt else {
                throw TileSourceError.corrupt(path: path, reason: String(cString: sqlite3_errmsg(handle)))
            }
            statement = stmt
        } catch {
            sqlite3_close(handle)
            db = nil
            throw error
        }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(db)
    }

    public func tileData(for tile: TileID) throws -> Data? {
        let t = tile.wrapped
        guard t.isValid, t.z >= metadata.minZoom, t.z <= metadata.maxZoom else { return nil }
        let raw: Data? = try lock.withLock {
            guard let stmt = statement else { return nil }
            defer { sqlite3_reset(stmt); sqlite3_clear_bindings(stmt) }
            sqlite3_bind_int64(stmt, 1, Int64(t.z))
            sqlite3_bind_int64(stmt, 2, Int64(t.x))
            sqlite3_bind_int64(stmt, 3, Int64(t.tmsRow))
            switch sqlite3_step(stmt) {
            case SQLITE_ROW:
                let count = Int(sqlite3_column_bytes(stmt, 0))
                guard count > 0, let blob = sqlite3_column_blob(stmt, 0) else { return Data() }
                return Data(bytes: blob, count: count)
            case SQLITE_DONE:
                return nil
            default:
                throw TileSourceError.readFailed(reason: String(cString: sqlite3_errmsg(db)))
            }
        }
        guard let raw else { return nil }
        if Gzip.isGzipped(raw) {
            return try Gzip.decompress(raw, sizeHint: raw.count * 4, sizeLimit: Self.maxTileBytes)
        }
        return raw
    }

    private static func readMetadata(_ db: OpaquePointer, path: String) throws -> TileSourceMetadata {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, "SELECT name, value FROM metadata", -1, &stmt, nil) == SQLITE_OK, let stmt else {
            throw TileSourceError.corrupt(path: path, reason: String(cString: sqlite3_errmsg(db)))
        }
        defer { sqlite3_finalize(stmt) }
        var values: [String: String] = [:]
        while true {
            let rc = sqlite3_step(stmt)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else {
                throw TileSourceError.corrupt(path: path, reason: String(cString: sqlite3_errmsg(db)))
            }
            guard let n = sqlite3_column_text(stmt, 0) else { continue }
            let v = sqlite3_column_text(stmt, 1).map { String(cString: $0) } ?? ""
            values[String(cString: n)] = v
        }
        var meta = TileSourceMetadata(name: values["name"], format: TileFormat(mbtilesFormat: values["format"] ?? ""),
                                      attribution: values["attribution"])
        if let z = values["minzoom"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) { meta.minZoom = max(0, z) }
        if let z = values["maxzoom"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
            meta.maxZoom = min(TileID.maxZoom, max(meta.minZoom, z))
        }
        if let b = values["bounds"].map(Self.numbers), b.count == 4 { meta.bounds = (b[0], b[1], b[2], b[3]) }
        if let c = values["center"].map(Self.numbers), c.count == 3 { meta.center = (c[0], c[1], c[2]) }
        if let json = values["json"] { meta.merge(json: Data(json.utf8)) }
        if meta.format == .unknown, !meta.vectorLayers.isEmpty { meta.format = .mvt }
        return meta
    }

    private static func numbers(_ s: String) -> [Double] {
        s.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
    }
}
