/// A grid cell's rows per value, for a most-common total (`ViewSQL.valueGridSQL`): read from the
/// server's answer, rolled up only where exact, and the most common value with the tie rule.
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
