import ClusterCore

/// The grid clusterer's cells of a key range as latitude and longitude thresholds, so the server
/// finds a point's cell with two `width_bucket` binary searches instead of projecting it.
///
/// A cell's row depends only on the latitude and never grows with it (y runs south), its column
/// only on the longitude and never shrinks with it; so each row and column is an interval of
/// latitude or longitude. Its edges are found here by bisection over the Double values, with the
/// very formulas `GridClusterer` uses (`WebMercator.y`, `x`, its `cellKey` clamps): a latitude
/// on either side of an edge gets the same row as in the app, bit for bit, whatever the server's
/// own `sin` and `ln` would round to. Measured on 10M rows (one process, backend CPU): projecting
/// every row and `floor(y / cu)` 4.6–5.4 s against 3.9–4.8 s with the thresholds (the mean y then
/// comes from `atanh(sin φ)`, the y range from the extreme latitudes: `ViewSQL+Buckets`).
///
/// Buckets (`width_bucket`: how many thresholds are ≤ the value; NaN above all): below −90° or
/// −180° (invalid), then the rows/columns before the range, each row/column of the range in
/// order, the ones after it, and beyond 90° or 180° or NaN (invalid). Only the range's buckets
/// map to a cell; the rest are left out as the app leaves out invalid points and cells outside.
struct PostGISCellBuckets: Sendable, Equatable {
    /// The key range (columns, rows) whose cells the buckets name.
    let ix: ClosedRange<UInt64>
    let iy: ClosedRange<UInt64>
    /// Ascending latitudes: −90, then for rows iy.upper … iy.lower − 1 the first latitude whose row
    /// is at most that row, then the next Double after 90.
    let latitudes: [Double]
    /// Ascending longitudes: −180, then for columns ix.lower … ix.upper + 1 the first longitude whose
    /// column is at least that column, then the next Double after 180.
    let longitudes: [Double]

    /// Most rows or columns thresholds are made for (beyond, the key is computed by arithmetic): a
    /// view at 64-px cells has a few dozen; a whole world at zoom 11 has 8,192.
    static let maxSide: UInt64 = 4096

    /// The thresholds of cells `ix` × `iy` of a zoom's grid (unit side `unit`, key width `width`),
    /// or nil when the range is wider than `maxSide` or empty.
    init?(unit: Double, width: UInt64, ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>) {
        guard unit > 0, width > 0, UInt64(ix.count) <= Self.maxSide, UInt64(iy.count) <= Self.maxSide else { return nil }
        self.ix = ix
        self.iy = iy
        var lat: [Double] = [-90]
        // Row r holds the latitudes from the first one whose row is ≤ r up to the first one whose
        // row is ≤ r − 1; rows below the range (larger iy) are all below the first threshold.
        for r in Swift.stride(from: Int64(iy.upperBound), through: Int64(iy.lowerBound) - 1, by: -1) {
            lat.append(r < 0 ? Self.aboveNorth : Self.firstDouble(from: -90, to: 90) { Int64(Self.row(latitude: $0, unit: unit)) <= r }
                       ?? Self.aboveNorth)
        }
        lat.append(Self.aboveNorth)
        var lon: [Double] = [-180]
        for q in ix.lowerBound...(ix.upperBound + 1) {
            lon.append(Self.firstDouble(from: -180, to: 180) { Self.column(longitude: $0, unit: unit, width: width) >= q } ?? Self.beyondEast)
        }
        lon.append(Self.beyondEast)
        latitudes = lat
        longitudes = lon
    }

    static let aboveNorth = Double(90).nextUp
    static let beyondEast = Double(180).nextUp

    /// `GridClusterer.cellKey`'s row of a valid latitude.
    static func row(latitude: Double, unit: Double) -> UInt64 {
        let y = WebMercator.y(latitude: latitude)
        return y > 0 ? UInt64(y / unit) : 0
    }

    /// `GridClusterer.cellKey`'s column of a valid longitude.
    static func column(longitude: Double, unit: Double, width: UInt64) -> UInt64 {
        let x = WebMercator.x(longitude: longitude)
        return min(x > 0 ? UInt64(x / unit) : 0, width - 1)
    }

    /// The first Double in `low…high` (finite, low ≤ high) where `holds` becomes true, given it
    /// never turns false again after that; nil when it holds nowhere in the interval.
    static func firstDouble(from low: Double, to high: Double, where holds: (Double) -> Bool) -> Double? {
        if holds(low) { return low }
        guard holds(high) else { return nil }
        // Doubles in order as integers (−0 and +0 the same): bisect on those, ~64 steps.
        func order(_ v: Double) -> Int64 { v < 0 ? -Int64(bitPattern: (-v).bitPattern) : Int64(bitPattern: v.bitPattern) }
        func value(_ o: Int64) -> Double { o < 0 ? -Double(bitPattern: UInt64(-o)) : Double(bitPattern: UInt64(o)) }
        var no = order(low), yes = order(high)
        while no < yes - 1 {
            // The floor of their mean without overflow (−90…90 spans more than Int64.max).
            let mid = (no >> 1) + (yes >> 1) + (no & yes & 1)
            if holds(value(mid)) { yes = mid } else { no = mid }
        }
        return value(yes)
    }

    /// What PostgreSQL's `width_bucket(v, thresholds)` answers: how many thresholds are ≤ v (its
    /// binary search; NaN sorts above every number).
    static func bucket(_ v: Double, _ thresholds: [Double]) -> Int {
        var low = 0, high = thresholds.count
        while low < high {
            let mid = (low + high) / 2
            if !v.isNaN && v < thresholds[mid] { high = mid } else { low = mid + 1 }
        }
        return low
    }

    /// Longitude buckets per latitude bucket in the combined bucket number.
    var rowStride: Int { longitudes.count + 1 }

    /// The cell of a combined bucket number (latitude bucket × `rowStride` + longitude bucket), as the
    /// SQL maps it; nil for invalid points and cells outside the range.
    func cell(bucket: Int) -> (ix: UInt64, iy: UInt64)? {
        let b = bucket / rowStride, a = bucket % rowStride
        guard b >= 2, b <= iy.count + 1, a >= 2, a <= ix.count + 1 else { return nil }
        return (ix.lowerBound + UInt64(a - 2), iy.upperBound + 2 - UInt64(b))
    }

    /// The cell of a point by the thresholds alone (what the server computes), for tests.
    func cell(latitude: Double, longitude: Double) -> (ix: UInt64, iy: UInt64)? {
        cell(bucket: Self.bucket(latitude, latitudes) * rowStride + Self.bucket(longitude, longitudes))
    }
}
