import Foundation

extension PostGISSource {
    /// The columns of the rows with these ids (the table's integer primary key), each as one JSON
    /// object without the geometry column: what a place's card shows. Empty without an id column.
    /// The ids go as one array parameter (never pasted into the SQL).
    public func rowProperties(ids: [Int64]) throws -> [Int64: String] {
        guard let idColumn = table.idColumn, !ids.isEmpty else { return [:] }
        let key = try connection.quoted(idColumn)
        // `to_jsonb(row) - 'geom'` drops the geometry by name; the id is read back as int8.
        let sql = "SELECT t.\(key)::int8, (to_jsonb(t) - $2::text)::text FROM \(table.sqlName) AS t "
            + "WHERE t.\(key) = ANY($1::int8[])"
        let r = try connection.query(sql, ["{" + ids.map(String.init).joined(separator: ",") + "}", table.geometryColumn])
        var out: [Int64: String] = [:]
        out.reserveCapacity(r.rowCount)
        for i in 0..<r.rowCount {
            if let id = r.integer(i, 0), let json = r.text(i, 1) { out[id] = json }
        }
        return out
    }
}
