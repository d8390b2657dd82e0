import Foundation
import GeoData

/// Reads a table's `PostGISColumnCatalog` and counts the rows a filter passes, on a connection of
/// its own (so the map's view queries never wait behind it) with the source's statement timeout.
/// Call from one background thread at a time; `cancel()` from any thread.
///
/// The queries, for every row with a geometry: one pass for the row count, each column's count
/// of values and each number's or date's min/max; then per text or boolean column a bounded
/// `GROUP BY … ORDER BY count DESC LIMIT bound+1` (more groups than the bound: free text — skipped
/// when `pg_stats.n_distinct` says far more already); then per number or date one histogram
/// `GROUP BY` on its bin. Identifiers are quoted, every value (bounds, limits, the sample share,
/// filter values) is a parameter.
public final class PostGISColumnCatalogReader: @unchecked Sendable {
    /// The source whose table is read (its address and password open the connection).
    public let source: PostGISSource
    /// Tables the server estimates above this many rows are read from a sample of their pages.
    public var sampleAbove = 1_000_000
    /// About how many rows the sample holds.
    public var sampleRows = 250_000
    private let statementTimeoutMilliseconds: Int
    private let lock = NSLock()
    private var connection: PostgresConnection?

    /// A reader for `source`'s table; `statementTimeoutMilliseconds` > 0 bounds each query.
    public init(source: PostGISSource, statementTimeoutMilliseconds: Int = 0) {
        self.source = source
        self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
    }

    /// Stops the query running now (it throws `PostGISError.cancelled`).
    public func cancel() { lock.withLock { connection }?.cancel() }

    /// Runs `body` on the reader's connection (opened on first use, again after a lost server).
    func withConnection<T>(_ body: (PostgresConnection) throws -> T) throws -> T {
        let c: PostgresConnection
        if let open = lock.withLock({ connection }), open.isConnected {
            c = open
        } else {
            c = try PostgresConnection(uri: source.address.connectionURI, password: source.password)
            if statementTimeoutMilliseconds > 0 { try c.setStatementTimeout(milliseconds: statementTimeoutMilliseconds) }
            lock.withLock { connection = c }
        }
        return try body(c)
    }

    /// How many rows with a geometry pass `filter` (all of them for nil), counted exactly.
    public func count(where filter: PostGISWhere?) throws -> Int {
        try withConnection { c in
            let table = source.table
            var sql = "SELECT count(*)::int8 FROM \(table.sqlName) WHERE \(table.geometrySQL) IS NOT NULL"
            var values: [String] = []
            if let filter {
                let f = try filter.sql(table: table, quote: c.quoted, firstParameter: 1)
                sql += " AND " + f.sql
                values = f.values
            }
            return Int(try c.query(sql, values).integer(0, 0) ?? 0)
        }
    }

    /// The table's rows with a geometry: counted exactly, or — above `sampleAbove` rows — the
    /// server's estimate from its statistics (`reltuples`, no scan).
    public func placeCount() throws -> (count: Int, isEstimate: Bool) {
        let estimate = try withConnection { c in try rowEstimate(on: c) }
        if estimate > Double(sampleAbove) { return (Int(estimate.rounded()), true) }
        return (try count(where: nil), false)
    }

    /// The server's row estimate (-1 before the table was ever analysed).
    func rowEstimate(on c: PostgresConnection) throws -> Double {
        try c.query("SELECT reltuples::float8 FROM pg_class WHERE oid = (quote_ident($1) || '.' || quote_ident($2))::regclass",
                    [source.table.schema, source.table.name]).double(0, 0) ?? -1
    }

    /// The catalogue with `bins` histogram bars; `types` may read a text column as a category or
    /// as free text (other choices keep the column's own type: the server compares by it).
    public func catalog(bins: Int = 24, types: [String: PropertyType] = [:]) throws -> PostGISColumnCatalog {
        try withConnection { c in try read(on: c, bins: max(1, bins), types: types) }
    }

    struct Plan {
        var name: String, sqlType: String, type: PropertyType, quoted: String
        /// The value as float8 for numbers and dates (NaN as NULL), else the column itself.
        var value: String
    }

