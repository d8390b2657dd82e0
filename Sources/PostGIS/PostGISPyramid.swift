import Foundation

/// A per-zoom aggregate table next to a big table (`<table>_clustermap_pyramid`): for zooms 0…maxZoom
/// the grid clusterer's cells with their count, Σx, Σy and a lone point — and for each column it was
/// built to total (`--total sum:damage`) the rows with a value, their sum, lowest and highest
/// (`t0n, t0s, t0min, t0max`, …; the mean derives) — indexed by (z, ix, iy), so a view at any zoom
/// is one index range scan. Built by SQL inside the database: the deepest zoom from
/// the rows in one GROUP BY, each shallower zoom from the one below (cells nest exactly: a cell of
/// zoom z−1 is the 2 × 2 cells of zoom z, the integer keys halved). Rebuilt by the same call,
/// swapped in one transaction so readers see the old or the new pyramid, never half of one.
public struct PostGISPyramid: Sendable, Equatable {
    /// The pyramid table's quoted, qualified name.
    public let sqlName: String
    /// The cell size (pixels) and deepest zoom it was built for.
    public let cellSize: Double
    public let maxZoom: Int
    /// The columns it totals, in the order of their `t0…` columns (empty: counts only, as every
    /// pyramid built before totals — marker v1 — is).
    public let totals: [String]
    /// The total column a view reads (`reading(total:)`), nil: counts only.
    public private(set) var readTotal: String?

    static let marker = "clustermap pyramid v"
    /// The version `build` writes: 2 added the totals (`totals=` in the comment).
    static let version = 2

    public init(sqlName: String, cellSize: Double, maxZoom: Int, totals: [String] = []) {
        self.sqlName = sqlName
        self.cellSize = cellSize
        self.maxZoom = maxZoom
        self.totals = totals
    }

    /// Whether it serves views totalling `total` (nil: counts only): a column it was built with;
    /// never a most-common total (no counts per value).
    public func serves(total: String?, mostCommon: Bool = false) -> Bool {
        guard let total else { return true }
        return !mostCommon && totals.contains(total)
    }

    /// Why views totalling `column` can't use it, in one line (nil when they can).
    public func problem(total column: String, mostCommon: Bool) -> String? {
        guard !serves(total: column, mostCommon: mostCommon) else { return nil }
        if mostCommon { return "the pyramid keeps no most common values: each view is counted from the table (slower)" }
        return "the pyramid was built without totals of '\(column)': each view is counted from the table (slower); "
            + "clustermap pyramid ADDRESS --total sum:\(column) adds them"
    }

    /// The same pyramid, its cells read with `total`'s columns (when it holds them).
    func reading(total: String?) -> PostGISPyramid {
        var p = self
        p.readTotal = total.flatMap { totals.contains($0) ? $0 : nil }
        return p
    }

    /// Characters a total's column name keeps in the pyramid's comment (others percent-encoded).
    static let plainCharacters = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")

    /// The pyramid's table name for a table.
    static func tableName(_ table: String) -> String { String((table + "_clustermap_pyramid").utf8.prefix(63))! }

    /// The pyramid of `table`, if one was built (read from the comment it carries).
    static func find(for table: PostGISTable, schema: String, name: String, on c: PostgresConnection) throws -> PostGISPyramid? {
        let r = try c.query("SELECT obj_description(to_regclass(quote_ident($1) || '.' || quote_ident($2)), 'pg_class')",
                            [schema, tableName(name)])
        guard r.rowCount == 1, let comment = r.text(0, 0), comment.hasPrefix(marker) else { return nil }
        var cell: Double?, zoom: Int?, totals: [String] = []
        for part in comment.split(separator: " ") {
            if part.hasPrefix("cell=") { cell = Double(part.dropFirst(5)) }
            if part.hasPrefix("maxzoom=") { zoom = Int(part.dropFirst(8)) }
            // Column names percent-encoded (a name may hold a space or a comma).
            if part.hasPrefix("totals=") { totals = part.dropFirst(7).split(separator: ",").compactMap { String($0).removingPercentEncoding } }
        }
        guard let cell, let zoom else { return nil }
        return PostGISPyramid(sqlName: try c.quoted(schema) + "." + c.quoted(tableName(name)), cellSize: cell, maxZoom: zoom,
                              totals: totals.filter { table.columns[$0] != nil })
    }

