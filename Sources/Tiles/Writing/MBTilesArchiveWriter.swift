import CSQLite
import Foundation

/// Writes an MBTiles 1.3 file (SQLite): a `metadata` name/value table and a `tiles` table with
/// rows in TMS order (row 0 is the southernmost), as MapLibre tools and GDAL read it.
public final class MBTilesArchiveWriter {
    private var db: OpaquePointer?
    private var insert: OpaquePointer?
    /// The file's path.
    public let path: String

    /// Creates (replacing) the file at `path` with empty tables, inside one transaction that
    /// `finish()` commits.
    public init(path: String) throws {
        self.path = path
        try? FileManager.default.removeItem(atPath: path)
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK, let handle else {
            let reason = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "can't open"
            sqlite3_close(handle)
            throw TileSourceError.cannotOpen(path: path, reason: reason)
        }
        db = handle
        try exec("""
            PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; BEGIN;
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            """)
        var stmt: OpaquePointer?
        let sql = "INSERT INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)"
        guard sqlite3_prepare_v2(handle, sql, -1, &stmt, nil) == SQLITE_OK else { throw error() }
        insert = stmt
    }

    deinit {
        sqlite3_finalize(insert)
        sqlite3_close(db)
    }

    private func error() -> TileSourceError {
        .corrupt(path: path, reason: db.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    private func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else { throw error() }
    }

    /// Adds one tile (z/x/y in the XYZ convention; stored with its TMS row).
    public func add(_ tile: TileID, bytes: [UInt8]) throws {
        guard let stmt = insert else { throw error() }
        defer { sqlite3_reset(stmt) }
        sqlite3_bind_int64(stmt, 1, Int64(tile.z))
        sqlite3_bind_int64(stmt, 2, Int64(tile.x))
        sqlite3_bind_int64(stmt, 3, Int64(tile.tmsRow))
        let rc = bytes.withUnsafeBytes { b in
            // SQLITE_TRANSIENT: SQLite copies the bytes before the call returns.
            sqlite3_bind_blob(stmt, 4, b.baseAddress, Int32(b.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        }
        guard rc == SQLITE_OK, sqlite3_step(stmt) == SQLITE_DONE else { throw error() }
    }

    /// Writes the metadata rows, the index the readers look tiles up by, and commits.
    public func finish(metadata: [(String, String)]) throws {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO metadata (name, value) VALUES (?1, ?2)", -1, &stmt, nil) == SQLITE_OK else {
            throw error()
        }
        defer { sqlite3_finalize(stmt) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (name, value) in metadata {
            sqlite3_bind_text(stmt, 1, name, -1, transient)
            sqlite3_bind_text(stmt, 2, value, -1, transient)
            guard sqlite3_step(stmt) == SQLITE_DONE else { throw error() }
            sqlite3_reset(stmt)
        }
        try exec("CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row); COMMIT;")
    }
}
