/// A table as the queries need it: quoted names, the geometry column, its SRID and whether its
/// geometries are points (others are shown at a point on them, `ST_PointOnSurface`).
public struct PostGISTable: Sendable, Equatable {
    /// `schema.table` for messages.
    public let displayName: String
    /// The table's schema and name (unquoted).
    public let schema: String
    public let name: String
    /// The quoted, qualified name for SQL.
    public let sqlName: String
    /// The geometry column's name and quoted form.
    public let geometryColumn: String
    let geometrySQL: String
    /// The column's SRID (4326 when undeclared, 0).
    public let srid: Int
    /// The declared geometry type (`POINT`, `MULTIPOLYGON`, `GEOMETRY`…).
    public let geometryType: String
    /// Columns and their types (for filters and totals).
    public let columns: [String: String]
    /// The column that names a row (a point's stable id): the single-column primary key of any
    /// type, else a single-column unique index on a NOT NULL column; nil without either.
    public let idColumn: String?
    /// Whether `idColumn` is an integer (the id is the key itself; else a 64-bit hash of its text,
    /// `rowIDSQL`, and a row is found again by its point and that hash).
    public var keyIsInteger: Bool { idColumn.map { ["smallint", "integer", "bigint"].contains(columns[$0] ?? "") } ?? false }

    /// Whether every geometry is a point (else a point on each is used).
    public var hasPointGeometry: Bool { geometryType == "POINT" }

    /// Looks the table up in `geometry_columns` (the named column, or the only/first one).
    public static func discover(_ address: PostGISAddress, on connection: PostgresConnection) throws -> PostGISTable {
        let schemaSQL = "COALESCE($1, (SELECT n.nspname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            + "WHERE c.oid = to_regclass(quote_ident($2))))"
        let exists = try connection.query("SELECT \(schemaSQL), to_regclass(quote_ident(\(schemaSQL)) || '.' || quote_ident($2)) IS NOT NULL",
                                          [address.schema, address.table])
        guard exists.rowCount == 1, let schema = exists.text(0, 0), exists.integer(0, 1) == 1 else {
            throw PostGISError.noSuchTable(address.qualifiedName)
        }
        let display = "\(schema).\(address.table)"
        let allowed = try connection.query("SELECT has_table_privilege((quote_ident($1) || '.' || quote_ident($2))::regclass, 'SELECT')",
                                           [schema, address.table])
        guard allowed.integer(0, 0) == 1 else { throw PostGISError.notAllowed(display) }
        let columnRows = try connection.query(
            "SELECT attname::text, format_type(atttypid, atttypmod) FROM pg_attribute "
                + "WHERE attrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum",
            [schema, address.table])
        var columns: [String: String] = [:]
        for r in 0..<columnRows.rowCount { columns[columnRows.text(r, 0) ?? ""] = columnRows.text(r, 1) ?? "" }
        let geo = try connection.query(
            "SELECT f_geometry_column::text, srid, upper(type) FROM geometry_columns "
                + "WHERE f_table_schema = $1 AND f_table_name = $2 AND ($3::text IS NULL OR f_geometry_column = $3) "
                + "ORDER BY f_geometry_column", [schema, address.table, address.geometryColumn])
        guard geo.rowCount > 0, let column = geo.text(0, 0) else {
            if let named = address.geometryColumn {
                let what = columns[named].map { "column \(named) is \($0), not a geometry" } ?? "no column \(named)"
                throw PostGISError.noGeometryColumn(table: display, detail: what)
            }
            throw PostGISError.noGeometryColumn(table: display, detail: "none is listed in geometry_columns")
        }
        let srid = Int(geo.integer(0, 1) ?? 0)
        let idColumn = try keyColumn(schema: schema, table: address.table, on: connection)
        return PostGISTable(displayName: display, schema: schema, name: address.table,
                            sqlName: try connection.quoted(schema) + "." + connection.quoted(address.table),
                            geometryColumn: column, geometrySQL: try connection.quoted(column),
                            srid: srid == 0 ? 4326 : srid, geometryType: geo.text(0, 2) ?? "GEOMETRY", columns: columns,
                            idColumn: idColumn)
    }

    /// The column naming a row: the primary key when it is one column, else the first single
    /// column with a unique, whole (not partial), non-expression index and NOT NULL; nil without.
    static func keyColumn(schema: String, table: String, on connection: PostgresConnection) throws -> String? {
        let r = try connection.query(
            "SELECT a.attname::text, i.indisprimary FROM pg_index i JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0] "
                + "WHERE i.indrelid = (quote_ident($1) || '.' || quote_ident($2))::regclass AND i.indisunique AND i.indnatts = 1 "
                + "AND i.indpred IS NULL AND i.indexprs IS NULL AND i.indisvalid AND (i.indisprimary OR a.attnotnull) "
                + "ORDER BY i.indisprimary DESC, a.attnum", [schema, table])
        // (A primary key of several columns has indnatts > 1: a lone unique column names the row then.)
        return r.rowCount > 0 ? r.text(0, 0) : nil
    }

    /// SQL for a row's id (`id` of the view queries) from its quoted key column: an integer key
    /// itself, any other its text's 64-bit hash (`hashtextextended`, PostgreSQL 11+).
    func rowIDSQL(quotedKey key: String) -> String {
        keyIsInteger ? "(\(key))::int8" : "hashtextextended((\(key))::text, 0)"
    }

    /// SQL for the point a row is shown at, in WGS 84.
    var pointSQL: String {
        var p = hasPointGeometry ? geometrySQL : "ST_PointOnSurface(\(geometrySQL))"
        if srid != 4326 { p = "ST_Transform(\(p), 4326)" }
        return p
    }

    /// SQL for the index-friendly box test against a WGS 84 envelope given as parameters
    /// `$w…$n` (their numbers).
    func boxSQL(_ w: Int, _ s: Int, _ e: Int, _ n: Int) -> String {
        let envelope = "ST_MakeEnvelope($\(w), $\(s), $\(e), $\(n), 4326)"
        return "\(geometrySQL) && " + (srid == 4326 ? envelope : "ST_Transform(\(envelope), \(srid))")
    }
}
