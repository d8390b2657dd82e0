/// A PostGIS table's address: `postgresql://[user@]host[:port]/db?table=schema.name[&geometry=col]`
/// (or `postgres://`); libpq's own parameters (`service=`, `sslmode=`, `options=`…) pass through, and
/// anything the URI leaves out comes from the usual `PG*` variables and the service file, as libpq
/// does. The password, if the URI holds one, stays in `connectionURI` only.
public struct PostGISAddress: Sendable, Equatable {
    /// The URI for libpq: the original without our own parameters.
    public let connectionURI: String
    /// Schema (nil: the search path decides, `public` usually).
    public let schema: String?
    /// Table name.
    public let table: String
    /// The geometry column, when named (`&geometry=`); nil: found from `geometry_columns`.
    public let geometryColumn: String?

    /// Our parameters (removed before libpq sees the URI: it rejects unknown ones).
    static let ownKeys: Set<String> = ["table", "geometry"]

    /// Whether a command-line argument is a database address rather than a file.
    public static func looksLikeAddress(_ s: String) -> Bool {
        s.hasPrefix("postgresql://") || s.hasPrefix("postgres://")
    }

    /// Parses an address; throws `badAddress` naming what is missing.
    public init(_ text: String) throws {
        guard Self.looksLikeAddress(text) else { throw PostGISError.badAddress("it must start with postgresql://") }
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let base = String(parts[0])
        var kept: [String] = []
        var table: String?
        var geometry: String?
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let key = String(kv[0])
                let value = kv.count == 2 ? Self.percentDecoded(String(kv[1])) : ""
                if key == "table" { table = value } else if key == "geometry" { geometry = value } else { kept.append(String(pair)) }
            }
        }
        guard let table, !table.isEmpty else { throw PostGISError.badAddress("no table (add ?table=schema.name)") }
        if let geometry, geometry.isEmpty { throw PostGISError.badAddress("geometry= names no column") }
        // schema.table; a quoted name may hold dots ("my.schema"."t"), so split outside quotes.
        let names = Self.splitQualified(table)
        guard (1...2).contains(names.count), names.allSatisfy({ !$0.isEmpty }) else {
            throw PostGISError.badAddress("table '\(table)' is not name or schema.name")
        }
        self.schema = names.count == 2 ? names[0] : nil
        self.table = names.last!
        self.geometryColumn = geometry
        self.connectionURI = kept.isEmpty ? base : base + "?" + kept.joined(separator: "&")
    }

    /// "schema.table" for messages (never the URI: it may hold a password).
    public var qualifiedName: String { schema.map { "\($0).\(table)" } ?? table }

    static func splitQualified(_ s: String) -> [String] {
        var out: [String] = [], current = "", quoted = false
        for ch in s {
            if ch == "\"" { quoted.toggle(); continue }
            if ch == "." && !quoted { out.append(current); current = ""; continue }
            current.append(ch)
        }
        out.append(current)
        return out
    }

    static func percentDecoded(_ s: String) -> String {
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%"), it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(v)
                it = it.dropFirst(2)
            } else if b == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
