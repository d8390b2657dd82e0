import GeoData

/// What the time bar under the map needs from a table's date column (issue 31, SPEC §10): the
/// column, its first and last time (UTC seconds) and the rows per equal bin over them.
public struct PostGISTimeBarData: Equatable, Sendable {
    /// The date, timestamp or timestamptz column the bar reads.
    public var column: String
    /// The first and last time in the column (over every row with a geometry).
    public var extent: ClosedRange<Double>
    /// Rows per bin, oldest first.
    public var counts: [Int]
    /// The share of the table the counts were read from (percent; nil: every row). The extent is
    /// always exact.
    public var sampledPercent: Double?
}

extension PostGISColumnCatalogReader {
    /// The table's date and timestamp columns in the table's column order.
    public func dateColumns() throws -> [String] {
        try withConnection { c in try dateColumns(on: c) }
    }

    private func dateColumns(on c: PostgresConnection) throws -> [String] {
        let table = source.table
        let order = try c.query("SELECT attname::text FROM pg_attribute WHERE attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass "
                                + "AND attnum > 0 AND NOT attisdropped ORDER BY attnum", [table.schema, table.name])
        return (0..<order.rowCount).compactMap { r in
            guard let name = order.text(r, 0), let type = table.columns[name],
                  [.time, .localTime].contains(PostGISWhere.ColumnKind(type)) else { return nil }
            return name
        }
    }

    /// The time bar over `column` (nil: the table's first date column, as a file's bar takes its
    /// first date property) with `bins` bins: nil when the table has no date column or the column
    /// holds no dates. The bins are the file bar's (`PropertyColumn.histogram` over the column's
    /// range: the same float8 arithmetic, `histogram(_:lo:hi:…)`), so the bars look the same; the
    /// times are UTC seconds as the filter reads them (a `timestamp` or `date` as UTC wall-clock
    /// time). Above `sampleAbove` estimated rows the counts come from a `TABLESAMPLE` of about
    /// `sampleRows` rows scaled to the server's estimate ("about"); the extent is read exactly.
    /// - Throws: `PostGISError.badFilter` for a `column` the table lacks or that holds no dates.
    public func timeBar(column: String?, bins: Int = 120) throws -> PostGISTimeBarData? {
        try withConnection { c in
            let table = source.table
            let name: String
            if let column {
                guard let type = table.columns[column] else {
                    throw PostGISError.badFilter("--time '\(column)': table \(table.displayName) has no column '\(column)'")
                }
                guard [.time, .localTime].contains(PostGISWhere.ColumnKind(type)) else {
                    throw PostGISError.badFilter("--time '\(column)': column '\(column)' holds \(type), not dates")
                }
                name = column
            } else {
                guard let first = try dateColumns(on: c).first else { return nil }
                name = first
            }
            let sqlType = table.columns[name] ?? ""
            let q = try c.quoted(name)
            let value = PostGISWhere.ColumnKind(sqlType) == .time ? "extract(epoch FROM t.\(q))::float8" : "extract(epoch FROM t.\(q)::timestamp)::float8"
            let rowsWith = "t.\(table.geometrySQL) IS NOT NULL"
            let range = try c.query("SELECT min(\(value)), max(\(value)) FROM \(table.sqlName) AS t WHERE \(rowsWith)")
            guard let lo = range.double(0, 0), let hi = range.double(0, 1), lo.isFinite, hi.isFinite, lo <= hi else { return nil }

            let estimate = try rowEstimate(on: c)
            var percent: Double?
            if estimate > Double(sampleAbove) { percent = max(0.01, min(100, 100 * Double(sampleRows) / estimate)) }
            let from = "\(table.sqlName) AS t" + (percent == nil ? "" : " TABLESAMPLE SYSTEM ($1::float4) REPEATABLE (7)")
            let base: [String] = percent.map { ["\($0)"] } ?? []
            let plan = Plan(name: name, sqlType: sqlType, type: .date, quoted: q, value: value)
            var counts = try histogram(plan, lo: lo, hi: hi, bins: max(1, bins), on: c, from: from, base: base, rowsWith: rowsWith)
            if percent != nil {
                // Scaled to the server's estimate, as the panel's sampled counts are.
                let read = try c.query("SELECT count(*)::int8 FROM \(from)", base).integer(0, 0) ?? 0
                let scale = read > 0 ? estimate / Double(read) : 1
                counts = counts.map { Int((Double($0) * scale).rounded()) }
            }
            return PostGISTimeBarData(column: name, extent: lo...hi, counts: counts, sampledPercent: percent)
        }
    }
}