    private func read(on c: PostgresConnection, bins: Int, types: [String: PropertyType]) throws -> PostGISColumnCatalog {
        let table = source.table
        let order = try c.query("SELECT attname::text FROM pg_attribute WHERE attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass "
                                + "AND attnum > 0 AND NOT attisdropped ORDER BY attnum", [table.schema, table.name])
        var plans: [Plan] = []
        for r in 0..<order.rowCount {
            guard let name = order.text(r, 0), name != table.geometryColumn, let sqlType = table.columns[name],
                  let type = PostGISColumnCatalog.baseType(ofSQLType: sqlType) else { continue }
            let q = try c.quoted(name)
            let value: String
            switch PostGISWhere.ColumnKind(sqlType) {
            case .number: value = "NULLIF(t.\(q)::float8, 'NaN'::float8)"
            case .time: value = "extract(epoch FROM t.\(q))::float8"
            case .localTime: value = "extract(epoch FROM t.\(q)::timestamp)::float8"
            case .boolean, .text: value = "t.\(q)"
            }
            plans.append(Plan(name: name, sqlType: sqlType, type: type, quoted: q, value: value))
        }

        // A big table is read from a sample of its pages (its row estimate says how big).
        let estimate = try rowEstimate(on: c)
        var percent: Double?
        if estimate > Double(sampleAbove) { percent = max(0.01, min(100, 100 * Double(sampleRows) / estimate)) }
        // Parameter $1 is the sample share when sampling; the others follow it.
        let from = "\(table.sqlName) AS t" + (percent == nil ? "" : " TABLESAMPLE SYSTEM ($1::float4) REPEATABLE (7)")
        let base: [String] = percent.map { ["\($0)"] } ?? []
        let rowsWith = "t.\(table.geometrySQL) IS NOT NULL"

        // One pass: the rows read, those with a geometry, each column's values, numbers' and
        // dates' ranges.
        var select = ["count(*)::int8", "count(*) FILTER (WHERE \(rowsWith))::int8"]
        for p in plans {
            select.append("count(\(p.value)) FILTER (WHERE \(rowsWith))::int8")
            if p.type == .number || p.type == .date {
                select += ["min(\(p.value)) FILTER (WHERE \(rowsWith))", "max(\(p.value)) FILTER (WHERE \(rowsWith))"]
            }
        }
        let summary = try c.query("SELECT \(select.joined(separator: ", ")) FROM \(from)", base)
        // A sample's counts scale to the server's row estimate (the pages sampled hold more or
        // fewer rows than their share): the panel's counts then agree with the "about M" shown.
        let read = Double(summary.integer(0, 0) ?? 0)
        let scale = percent == nil || read == 0 ? 1 : estimate / read
        func scaled(_ n: Int64?) -> Int { Int((Double(n ?? 0) * scale).rounded()) }
        let rows = scaled(summary.integer(0, 1))
        var columns: [PostGISColumnCatalog.Column] = []
        var k = 2
        let distinct = try distinctEstimates(on: c)
        // A sampled table's categories are counted over every row, in one scan for all of them:
        // a value the sample missed would be left out of the checklist — and so out of the map
        // as soon as another value is unticked (the condition lists the ticked values).
        var exact: [String: [PostGISColumnCatalog.ValueCount]] = [:]
        if percent != nil {
            let candidates = plans.filter { p in
                p.type == .boolean || (p.type == .text && types[p.name] != .text
                    && distinct[p.name].map { $0 <= Double(2 * PropertyTable.categoryLimit) } == true)
            }
            exact = try exactValueCounts(candidates, on: c, rowsWith: rowsWith)
        }
        for p in plans {
            let present = scaled(summary.integer(0, k))
            k += 1
            var column = PostGISColumnCatalog.Column(name: p.name, type: p.type, inferred: p.type, present: present,
                                                     missing: max(0, rows - present))
            switch p.type {
            case .number, .date:
                let lo = summary.double(0, k), hi = summary.double(0, k + 1)
                k += 2
                guard let lo, let hi, lo.isFinite, hi.isFinite, lo <= hi else { break }
                column.range = lo...hi
                column.histogram = try histogram(p, lo: lo, hi: hi, bins: bins, on: c, from: from, base: base, rowsWith: rowsWith)
                    .map { scaled(Int64($0)) }
            case .boolean:
                column.values = try exact[p.name] ?? valueCounts(p, limit: 3, on: c, from: from, base: base, rowsWith: rowsWith).values
                    .map { .init($0.text, scaled(Int64($0.count))) }
            case .text, .category:
                // As the in-process inference: a category has at most 1,000 distinct values, and at
                // most max(20, present / 20).
                let bound = min(PropertyTable.categoryLimit, max(20, present / 20))
                let wanted = types[p.name]
                if wanted == .text { break }
                if let all = exact[p.name] {
                    if all.count > bound && wanted != .category { break }
                    column.type = .category
                    column.values = Array(all.prefix(PropertyTable.categoryLimit))
                    break
                }
                if wanted != .category, let d = distinct[p.name], d > Double(2 * bound) { break }
                let (values, more) = try valueCounts(p, limit: wanted == .category ? PropertyTable.categoryLimit : bound + 1,
                                                     on: c, from: from, base: base, rowsWith: rowsWith)
                if more && wanted != .category { break }
                column.type = .category
                column.values = values.map { .init($0.text, scaled(Int64($0.count))) }
            }
            column.inferred = column.type  // the window says which type a person's choice replaced
            columns.append(column)
        }
        return PostGISColumnCatalog(columns: columns, rowCount: rows, sampledPercent: percent)
    }

