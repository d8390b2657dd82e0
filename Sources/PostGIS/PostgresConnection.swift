import CPostgres
import Foundation

/// One libpq connection. Queries are parameterised (values never pasted into SQL) and return
/// binary results; `cancel()` may be called from any thread to stop the query in flight (libpq's
/// PQcancel, which is thread-safe: it opens its own connection to the server).
public final class PostgresConnection: @unchecked Sendable {
    private var conn: OpaquePointer?
    private var cancelHandle: OpaquePointer?
    private let cancelLock = NSLock()
    private let queryLock = NSLock()
    /// The user libpq connected as (for messages).
    public let user: String
    /// Statements sent so far (tests check that a view was answered without asking the server).
    public private(set) var statementCount = 0
    /// The statement timeout set on the session (0: none).
    public private(set) var statementTimeoutMilliseconds = 0

    /// Connects with a libpq URI (PG* variables and the service file fill in what it leaves out);
    /// `password` is handed to libpq only, never stored or logged.
    public init(uri: String, password: String? = nil, connectTimeoutSeconds: Int = 10) throws {
        var keys = ["dbname", "connect_timeout", "application_name"]
        var values = [uri, String(connectTimeoutSeconds), "ClusterMap"]
        if let password { keys.append("password"); values.append(password) }
        let c = Self.withCStrings(keys) { k in Self.withCStrings(values) { v in PQconnectdbParams(k, v, 1) } }
        guard let c else { throw PostGISError.serverUnreachable("out of memory") }
        let u = PQuser(c).map { String(cString: $0) } ?? "?"
        user = u
        guard PQstatus(c) == CONNECTION_OK else {
            let message = Self.message(c)
            let needsPassword = PQconnectionNeedsPassword(c) == 1
            let usedPassword = PQconnectionUsedPassword(c) == 1
            PQfinish(c)
            if needsPassword { throw PostGISError.passwordRequired(user: u) }
            if usedPassword || message.contains("password authentication failed") {
                throw PostGISError.authenticationFailed(user: u)
            }
            if message.contains("invalid URI") || message.contains("invalid connection option") || message.contains("missing \"=\"") {
                throw PostGISError.badAddress(Self.withoutSecrets(message))
            }
            throw PostGISError.serverUnreachable(Self.withoutSecrets(message))
        }
        conn = c
        cancelHandle = PQgetCancel(c)
        // Server notices ("table … does not exist, skipping") are not errors: libpq would print
        // them to stderr.
        PQsetNoticeProcessor(c, { _, _ in }, nil)
    }

    deinit {
        if let cancelHandle { PQfreeCancel(cancelHandle) }
        PQfinish(conn)
    }

