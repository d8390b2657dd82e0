import ClusterCore

extension PostGISSource {
    /// The table's extent in WGS 84 from the planner's statistics (`ST_EstimatedExtent`: no scan,
    /// so instant at any size); nil without statistics (before `ANALYZE`), for a view, or empty.
    public func estimatedExtent() -> GeoBounds? {
        let sql = "SELECT ST_XMin(b), ST_YMin(b), ST_XMax(b), ST_YMax(b) FROM (SELECT ST_Transform(ST_SetSRID("
            + "ST_EstimatedExtent($1, $2, $3)::geometry, $4::int), 4326) AS b) AS s"
        guard let r = try? connection.query(sql, [table.schema, table.name, table.geometryColumn, String(table.srid)]),
              r.rowCount == 1, let w = r.double(0, 0), let s = r.double(0, 1), let e = r.double(0, 2), let n = r.double(0, 3),
              w.isFinite, s.isFinite, e.isFinite, n.isFinite, w <= e, s <= n else { return nil }
        return GeoBounds(west: max(-180, w), south: max(-90, s), east: min(180, e), north: min(90, n))
    }
}