    /// The deepest zoom worth a level for `rows` rows: the last whose world has at most a quarter
    /// as many cells as rows (deeper, cells hold about one point each, and views there hold few
    /// enough points to be fetched; 10M uniform rows: zoom 8, not 16's 70M cells).
    static func automaticMaxZoom(rows: Double, cellSize: Double) -> Int {
        var z = 0
        while z < 16 {
            let side = 256 * pow(2, Double(z + 1)) / cellSize
            if side * side > max(rows, 1) / 4 { break }
            z += 1
        }
        return z
    }

    /// Builds (or rebuilds) the pyramid of the source's table for grid cells of `cellSize` pixels,
    /// zooms 0…`maxZoom` (at most 24, where cells still halve exactly; nil: `automaticMaxZoom` for
    /// the table's row estimate), with the count, sum, lowest and highest of each of `totals`
    /// (numeric columns: `PostGISTable.totalProblem`). Returns the cells per zoom.
    @discardableResult
    public static func build(for source: PostGISSource, cellSize: Double = 64, maxZoom: Int? = nil, totals: [String] = [],
                             progress: (Int) -> Void = { _ in }) throws -> [Int] {
        for column in totals {
            if let problem = source.table.totalProblem(kind: .sum, column: column) { throw PostGISError.badFilter(problem) }
        }
        var seen = Set<String>()
        let totals = totals.filter { seen.insert($0).inserted }
        let c = source.connection
        var rows = 0.0
        if maxZoom == nil {
            let r = try c.query("SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = \(try quotedLiteralRegclass(source, c))")
            rows = r.double(0, 0) ?? 0
            if rows == 0 { rows = Double(try c.query("SELECT count(*) FROM \(source.table.sqlName)").integer(0, 0) ?? 0) }
        }
        let maxZoom = min(max(maxZoom ?? automaticMaxZoom(rows: rows, cellSize: cellSize), 0), 24)
        var options = PostGISViewOptions()
        options.cellSize = cellSize
        let sql = try ViewSQL(table: source.table, conditions: [], total: totals.first, quote: c.quoted)
        let name = tableName(source.address.table)
        let schema = source.table.schema
        let final = try c.quoted(schema) + "." + c.quoted(name)
        let building = try c.quoted(schema) + "." + c.quoted(name + "_new")
        _ = try c.query("BEGIN")
        do {
            _ = try c.query("DROP TABLE IF EXISTS \(building)")
            _ = try c.query("CREATE TABLE \(building) (z int2 NOT NULL, ix int8 NOT NULL, iy int8 NOT NULL, n int8 NOT NULL, "
                            + "sx float8 NOT NULL, sy float8 NOT NULL, lon float8, lat float8, id int8"
                            + totals.indices.map { ", t\($0)n int8, t\($0)s float8, t\($0)min float8, t\($0)max float8" }.joined() + ")")
            let (cu, width) = PostGISSource.gridCell(zoom: maxZoom, options: options)
            // The deepest zoom from the rows: the view query over the whole world, all cells.
            for (name, value) in ViewSQL.gridSettings { _ = try c.query("SELECT set_config($1, $2, true)", [name, value]) }
            _ = try c.query("INSERT INTO \(building) SELECT \(maxZoom), k % \(width), k / \(width), n, sx, sy, lon0, lat, id"
                            + (totals.isEmpty ? "" : ", tn, tsum, tmin, tmax") + " FROM (\(sql.gridSQL())) g WHERE k IS NOT NULL",
                            ViewSQL.boxValues(-180, -90, 180, 90) + ["\(cu)", "\(width)"])
            // Each further total: the same cells from one more pass, its columns filled in.
            for (i, column) in totals.enumerated().dropFirst() {
                let more = try ViewSQL(table: source.table, conditions: [], total: column, quote: c.quoted)
                _ = try c.query("UPDATE \(building) b SET t\(i)n = g.tn, t\(i)s = g.tsum, t\(i)min = g.tmin, t\(i)max = g.tmax "
                                + "FROM (\(more.gridSQL())) g WHERE g.k IS NOT NULL AND b.z = \(maxZoom) AND b.ix = g.k % \(width) AND b.iy = g.k / \(width)",
                                ViewSQL.boxValues(-180, -90, 180, 90) + ["\(cu)", "\(width)"])
            }
            progress(maxZoom)
            for z in stride(from: maxZoom - 1, through: 0, by: -1) {
                // A cell one zoom up holds 2 × 2 cells: keys halved (exact, see the type's note); its
                // lone point is known only when it holds one point (then min is that point).
                _ = try c.query("INSERT INTO \(building) SELECT \(z), ix / 2, iy / 2, sum(n), sum(sx), sum(sy), min(lon), min(lat), min(id)"
                                + totals.indices.map { ", sum(t\($0)n), sum(t\($0)s), min(t\($0)min), max(t\($0)max)" }.joined()
                                + " FROM \(building) WHERE z = \(z + 1) GROUP BY ix / 2, iy / 2")
                progress(z)
            }
            _ = try c.query("CREATE INDEX ON \(building) (z, ix, iy)")
            _ = try c.query("DROP TABLE IF EXISTS \(final)")
            _ = try c.query("ALTER TABLE \(building) RENAME TO \(try c.quoted(name))")
            let names = totals.map { $0.addingPercentEncoding(withAllowedCharacters: Self.plainCharacters) ?? "" }.joined(separator: ",")
            let comment = "\(marker)\(version) cell=\(cellSize) maxzoom=\(maxZoom)" + (totals.isEmpty ? "" : " totals=\(names)")
            // Only letters, digits, '%', '=', '.', ',' and spaces: safe between quotes.
            _ = try c.query("COMMENT ON TABLE \(final) IS '\(comment)'")
            _ = try c.query("COMMIT")
        } catch {
            _ = try? c.query("ROLLBACK")
            throw error
        }
        _ = try c.query("ANALYZE \(final)")
        let counts = try c.query("SELECT z, count(*) FROM \(final) GROUP BY z ORDER BY z")
        source.pyramid = try find(for: source.table, schema: schema, name: source.address.table, on: c)
        return (0..<counts.rowCount).map { Int(counts.integer($0, 1) ?? 0) }
    }

