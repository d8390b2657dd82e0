import CSQLite
import Foundation

/// Writes MBTiles files with SQLite, as a tile-making tool would (TMS rows).
public final class MBTilesWriter {
    private var db: OpaquePointer?

    public init(path: String, metadata: [String: String]) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw NSError(domain: "sqlite", code: 1) }
        try exec("CREATE TABLE metadata (name text, value text)")
        try exec("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
        try exec("CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row)")
        for (k, v) in metadata {
            try exec("INSERT INTO metadata VALUES ('\(k)', '\(v.replacingOccurrences(of: "'", with: "''"))')")
        }
    }

    deinit { sqlite3_close(db) }

    public func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw NSError(domain: "sqlite", code: 2, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(db))])
        }
    }

    /// Inserts a tile at XYZ z/x/y (stored with the TMS row).
    public func insert(z: Int, x: Int, y: Int, data: Data) throws {
        var stmt: OpaquePointer?
        guard sqlite3_prepare_v2(db, "INSERT INTO tiles VALUES (?1, ?2, ?3, ?4)", -1, &stmt, nil) == SQLITE_OK else {
            throw NSError(domain: "sqlite", code: 3)
        }
        defer { sqlite3_finalize(stmt) }
        sqlite3_bind_int64(stmt, 1, Int64(z))
        sqlite3_bind_int64(stmt, 2, Int64(x))
        sqlite3_bind_int64(stmt, 3, Int64((1 << z) - 1 - y))
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        _ = data.withUnsafeBytes { sqlite3_bind_blob(stmt, 4, $0.baseAddress, Int32($0.count), transient) }
        guard sqlite3_step(stmt) == SQLITE_DONE else { throw NSError(domain: "sqlite", code: 4) }
    }
}
