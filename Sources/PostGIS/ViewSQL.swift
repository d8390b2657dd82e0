import ClusterCore

/// The SQL of one view: the rows inside a WGS 84 box (index-friendly `&&`) that pass the filters,
/// with their point as `lon`, `lat`, unit Web Mercator `x`, `y` (supercluster's formulas, in the
/// same float8 operations as `WebMercator`, so cell keys come out the same bit for bit), the total
/// column `t` and the row id `id`. Parameters `$1…$4` are the box; filters follow.
struct ViewSQL {
    let table: PostGISTable
    /// The rows subquery (valid coordinates only, as the in-process clusterers skip the rest).
    let rows: String
    /// Filter values, parameters `$5…`.
    let filterValues: [String]
    /// The row source of the grid query: the point, the total `t` and the id `id` of the rows that
    /// pass the box and the filters (see `gridSQL`).
    let pointRows: String
    /// Whether a total column is summed.
    let hasTotal: Bool
    /// Whether the total column is counted per value (`--total most-common:COLUMN`): `t` is its
    /// text, and the grid's cells come per value (`ViewSQL+MostCommon.swift`).
    let totalIsCategory: Bool
    /// Whether `gridSQL` selects `t` too (its caller groups by it).
    var groupsValues = false
    /// What makes two views' rows the same (the filters' SQL and values, the total): the key of
    /// the cells kept for rolling up.
    let rowsKey: String
    /// When set, `gridSQL` finds each row's cell by these thresholds (`bucketGridSQL`).
    var cellBuckets: PostGISCellBuckets?

    init(table: PostGISTable, conditions: [PostGISCondition], filter: PostGISWhere? = nil, total: String?,
         mostCommon: Bool = false, quote: (String) throws -> String) throws {
        self.table = table
        // A box covering the world tests nothing (every valid point is in it) but costs a box per
        // row (a point stores none): a whole-world box folds the test away (the parameters are
        // known when the server plans an unnamed statement), any other keeps the indexable `&&`.
        var whereSQL = "(($1::float8 <= -180 AND $2::float8 <= -90 AND $3::float8 >= 180 AND $4::float8 >= 90) OR "
            + table.boxSQL(1, 2, 3, 4) + ")"
        var values: [String] = []
        for c in conditions {
            let (sql, value) = try c.sql(table: table, quotedColumn: try quote(c.column), parameter: 5 + values.count)
            whereSQL += " AND " + sql
            values.append(value)
        }
        if let filter {
            let (sql, filterValues) = try filter.sql(table: table, quote: quote, firstParameter: 5 + values.count)
            whereSQL += " AND " + sql
            values += filterValues
        }
        filterValues = values
        var totalSQL = "NULL::float8"
        if let total {
            guard table.columns[total] != nil else { throw PostGISError.badFilter("table \(table.displayName) has no column '\(total)' to total") }
            totalSQL = "(\(try quote(total)))::float8"
        }
        if let total, mostCommon { totalSQL = "(\(try quote(total)))::text" }
        totalIsCategory = total != nil && mostCommon
        let idSQL = try table.idColumn.map { table.rowIDSQL(quotedKey: try quote($0)) } ?? "NULL::int8"
        pointRows = "SELECT \(table.pointSQL) AS p, \(totalSQL) AS t, \(idSQL) AS id FROM \(table.sqlName) WHERE \(whereSQL)"
        hasTotal = total != nil && !mostCommon
        rowsKey = ([whereSQL, totalSQL] + values).joined(separator: "\u{0}")
        let s = "sin(lat * pi() / 180::float8)"
        let y = "CASE WHEN lat >= 90 THEN 0::float8 WHEN lat <= -90 THEN 1::float8 ELSE "
            + "GREATEST(0::float8, LEAST(1::float8, 0.5::float8 - 0.25::float8 * ln((1 + \(s)) / (1 - \(s))) / pi())) END"
        rows = "SELECT lon, lat, lon / 360::float8 + 0.5::float8 AS x, \(y) AS y, t, id FROM "
            + "(SELECT ST_X(p) AS lon, ST_Y(p) AS lat, t, id FROM "
            + "(\(pointRows)) a) b "
            + "WHERE lon >= -180 AND lon <= 180 AND lat >= -90 AND lat <= 90"
    }

    /// Box parameters (west, south, east, north) as exact text.
    static func boxValues(_ w: Double, _ s: Double, _ e: Double, _ n: Double) -> [String] {
        [w, s, e, n].map { "\($0)" }
    }

    /// Counts the rows in the box, stopping at `limit` (cheap with a spatial index).
    func countSQL(limit: Int) -> String {
        "SELECT count(*) FROM (SELECT 1 FROM (\(rows)) r LIMIT \(max(0, limit))) s"
    }

    /// The rows themselves: lon, lat, t, id (at most `limit`), in id order when the table has a
    /// key, so the same view always clusters the same (the hierarchical result depends on order).
    func fetchSQL(limit: Int) -> String {
        "SELECT lon, lat, t, id FROM (\(rows)) r" + (table.idColumn == nil ? "" : " ORDER BY id") + " LIMIT \(max(0, limit))"
    }

