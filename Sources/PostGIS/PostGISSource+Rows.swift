import Foundation

extension PostGISSource {
    /// The columns of the rows with these ids (the table's integer primary key), each as one JSON
    /// object without the geometry column: what a place's card shows. Empty without an id column.
    /// The ids go as one array parameter (never pasted into the SQL).
    public func rowProperties(ids: [Int64]) throws -> [Int64: String] {
        try Self.rowProperties(ids: ids, of: table, on: connection)
    }

    static func rowProperties(ids: [Int64], of table: PostGISTable, on connection: PostgresConnection) throws -> [Int64: String] {
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

    /// A reader of single places' columns on a connection of its own, for a card opened on a
    /// place whose columns a view did not read (a view reads the first few thousand places'):
    /// it answers while the views' connection is busy with a long view.
    public func rowReader() -> PostGISRowReader { PostGISRowReader(source: self) }
}

/// Reads places' columns by key on its own connection (opened on first use with the source's
/// address and password, kept in memory only), one read at a time; call from a background thread.
public final class PostGISRowReader: @unchecked Sendable {
    private let source: PostGISSource
    private let lock = NSLock()
    private var connection: PostgresConnection?

    init(source: PostGISSource) { self.source = source }

    /// The columns of the row with primary key `id` as a JSON object (nil: no such row, or the
    /// table has no integer key). A lost connection is opened again once before giving up.
    public func properties(ofRow id: Int64) throws -> String? {
        lock.lock()
        defer { lock.unlock() }
        for attempt in 0..<2 {
            do {
                let c = try openConnection()
                return try PostGISSource.rowProperties(ids: [id], of: source.table, on: c)[id]
            } catch {
                if attempt == 0, let c = connection, !c.isConnected { connection = nil; continue }
                throw error
            }
        }
        return nil
    }

    private func openConnection() throws -> PostgresConnection {
        if let connection { return connection }
        let c = try PostgresConnection(uri: source.address.connectionURI, password: source.password)
        let ms = source.connection.statementTimeoutMilliseconds
        if ms > 0 { try c.setStatementTimeout(milliseconds: ms) }
        connection = c
        return c
    }
}
