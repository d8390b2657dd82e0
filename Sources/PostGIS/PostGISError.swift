/// What can go wrong with a PostGIS source, in words a person can act on. Never contains a
/// password (messages from libpq about a connection string are not passed on verbatim when they
/// could echo it).
public enum PostGISError: Error, Equatable, CustomStringConvertible {
    /// The address is not a usable `postgresql://` URI (the reason says which part).
    case badAddress(String)
    /// No server answered (down, wrong host or port).
    case serverUnreachable(String)
    /// The server wants a password and none was given.
    case passwordRequired(user: String)
    /// The password (or another credential) was refused.
    case authenticationFailed(user: String)
    /// The connection broke mid-way (the server was stopped or killed).
    case connectionLost(String)
    /// The query ran past the statement timeout.
    case statementTimeout(milliseconds: Int)
    /// The query was cancelled (superseded by a newer view, or by the caller).
    case cancelled
    /// The table named in the address does not exist or can't be read.
    case noSuchTable(String)
    /// The user may not read the table.
    case notAllowed(String)
    /// The table has no geometry column (or not the one named).
    case noGeometryColumn(table: String, detail: String)
    /// A filter names a column the table doesn't have, or an operator we don't know.
    case badFilter(String)
    /// Any other error the server reported (its message and SQLSTATE).
    case server(message: String, sqlState: String)

    public var description: String {
        switch self {
        case .badAddress(let m): return "not a PostGIS address: \(m)"
        case .serverUnreachable(let m): return "can't reach the database server: \(m)"
        case .passwordRequired(let u): return "the server asks for a password for user \(u)"
        case .authenticationFailed(let u): return "the server refused the password for user \(u)"
        case .connectionLost(let m): return "the connection to the database was lost: \(m)"
        case .statementTimeout(let ms): return "the query took longer than the statement timeout (\(ms) ms) and was stopped"
        case .cancelled: return "the query was cancelled"
        case .noSuchTable(let t): return "no table \(t) in this database"
        case .notAllowed(let t): return "no permission to read table \(t)"
        case .noGeometryColumn(let t, let d): return "table \(t) has no usable geometry column: \(d)"
        case .badFilter(let m): return "bad filter: \(m)"
        case .server(let m, let s): return "the database said: \(m) (SQLSTATE \(s))"
        }
    }
}