    /// One GROUP BY on integer cell keys `k = iy · width + ix` (the grid clusterer's `cellKey`:
    /// for a valid point x and y lie in 0…1, so its `x > 0 ? x / cu : 0` and its cap at width − 1
    /// are plain `floor(x / cu)`): per cell count, Σx, Σy, min/max lon (min: the lone point's; x is
    /// monotone in lon, so they give the cell's x range exactly), min lat and id (the lone point's),
    /// min/max y (the y range), and with a total Σt, min t, max t and the rows with a value (the mean's divisor). Rows with no valid point get a
    /// NULL key (their group is skipped): a WHERE on computed columns would make the planner expect
    /// a handful of rows and then gather every row to one process instead of aggregating in its
    /// parallel workers.
    ///
    /// Each step is a subquery fenced with `OFFSET NULL` (no offset, but the planner can't pull it
    /// up): flattened, it copied the y formula into every use — the key, Σy, min y, max y — and
    /// `ST_Y` into each of those, so a row cost 8 sines, 4 logs and 23 `ST_Y` calls (EXPLAIN VERBOSE;
    /// 10M rows: 26 s → 9 s with the fences on the loaded 2-core machine). `OFFSET 0` fences too, but
    /// is not a constant to the planner when it decides on parallel plans, so it ran in one process.
    /// Parameters after the filters: cell unit, key width.
    func gridSQL() -> String {
        // A most-common total: the cells per value, each cell's most common values kept.
        if totalIsCategory, !groupsValues { return valueGridSQL() }
        if let cellBuckets { return bucketGridSQL(cellBuckets) }
        let p = 5 + filterValues.count
        let cu = "$\(p)::float8", width = "$\(p + 1)::float8", fence = " OFFSET NULL"
        // A computed point (ST_PointOnSurface, ST_Transform) is computed once too.
        let computed = !table.hasPointGeometry || table.srid != 4326
        let read = "SELECT ST_X(p) AS lon, ST_Y(p) AS lat, t, id FROM (\(pointRows)\(computed ? fence : "")) a" + fence
        let valid = "SELECT lon, lat, t, id, CASE WHEN lon >= -180 AND lon <= 180 AND lat >= -90 AND lat <= 90 THEN lat END AS vlat "
            + "FROM (\(read)) b" + fence
        let sine = "SELECT lon, lat, t, id, vlat, sin(vlat * pi() / 180::float8) AS s FROM (\(valid)) c" + fence
        // WebMercator.y in the same float8 operations (±90° first: PostgreSQL refuses to divide by 0).
        let y = "CASE WHEN vlat >= 90 THEN 0::float8 WHEN vlat <= -90 THEN 1::float8 ELSE "
            + "GREATEST(0::float8, LEAST(1::float8, 0.5::float8 - 0.25::float8 * ln((1 + s) / (1 - s)) / pi())) END"
        let xy = "SELECT lon, lat, t, id, lon / 360::float8 + 0.5::float8 AS x, \(y) AS y FROM (\(sine)) d" + fence
        return "SELECT k, " + (groupsValues ? "t AS tv, " : "") + "count(*) AS n, sum(x) AS sx, sum(y) AS sy, min(lon) AS lon0, max(lon) AS lon1, min(lat) AS lat, "
            + "min(id) AS id, min(y) AS y0, max(y) AS y1" + (hasTotal ? ", sum(t) AS tsum, min(t) AS tmin, max(t) AS tmax, count(t) AS tn" : "")
            + " FROM (SELECT lon, lat, t, id, x, y, (floor(y / \(cu)) * \(width) + floor(x / \(cu)))::int8 AS k FROM (\(xy)) e) f GROUP BY k"
    }

    /// Settings for the grid query's transaction: the planner takes every key for a group of its
    /// own (it can't know how few cells there are) and so sorts the rows, on disk; hashing the few
    /// cells is what fits (6.1 s sorted → 2.9 s hashed at 1M rows, session 14). More memory keeps
    /// the bitmap of a box's rows exact: with the default 4 MB a zoom-5 box of 371k rows went lossy
    /// and rechecked 3.4M rows (10M rows, load 11: 2.2 s → 1.3 s).
    static let gridSettings = [("enable_sort", "off"), ("work_mem", "64MB")]

    /// The rows of some cells (those with fewer points than make a cluster): lon, lat, t, id.
    func cellRowsSQL() -> String {
        let p = 5 + filterValues.count
        let cu = "$\(p)::float8", width = "$\(p + 1)::float8"
        return "SELECT lon, lat, t, id FROM (SELECT lon, lat, t, id, "
            + "LEAST(floor(GREATEST(x, 0::float8) / \(cu)), \(width) - 1)::int8 AS ix, "
            + "floor(GREATEST(y, 0::float8) / \(cu))::int8 AS iy FROM (\(rows)) r) c "
            + "WHERE (ix, iy) IN (SELECT * FROM unnest($\(p + 2)::int8[], $\(p + 3)::int8[]))"
    }
}
