import Foundation

extension PostGISAddress {
    /// The address a "Connect to Database…" form's fields make: `postgresql://user@host:port/db?table=…`,
    /// each part percent-encoded (a `@`, `/`, `?` or `&` in a name can't change what the URI
    /// means); empty fields are left out, so libpq's defaults and `PG*` variables fill them in.
    /// No password: that goes to the connection only.
    public static func compose(host: String, port: String, database: String, user: String, table: String) -> String {
        func enc(_ s: String) -> String {
            s.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? s
        }
        let h = host.trimmingCharacters(in: .whitespaces), p = port.trimmingCharacters(in: .whitespaces)
        let u = user.trimmingCharacters(in: .whitespaces), d = database.trimmingCharacters(in: .whitespaces)
        var out = "postgresql://"
        if !u.isEmpty { out += enc(u) + "@" }
        // An IPv6 literal keeps its brackets; a host name is encoded.
        if h.hasPrefix("[") && h.hasSuffix("]") { out += h } else { out += enc(h) }
        if !p.isEmpty { out += ":" + enc(p) }
        out += "/" + enc(d)
        let t = table.trimmingCharacters(in: .whitespaces)
        if !t.isEmpty { out += "?table=" + enc(t) }
        return out
    }
}

extension PostGISAddress {
    /// What a form asks to connect to: its address field when filled (a chosen table added when
    /// it names none), else its fields; checked (throws `badAddress` saying what is missing).
    public static func fromForm(address: String, host: String, port: String, database: String, user: String,
                                table: String) throws -> String {
        let typed = address.trimmingCharacters(in: .whitespaces)
        let t = table.trimmingCharacters(in: .whitespaces)
        var text = typed.isEmpty ? compose(host: host, port: port, database: database, user: user, table: t) : typed
        if !typed.isEmpty, !t.isEmpty, (try? PostGISAddress(typed)) == nil, looksLikeAddress(typed) {
            let encoded = t.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~\""))) ?? t
            text += (typed.contains("?") ? "&" : "?") + "table=" + encoded
        }
        _ = try PostGISAddress(text)
        return text
    }

    /// The address without its table (for listing the tables of its database).
    public static func withoutTable(_ text: String) -> String {
        (try? PostGISAddress(text).connectionURI) ?? text.split(separator: "?", maxSplits: 1).first.map(String.init) ?? text
    }
}

extension PostGISSource {
    /// The tables with a geometry column the user may read (`schema.table`, from
    /// `geometry_columns`), for a form's table chooser. `connectionURI` has no `table=`.
    public static func geometryTables(connectionURI: String, password: String? = nil) throws -> [String] {
        let c = try PostgresConnection(uri: connectionURI, password: password)
        let r = try c.query("SELECT DISTINCT quote_ident(f_table_schema::text) || '.' || quote_ident(f_table_name::text) "
                            + "FROM geometry_columns WHERE has_table_privilege("
                            + "(quote_ident(f_table_schema::text) || '.' || quote_ident(f_table_name::text))::regclass, 'SELECT') ORDER BY 1")
        return (0..<r.rowCount).compactMap { r.text($0, 0) }
    }
}
