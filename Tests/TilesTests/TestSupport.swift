import CSQLite
import Foundation
import XCTest

/// The committed fixtures next to this file (tests read nothing outside the repository).
enum Fixtures {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Tiles in `leipzig-subset.*` (XYZ), from `make-fixtures.py`.
    static let leipzigTiles: [(Int, Int, Int)] = [
        (10, 547, 341), (11, 1094, 682), (12, 2188, 1365), (12, 2189, 1365),
        (13, 4377, 2730), (13, 4378, 2730), (14, 8755, 5460), (14, 8756, 5460),
    ]
    /// Tiles in `firenze-subset.pmtiles` (XYZ).
    static let firenzeTiles: [(Int, Int, Int)] = [
        (0, 0, 0), (1, 1, 0), (2, 2, 1), (3, 4, 2), (4, 8, 5), (5, 17, 11), (6, 34, 23), (7, 68, 46),
        (8, 136, 93), (9, 272, 186), (10, 544, 373), (11, 1088, 746), (12, 2176, 1493), (13, 4352, 2986),
        (14, 8704, 5972), (14, 8705, 5972),
    ]
}

/// A temporary folder removed at the end of a test.
final class TemporaryFolder {
    let url: URL
    init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("tiles-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    deinit { try? FileManager.default.removeItem(at: url) }
}

/// Writes MBTiles files with SQLite, as a tile-making tool would (TMS rows).
final class MBTilesWriter {
    private var db: OpaquePointer?

    init(path: String, metadata: [String: String]) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw NSError(domain: "sqlite", code: 1) }
        try exec("CREATE TABLE metadata (name text, value text)")
        try exec("CREATE TABLE tiles (zoom_level integer, tile_column integer, tile_row integer, tile_data blob)")
        try exec("CREATE UNIQUE INDEX tile_index on tiles (zoom_level, tile_column, tile_row)")
        for (k, v) in metadata {
            try exec("INSERT INTO metadata VALUES ('\(k)', '\(v.replacingOccurrences(of: "'", with: "''"))')")
        }
    }

    deinit { sqlite3_close(db) }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(db, sql, nil, nil, nil) == SQLITE_OK else {
            throw NSError(domain: "sqlite", code: 2, userInfo: [NSLocalizedDescriptionKey: String(cString: sqlite3_errmsg(db))])
        }
    }

    /// Inserts a tile at XYZ z/x/y (stored with the TMS row).
    func insert(z: Int, x: Int, y: Int, data: Data) throws {
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

/// A small deterministic PRNG (SplitMix64) so fuzz runs are reproducible from their seed.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
