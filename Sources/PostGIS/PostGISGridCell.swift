import ClusterCore

/// One grid cell's aggregates, as the server counted them or as summed from the cells of a finer
/// zoom that nest in it (`rolledUp`). Enough to draw the cell exactly as `GridClusterer` does:
/// the count, the mean position (Σx, Σy), the lone point (min lon/lat/id: exact when it holds one
/// point), the x and y range (the zoom it splits at) and the total's sum/min/max.
struct PostGISGridCell: Sendable, Equatable {
    var ix: UInt64
    var iy: UInt64
    var count: Int
    var sumX: Double
    var sumY: Double
    var minLongitude: Double
    var maxLongitude: Double
    var minLatitude: Double
    var id: Int64?
    var minY: Double
    var maxY: Double
    /// Whether the x and y range are known (a pyramid keeps no range).
    var hasExtent: Bool
    var totalSum: Double?
    var totalMin: Double?
    var totalMax: Double?
    /// Rows with a value in the total column (`count(t)`: the mean's divisor).
    var totalCount: Int?
    /// With a most-common total: rows per value (the cell's most common ones, `ViewSQL.valuesPerCell`
    /// at most) and the rows whose value is not listed (more values than that in the cell).
    var valueCounts: [String: Int]? = nil
    var unlistedValueCount = 0

    /// The cell's unit x range: x is monotone in the longitude, so the extremes' x are exact.
    var xRange: (Double, Double) { (WebMercator.x(longitude: minLongitude), WebMercator.x(longitude: maxLongitude)) }

    /// Adds a cell's points (another cell of the same key, or a finer cell inside this one).
    mutating func absorb(_ o: PostGISGridCell) {
        count += o.count
        sumX += o.sumX
        sumY += o.sumY
        minLongitude = min(minLongitude, o.minLongitude)
        maxLongitude = max(maxLongitude, o.maxLongitude)
        minLatitude = min(minLatitude, o.minLatitude)
        id = [id, o.id].compactMap { $0 }.min()
        minY = min(minY, o.minY)
        maxY = max(maxY, o.maxY)
        hasExtent = hasExtent && o.hasExtent
        totalSum = o.totalSum.map { (totalSum ?? 0) + $0 } ?? totalSum
        totalMin = [totalMin, o.totalMin].compactMap { $0 }.min()
        totalMax = [totalMax, o.totalMax].compactMap { $0 }.max()
        totalCount = o.totalCount.map { (totalCount ?? 0) + $0 } ?? totalCount
        if let v = o.valueCounts { valueCounts = (valueCounts ?? [:]).merging(v, uniquingKeysWith: +) }
        unlistedValueCount += o.unlistedValueCount
    }

    /// The cells `levels` zooms up: a cell there holds the 2^levels × 2^levels cells whose keys
    /// shifted right by `levels` are its own — exact when the cell units nest (each one exactly
    /// 2^levels times the finer one: then `floor(x / cu)` one zoom up is the finer key halved).
    /// Ordered by key (row by row).
    static func rolledUp(_ cells: [PostGISGridCell], levels: Int) -> [PostGISGridCell] {
        guard levels > 0 else { return cells }
        var byKey: [UInt64: Int] = [:]
        var result: [PostGISGridCell] = []
        for c in cells {
            let ix = c.ix >> UInt64(levels), iy = c.iy >> UInt64(levels)
            let key = iy << 32 | ix
            if let i = byKey[key] {
                result[i].absorb(c)
            } else {
                byKey[key] = result.count
                var up = c
                up.ix = ix
                up.iy = iy
                result.append(up)
            }
        }
        return result.sorted { ($0.iy, $0.ix) < ($1.iy, $1.ix) }
    }

    /// The cells of a grid query's answer (`ViewSQL.gridSQL`: k, n, sx, sy, lon0, lon1, lat, id, y0,
    /// y1[, tsum, tmin, tmax, tn]); rows without a valid point (NULL key) are left out.
    static func cells(of r: PostgresResult, width: UInt64) -> [PostGISGridCell] {
        // A most-common total's cells come per value (`ViewSQL.valueGridSQL`).
        if r.columnCount > 10, r.name(ofColumn: 10) == "tv" { return valueCells(of: r, width: width) }
        var cells: [PostGISGridCell] = []
        cells.reserveCapacity(r.rowCount)
        let hasTotal = r.columnCount >= 13
        for i in 0..<r.rowCount {
            guard let k = r.integer(i, 0), k >= 0 else { continue }
            let key = UInt64(k)
            cells.append(PostGISGridCell(
                ix: key % width, iy: key / width, count: Int(r.integer(i, 1) ?? 0), sumX: r.double(i, 2) ?? .nan,
                sumY: r.double(i, 3) ?? .nan, minLongitude: r.double(i, 4) ?? .nan, maxLongitude: r.double(i, 5) ?? .nan,
                minLatitude: r.double(i, 6) ?? .nan, id: r.integer(i, 7), minY: r.double(i, 8) ?? .nan, maxY: r.double(i, 9) ?? .nan,
                hasExtent: true, totalSum: hasTotal ? r.double(i, 10) : nil, totalMin: hasTotal ? r.double(i, 11) : nil,
                totalMax: hasTotal ? r.double(i, 12) : nil, totalCount: r.columnCount >= 14 ? r.integer(i, 13).map { Int($0) } : nil))
        }
        return cells
    }

    /// The cells of a pyramid query (`PostGISPyramid.cellsSQL`: ix, iy, n, sx, sy, lon, lat, id[, tn, tsum,
    /// tmin, tmax]; no range).
    static func pyramidCells(of r: PostgresResult) -> [PostGISGridCell] {
        let hasTotal = r.columnCount >= 12
        return (0..<r.rowCount).map { i in
            let lon = r.double(i, 5) ?? .nan
            return PostGISGridCell(ix: UInt64(r.integer(i, 0) ?? 0), iy: UInt64(r.integer(i, 1) ?? 0), count: Int(r.integer(i, 2) ?? 0),
                                   sumX: r.double(i, 3) ?? .nan, sumY: r.double(i, 4) ?? .nan, minLongitude: lon, maxLongitude: lon,
                                   minLatitude: r.double(i, 6) ?? .nan, id: r.integer(i, 7), minY: .nan, maxY: .nan, hasExtent: false,
                                   totalSum: hasTotal ? r.double(i, 9) : nil, totalMin: hasTotal ? r.double(i, 10) : nil,
                                   totalMax: hasTotal ? r.double(i, 11) : nil, totalCount: hasTotal ? r.integer(i, 8).map { Int($0) } : nil)
        }
    }
}