    /// `'schema.table'::regclass` for the source's table, as SQL.
    static func quotedLiteralRegclass(_ source: PostGISSource, _ c: PostgresConnection) throws -> String {
        let name = try c.quoted(source.table.schema) + "." + c.quoted(source.table.name)
        return "'" + name.replacingOccurrences(of: "'", with: "''") + "'::regclass"
    }

    /// Drops the table's pyramid (benchmarks measure views without it first).
    static func drop(for source: PostGISSource) throws {
        let c = source.connection
        _ = try c.query("DROP TABLE IF EXISTS \(try c.quoted(source.table.schema)).\(try c.quoted(tableName(source.address.table)))")
        source.pyramid = nil
    }

    /// The cells of a zoom in a key range: ix, iy, n, sx, sy, lon, lat, id, and with a total read
    /// its rows with a value, sum, lowest and highest.
    func cellsSQL() -> String {
        let t = readTotal.flatMap { totals.firstIndex(of: $0) }.map { ", t\($0)n, t\($0)s, t\($0)min, t\($0)max" } ?? ""
        return "SELECT ix, iy, n, sx, sy, lon, lat, id\(t) FROM \(sqlName) "
            + "WHERE z = $1::int2 AND ix BETWEEN $2::int8 AND $3::int8 AND iy BETWEEN $4::int8 AND $5::int8"
    }
}
