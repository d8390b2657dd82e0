/// The grid query of a most-common total (`--total most-common:kind`): the cells per value, so the
/// app picks each cell's most common value and a roll-up sums the counts per cell and value.
///
/// Bounded: a column with very many different values (a name, a timestamp as text) would send
/// back about a row per point. Each cell keeps its `valuesPerCell` most common values (ties: the
/// value that sorts first byte by byte, as SQL `mode() WITHIN GROUP (ORDER BY v COLLATE "C")`
/// picks); its other values come back as one row per cell (`other`), so the answer holds at most
/// cells × (`valuesPerCell` + 2) rows. A cell's most common value is exact either way; only
/// summing cells whose lists were cut could miss a value, so such cells are never rolled up.
extension ViewSQL {
    /// Most values a cell keeps by name.
    static let valuesPerCell = 64

    /// Columns: k, n, sx, sy, lon0, lon1, lat, id, y0, y1 (as `gridSQL`), then tv (a value; NULL
    /// for the rows without one, and for the unlisted ones) and other (whether the row stands for
    /// the cell's unlisted values).
    func valueGridSQL() -> String {
        var perValue = self
        perValue.groupsValues = true
        // `gridSQL` ends with its `GROUP BY k`: each group is split by value (the most-common tests fail otherwise).
        let grouped = perValue.gridSQL() + ", t"
        let n = Self.valuesPerCell
        let ranked = "SELECT g.*, row_number() OVER (PARTITION BY k, tv IS NULL ORDER BY n DESC, tv COLLATE \"C\") AS r FROM (\(grouped)) g"
        return "SELECT k, sum(n)::int8 AS n, sum(sx) AS sx, sum(sy) AS sy, min(lon0) AS lon0, max(lon1) AS lon1, min(lat) AS lat, "
            + "min(id) AS id, min(y0) AS y0, max(y1) AS y1, CASE WHEN r <= \(n) THEN tv END AS tv, r > \(n) AS other "
            + "FROM (\(ranked)) h GROUP BY k, CASE WHEN r <= \(n) THEN tv END, r > \(n)"
    }
}

extension PostGISGridCell {
    /// The cells of `ViewSQL.valueGridSQL`'s answer: its rows of one key summed, the counts per value kept.
    static func valueCells(of r: PostgresResult, width: UInt64) -> [PostGISGridCell] {
        var byKey: [UInt64: Int] = [:]
        var cells: [PostGISGridCell] = []
        for i in 0..<r.rowCount {
            guard let k = r.integer(i, 0), k >= 0 else { continue }
            let key = UInt64(k), n = Int(r.integer(i, 1) ?? 0)
            var cell = PostGISGridCell(
                ix: key % width, iy: key / width, count: n, sumX: r.double(i, 2) ?? .nan, sumY: r.double(i, 3) ?? .nan,
                minLongitude: r.double(i, 4) ?? .nan, maxLongitude: r.double(i, 5) ?? .nan, minLatitude: r.double(i, 6) ?? .nan,
                id: r.integer(i, 7), minY: r.double(i, 8) ?? .nan, maxY: r.double(i, 9) ?? .nan, hasExtent: true,
                totalSum: nil, totalMin: nil, totalMax: nil, totalCount: nil, valueCounts: [:])
            if r.boolean(i, 11) == true {
                cell.unlistedValueCount = n
            } else if let value = r.text(i, 10) {
                cell.valueCounts = [value: n]
            }
            if let at = byKey[key] {
                cells[at].absorb(cell)
            } else {
                byKey[key] = cells.count
                cells.append(cell)
            }
        }
        return cells
    }

    /// `rolledUp`, or nil when that would not be exact: a most-common total's cells whose value
    /// lists were cut (a value beyond one cell's list could be the most common of their sum).
    static func exactlyRolledUp(_ cells: [PostGISGridCell], levels: Int) -> [PostGISGridCell]? {
        guard levels == 0 || !cells.contains(where: { $0.unlistedValueCount > 0 }) else { return nil }
        return rolledUp(cells, levels: levels)
    }

    /// The cell's most common value and its rows (ties: the value that sorts first byte by byte);
    /// nil when no row has a value.
    var mostCommon: (value: String, count: Int)? {
        guard let counts = valueCounts else { return nil }
        return PostGISGridCell.mostCommon(of: counts)
    }

    /// The most common of counted values (ties: the value whose UTF-8 bytes sort first, as
    /// PostgreSQL's "C" collation orders text); nil when empty.
    static func mostCommon(of counts: [String: Int]) -> (value: String, count: Int)? {
        var best: (value: String, count: Int)?
        for (value, n) in counts where n > 0 {
            if let b = best, n < b.count || (n == b.count && !value.utf8.lexicographicallyPrecedes(b.value.utf8)) { continue }
            best = (value, n)
        }
        return best
    }
}

extension PostGISItem {
    /// The item with a most-common total's value from its cell (unchanged without one).
    func withValues(of cell: PostGISGridCell) -> PostGISItem {
        guard let top = cell.mostCommon else { return self }
        var item = self
        item.mostCommon = top.value
        item.mostCommonCount = top.count
        return item
    }
}
