import ClusterCore

extension ViewSQL {
    /// The grid query with each row's cell found by `width_bucket` over `buckets`' thresholds (the
    /// app's own cell edges, see `PostGISCellBuckets`) instead of projecting the row: the same
    /// columns and cells as the arithmetic `gridSQL` (k, n, sx, sy, lon0, lon1, lat, id, y0, y1
    /// [, tsum, tmin, tmax, tn]), k NULL for invalid rows and cells outside the buckets' range.
    ///
    /// Per row only what can't be had per cell is computed: the cell (two binary searches, one
    /// int4), and the Mercator ordinate's transcendental part `atanh(sin φ)` (= ½·ln((1+s)/(1−s)),
    /// φ clamped to the square world's ±85.05°, where y is clamped to 0…1; the clamp also keeps
    /// ±∞ from `sin`, which refuses it) for Σy. Σx = Σlon/360 + n/2, Σy = n/2 − Σatanh/(2π) (the
    /// mean position within a few ulps of the app's Σ of projected points); the y range is the y
    /// of the extreme latitudes (y never grows with latitude), in the app's float8 operations as
    /// before. The rows' coordinates are read in a fenced step (`OFFSET NULL`, see `gridSQL`) so
    /// `ST_X`/`ST_Y` run once each; the cell and the sine need no further fence as each is used once.
    /// 10M rows, same minutes, 2 workers (load 6.6–8.5): 4.3–7.2 s (median 5.9) → 4.5–5.8 s (4.9).
    /// Parameters after the filters: cell unit, key width (as `gridSQL`; the thresholds are
    /// numbers made here, written into the text).
    func bucketGridSQL(_ buckets: PostGISCellBuckets) -> String {
        let p = 5 + filterValues.count
        let width = "$\(p + 1)::int8", fence = " OFFSET NULL"
        let computed = !table.hasPointGeometry || table.srid != 4326
        let read = "SELECT ST_X(p) AS lon, ST_Y(p) AS lat, t, id FROM (\(pointRows)\(computed ? fence : "")) a" + fence
        func array(_ v: [Double]) -> String { "'{" + v.map { "\($0)" }.joined(separator: ",") + "}'::float8[]" }
        let stride = buckets.rowStride, m = WebMercator.maxLatitude
        let bucket = "width_bucket(lat, \(array(buckets.latitudes))) * \(stride) + width_bucket(lon, \(array(buckets.longitudes)))"
        let atanh = "atanh(sin(GREATEST(LEAST(lat, \(m)::float8), -\(m)::float8) * (pi() / 180::float8)))"
        let rows = "SELECT lon, lat, t, id, \(bucket) AS k, \(atanh) AS a FROM (\(read)) r"
        // The cell of a bucket (PostGISCellBuckets.cell(bucket:)); GROUP BY k groups by the bucket
        // (an input column's name wins over an output one's in GROUP BY).
        let (ix0, iy1) = (Int64(buckets.ix.lowerBound), Int64(buckets.iy.upperBound))
        // The cell unit is not needed here (the thresholds hold it) but still typed: PostgreSQL
        // refuses a parameter it can't give a type.
        let key = "CASE WHEN $\(p)::float8 > 0 AND k / \(stride) BETWEEN 2 AND \(buckets.iy.count + 1) AND k % \(stride) BETWEEN 2 AND \(buckets.ix.count + 1) "
            + "THEN (\(iy1 + 2) - k / \(stride))::int8 * \(width) + (\(ix0 - 2) + k % \(stride)) END"
        func y(_ lat: String) -> String {
            "CASE WHEN \(lat) >= 90 THEN 0::float8 WHEN \(lat) <= -90 THEN 1::float8 ELSE GREATEST(0::float8, LEAST(1::float8, "
                + "0.5::float8 - 0.25::float8 * ln((1 + sin(\(lat) * pi() / 180::float8)) / (1 - sin(\(lat) * pi() / 180::float8))) / pi())) END"
        }
        return "SELECT \(key) AS k, " + (groupsValues ? "t AS tv, " : "") + "count(*) AS n, sum(lon) / 360::float8 + 0.5::float8 * count(*) AS sx, "
            + "0.5::float8 * count(*) - sum(a) / (2 * pi()) AS sy, min(lon) AS lon0, max(lon) AS lon1, min(lat) AS lat, "
            + "min(id) AS id, \(y("max(lat)")) AS y0, \(y("min(lat)")) AS y1"
            + (hasTotal ? ", sum(t) AS tsum, min(t) AS tmin, max(t) AS tmax, count(t) AS tn" : "")
            + " FROM (\(rows)) f GROUP BY k"
    }
}

extension ViewSQL {
    /// This query with its grid cells found by the app's cell edges of keys `ix` × `iy` (when the
    /// options allow and the range isn't too wide for thresholds), else unchanged.
    func bucketed(_ o: PostGISViewOptions, unit: Double, width: UInt64, ix: ClosedRange<UInt64>, iy: ClosedRange<UInt64>) -> ViewSQL {
        var sql = self
        sql.cellBuckets = o.findsCellsByEdges ? PostGISCellBuckets(unit: unit, width: width, ix: ix, iy: iy) : nil
        return sql
    }
}
