import ClusterCore
import Foundation

extension PostGISSource {
    /// The columns of the rows with these ids, each as one JSON object without the geometry
    /// column: what a place's card shows. Empty without a key column. The ids go as one array
    /// parameter (never pasted into the SQL). With a key that is not an integer the ids are its
    /// hashes (`PostGISTable.rowIDSQL`): give `near` (the places' points) so the server finds the
    /// rows by the spatial index, not by hashing every row.
    public func rowProperties(ids: [Int64], near points: [GeoCoordinate] = []) throws -> [Int64: String] {
        try Self.rowProperties(ids: ids, near: points, of: table, on: connection)
    }

    /// The columns of a view's places (those with an id; clusters left out), for their cards.
    public func rowProperties(of places: [PostGISItem]) throws -> [Int64: String] {
        let named = places.filter { !$0.isCluster && $0.id != nil }
        return try rowProperties(ids: named.compactMap(\.id), near: named.map(\.coordinate))
    }

    static func rowProperties(ids: [Int64], near points: [GeoCoordinate] = [], of table: PostGISTable,
                              on connection: PostgresConnection) throws -> [Int64: String] {
        guard let idColumn = table.idColumn, !ids.isEmpty else { return [:] }
        let id = table.rowIDSQL(quotedKey: "t." + (try connection.quoted(idColumn)))
        // `to_jsonb(row) - 'geom'` drops the geometry by name; the id is read back as the views read it.
        var sql = "SELECT \(id), (to_jsonb(t) - $2::text)::text FROM \(table.sqlName) AS t WHERE \(id) = ANY($1::int8[])"
        var values = ["{" + ids.map(String.init).joined(separator: ",") + "}", table.geometryColumn]
        if !table.keyIsInteger, let box = Self.box(around: points) {
            // A hashed key has no index: the points' box (their rows' geometries touch it) does.
            sql += " AND " + table.boxSQL(3, 4, 5, 6)
            values += ViewSQL.boxValues(box.west, box.south, box.east, box.north)
        }
        let r = try connection.query(sql, values)
        var out: [Int64: String] = [:]
        out.reserveCapacity(r.rowCount)
        for i in 0..<r.rowCount {
            if let id = r.integer(i, 0), let json = r.text(i, 1) { out[id] = json }
        }
        return out
    }

    /// A box a hair wider than the points (a transformed point comes back within ~1e-9°).
    static func box(around points: [GeoCoordinate]) -> GeoBounds? {
        let valid = points.filter { $0.latitude.isFinite && $0.longitude.isFinite }
        guard let first = valid.first else { return nil }
        var b = GeoBounds(west: first.longitude, south: first.latitude, east: first.longitude, north: first.latitude)
        for p in valid {
            b = GeoBounds(west: min(b.west, p.longitude), south: min(b.south, p.latitude),
                          east: max(b.east, p.longitude), north: max(b.north, p.latitude))
        }
        let e = 1e-6
        return GeoBounds(west: max(-180, b.west - e), south: max(-90, b.south - e), east: min(180, b.east + e), north: min(90, b.north + e))
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

    /// Whether the table's rows can be read again at all (it has a key column).
    public var canRead: Bool { source.table.idColumn != nil }

    /// The columns of the row with id `id` as a JSON object (nil: no such row, or the table has no
    /// key). `at`: the place's point, which finds a row whose key is not an integer by the
    /// spatial index. A lost connection is opened again once before giving up.
    public func properties(ofRow id: Int64, at point: GeoCoordinate? = nil) throws -> String? {
        lock.lock()
        defer { lock.unlock() }
        for attempt in 0..<2 {
            do {
                let c = try openConnection()
                return try PostGISSource.rowProperties(ids: [id], near: point.map { [$0] } ?? [], of: source.table, on: c)[id]
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