    /// Every value of each column in `plans` with its count over all the table's rows (one
    /// `GROUPING SETS` scan), most common first, ties in code-point order; NULLs left out.
    private func exactValueCounts(_ plans: [Plan], on c: PostgresConnection,
                                  rowsWith: String) throws -> [String: [PostGISColumnCatalog.ValueCount]] {
        guard !plans.isEmpty else { return [:] }
        let n = plans.count
        let sql = "SELECT " + plans.map { "GROUPING(\($0.value))" }.joined(separator: ", ") + ", "
            + plans.map { "(\($0.value))::text" }.joined(separator: ", ") + ", count(*)::int8 FROM \(source.table.sqlName) AS t "
            + "WHERE \(rowsWith) GROUP BY GROUPING SETS (" + plans.map { "(\($0.value))" }.joined(separator: ", ") + ")"
        let r = try c.query(sql)
        var out: [String: [PostGISColumnCatalog.ValueCount]] = [:]
        for p in plans { out[p.name] = [] }
        for i in 0..<r.rowCount {
            // The row's own column is the one grouped (GROUPING 0); a NULL value is no value.
            guard let k = (0..<n).first(where: { r.integer(i, $0) == 0 }), let text = r.text(i, n + k) else { continue }
            out[plans[k].name, default: []].append(.init(text, Int(r.integer(i, 2 * n) ?? 0)))
        }
        func codePoints(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }
        for (name, values) in out {
            out[name] = values.sorted { $0.count != $1.count ? $0.count > $1.count : codePoints($0.text).lexicographicallyPrecedes(codePoints($1.text)) }
        }
        return out
    }

    /// The server's estimate of distinct values per column (after ANALYZE; absent before).
    private func distinctEstimates(on c: PostgresConnection) throws -> [String: Double] {
        let table = source.table
        let r = try c.query("SELECT s.attname::text, (CASE WHEN s.n_distinct >= 0 THEN s.n_distinct "
                            + "ELSE -s.n_distinct * GREATEST(k.reltuples, 0) END)::float8 FROM pg_stats s "
                            + "JOIN pg_class k ON k.oid = (quote_ident($1) || '.' || quote_ident($2))::regclass "
                            + "WHERE s.schemaname = $1 AND s.tablename = $2", [table.schema, table.name])
        var out: [String: Double] = [:]
        for i in 0..<r.rowCount { if let n = r.text(i, 0), let d = r.double(i, 1) { out[n] = d } }
        return out
    }

    /// A column's most common values (at most `limit`, count order, ties in code-point order) and
    /// whether there were more.
    private func valueCounts(_ p: Plan, limit: Int, on c: PostgresConnection, from: String, base: [String],
                             rowsWith: String) throws -> (values: [PostGISColumnCatalog.ValueCount], more: Bool) {
        let n = base.count
        let r = try c.query("SELECT (\(p.value))::text COLLATE \"C\" AS v, count(*)::int8 FROM \(from) "
                            + "WHERE \(rowsWith) AND \(p.value) IS NOT NULL GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT $\(n + 1)::int8",
                            base + [String(limit + 1)])
        var out: [PostGISColumnCatalog.ValueCount] = []
        for i in 0..<min(limit, r.rowCount) { out.append(.init(r.text(i, 0) ?? "", Int(r.integer(i, 1) ?? 0))) }
        return (out, r.rowCount > limit)
    }

    /// Counts in `bins` equal bins over lo…hi, in one `GROUP BY` on the bin number. The bin is
    /// worked out with the same float8 operations as `PropertyColumn.histogram` ((v − lo) / width ×
    /// bins, truncated, the top end in the last bin), so a value on a bin's edge lands where the
    /// in-process panel puts it (`width_bucket` rounds those differently).
    func histogram(_ p: Plan, lo: Double, hi: Double, bins: Int, on c: PostgresConnection, from: String, base: [String],
                           rowsWith: String) throws -> [Int] {
        var out = [Int](repeating: 0, count: bins)
        let n = base.count
        let loP = "$\(n + 1)::float8", hiP = "$\(n + 2)::float8", binsP = "$\(n + 3)::int4"
        let bin = hi > lo ? "LEAST(GREATEST(trunc((\(p.value) - \(loP)) / (\(hiP) - \(loP)) * \(binsP)::float8)::int4, 0), \(binsP) - 1)" : "0"
        let r = try c.query("SELECT \(bin) AS b, count(*)::int8 FROM \(from) WHERE \(rowsWith) AND \(p.value) IS NOT NULL "
                            + "AND \(p.value) >= \(loP) AND \(p.value) <= \(hiP) GROUP BY 1",
                            base + ["\(lo)", "\(hi)", String(bins)])
        for i in 0..<r.rowCount {
            if let b = r.integer(i, 0), b >= 0, Int(b) < bins { out[Int(b)] += Int(r.integer(i, 1) ?? 0) }
        }
        return out
    }
}
