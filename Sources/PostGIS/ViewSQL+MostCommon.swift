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
