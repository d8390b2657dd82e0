import Foundation

/// Tells when a table's rows changed, on a connection of its own: at once through LISTEN/NOTIFY
/// when the table has ClusterMap's trigger (`installNotifyTrigger`), else by polling the server's
/// per-table row counters (inserts, updates, deletes; PostgreSQL publishes them within about a
/// second of a commit). The map then re-queries its view and logs `data-changed`.
public final class PostGISChangeWatcher: @unchecked Sendable {
    /// The channel the trigger notifies, with `schema.table` as payload.
    public static let channel = "clustermap_changes"
    let connection: PostgresConnection
    let table: PostGISTable
    private var lastFingerprint: [Int64]?
    /// The watched source: its kept whole-world cells are dropped when a change is seen.
    private weak var source: PostGISSource?

    /// Watches the source's table (a second connection with the same address and password).
    public init(source: PostGISSource) throws {
        connection = try PostgresConnection(uri: source.address.connectionURI, password: source.password)
        table = source.table
        self.source = source
        _ = try connection.query("LISTEN \(try connection.quoted(Self.channel))")
        lastFingerprint = try fingerprint()
    }

    func fingerprint() throws -> [Int64] {
        let r = try connection.query("SELECT n_tup_ins, n_tup_upd, n_tup_del FROM pg_stat_user_tables "
                                     + "WHERE relid = (quote_ident($1) || '.' || quote_ident($2))::regclass",
                                     [table.schema, table.name])
        guard r.rowCount == 1 else { return [] }
        return (0..<3).map { r.integer(0, $0) ?? 0 }
    }

    /// Waits up to `seconds` for a change; true when the table changed since the last call.
    public func waitForChange(seconds: Double) throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let left = deadline.timeIntervalSinceNow
            // Notifications first (immediate), then the counters every second at most.
            let payloads = try connection.notifications(waitingUpTo: max(0, min(1, left)))
            if payloads.contains(table.displayName) {
                lastFingerprint = try fingerprint()
                source?.forgetAggregates()
                return true
            }
            let now = try fingerprint()
            if now != lastFingerprint {
                lastFingerprint = now
                source?.forgetAggregates()
                return true
            }
            if deadline.timeIntervalSinceNow <= 0 { return false }
        }
    }

    /// Adds ClusterMap's statement-level trigger to the source's table (needs the right to create
    /// triggers on it): every INSERT/UPDATE/DELETE/TRUNCATE notifies `clustermap_changes`.
    public static func installNotifyTrigger(on source: PostGISSource) throws {
        let c = source.connection
        _ = try c.query("""
            CREATE OR REPLACE FUNCTION clustermap_notify() RETURNS trigger LANGUAGE plpgsql AS $f$
            BEGIN PERFORM pg_notify('\(channel)', TG_TABLE_SCHEMA || '.' || TG_TABLE_NAME); RETURN NULL; END $f$
            """)
        _ = try c.query("DROP TRIGGER IF EXISTS clustermap_notify ON \(source.table.sqlName)")
        _ = try c.query("CREATE TRIGGER clustermap_notify AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON \(source.table.sqlName) "
                        + "FOR EACH STATEMENT EXECUTE FUNCTION clustermap_notify()")
    }
}