    /// libpq's last error text, one line.
    static func message(_ c: OpaquePointer?) -> String {
        let raw = PQerrorMessage(c).map { String(cString: $0) } ?? ""
        return raw.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: "; ")
    }

    /// A libpq message with anything after "password=" cut (libpq can echo bad connection strings).
    static func withoutSecrets(_ m: String) -> String {
        guard let r = m.range(of: "password") else { return m }
        return String(m[..<r.lowerBound]) + "…"
    }

    static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
    }

    /// Sets the session's statement timeout (the server stops longer queries).
    public func setStatementTimeout(milliseconds: Int) throws {
        _ = try query("SELECT set_config('statement_timeout', $1, false)", [String(max(0, milliseconds))])
        statementTimeoutMilliseconds = max(0, milliseconds)
    }

    /// Asks the server to stop the query in flight on this connection (any thread; no-op when idle).
    public func cancel() {
        cancelLock.lock()
        defer { cancelLock.unlock() }
        guard let cancelHandle else { return }
        var buffer = [CChar](repeating: 0, count: 256)
        _ = PQcancel(cancelHandle, &buffer, Int32(buffer.count))
    }

    /// Runs one statement with text parameters (nil: SQL NULL); results in binary format.
    /// One query at a time per connection (callers on other threads wait).
    public func query(_ sql: String, _ parameters: [String?] = [], binary: Bool = true) throws -> PostgresResult {
        queryLock.lock()
        defer { queryLock.unlock() }
        guard let conn else { throw PostGISError.connectionLost("closed") }
        statementCount += 1
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        let result = pointers.withUnsafeBufferPointer { p in
            PQexecParams(conn, sql, Int32(parameters.count), nil, p.baseAddress, nil, nil, binary ? 1 : 0)
        }
        guard let result else { throw PostGISError.connectionLost(Self.message(conn)) }
        let status = PQresultStatus(result)
        if status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK { return PostgresResult(result) }
        defer { PQclear(result) }
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let primary = PQresultErrorField(result, Int32(UInt8(ascii: "M"))).map { String(cString: $0) } ?? Self.message(conn)
        if PQstatus(conn) != CONNECTION_OK || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" {
            throw PostGISError.connectionLost(primary.isEmpty ? Self.message(conn) : primary)
        }
        if state == "57014" {
            // query_canceled: by us (PQcancel) or by the statement timeout.
            if primary.contains("statement timeout") {
                throw PostGISError.statementTimeout(milliseconds: statementTimeoutMilliseconds)
            }
            throw PostGISError.cancelled
        }
        throw PostGISError.server(message: primary, sqlState: state)
    }

    /// Runs one statement with `settings` (name, value) in force for it alone: inside a transaction
    /// with `SET LOCAL` (no settings: a plain `query`). A failed statement's transaction is rolled
    /// back, so the connection stays usable (a cancelled view, a timeout).
    public func query(_ sql: String, _ parameters: [String?], settings: [(String, String)]) throws -> PostgresResult {
        guard !settings.isEmpty else { return try query(sql, parameters) }
        _ = try query("BEGIN")
        do {
            for (name, value) in settings { _ = try query("SELECT set_config($1, $2, true)", [name, value]) }
            let result = try query(sql, parameters)
            _ = try query("COMMIT")
            return result
        } catch {
            if isConnected { _ = try? query("ROLLBACK") }
            throw error
        }
    }

    /// Whether the connection is still good (false after the server went away).
    public var isConnected: Bool { conn.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// Tries to reconnect a broken connection in place (the server came back).
    public func reset() -> Bool {
        queryLock.lock()
        defer { queryLock.unlock() }
        guard let conn else { return false }
        PQreset(conn)
        guard PQstatus(conn) == CONNECTION_OK else { return false }
        cancelLock.lock()
        if let cancelHandle { PQfreeCancel(cancelHandle) }
        cancelHandle = PQgetCancel(conn)
        cancelLock.unlock()
        return true
    }

    /// Waits up to `seconds` for NOTIFY messages on the channels this connection LISTENs to;
    /// returns their payloads (empty when none came). Call between queries, not during one.
    public func notifications(waitingUpTo seconds: Double) throws -> [String] {
        queryLock.lock()
        defer { queryLock.unlock() }
        guard let conn else { throw PostGISError.connectionLost("closed") }
        var payloads: [String] = []
        func drain() throws {
            guard PQconsumeInput(conn) == 1 else { throw PostGISError.connectionLost(Self.message(conn)) }
            while let n = PQnotifies(conn) {
                payloads.append(n.pointee.extra.map { String(cString: $0) } ?? "")
                PQfreemem(n)
            }
        }
        try drain()
        if payloads.isEmpty && seconds > 0 {
            var fd = pollfd(fd: PQsocket(conn), events: Int16(POLLIN), revents: 0)
            if poll(&fd, 1, Int32(min(seconds, 3600) * 1000)) > 0 { try drain() }
        }
        return payloads
    }

    /// A quoted identifier (libpq's PQescapeIdentifier): safe for any column or table name.
    public func quoted(_ identifier: String) throws -> String {
        guard let conn, let p = PQescapeIdentifier(conn, identifier, identifier.utf8.count) else {
            throw PostGISError.badFilter("'\(identifier)' can't be used as a name")
        }
        defer { PQfreemem(p) }
        return String(cString: p)
    }
}
