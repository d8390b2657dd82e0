extension PostGISError {
    /// A short stable name for the fault (event logs, tests).
    public var kind: String {
        switch self {
        case .badAddress: return "bad-address"
        case .serverUnreachable: return "unreachable"
        case .passwordRequired: return "password-required"
        case .authenticationFailed: return "wrong-password"
        case .connectionLost: return "connection-lost"
        case .statementTimeout: return "statement-timeout"
        case .cancelled: return "cancelled"
        case .noSuchTable: return "no-table"
        case .notAllowed: return "not-allowed"
        case .noGeometryColumn: return "no-geometry"
        case .badFilter: return "bad-filter"
        case .server: return "server"
        }
    }

    /// Whether the server is gone (a window keeps trying to reconnect until it is back).
    public var isConnectionFault: Bool {
        switch self {
        case .connectionLost, .serverUnreachable: return true
        default: return false
        }
    }
}

extension PostGISViewResult.Method {
    /// `fetched`, `aggregated` or `pyramid`.
    public var name: String {
        switch self {
        case .fetched: return "fetched"
        case .aggregated: return "aggregated"
        case .pyramid: return "pyramid"
        }
    }
}
