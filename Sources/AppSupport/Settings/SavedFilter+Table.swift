import Foundation

extension SavedFilter {
    /// The key a table's filter is remembered under: `table:` and its address without any
    /// password (neither `user:password@` nor a `password=` parameter), so the state file never
    /// holds one and the same table opened with or without it finds its filter.
    public static func source(tableAddress address: String) -> String {
        var text = address
        // user:password@host → user@host (the authority ends at the first '/', '?' or '#').
        if let scheme = text.range(of: "://") {
            let rest = text[scheme.upperBound...]
            let authorityEnd = rest.firstIndex(where: { "/?#".contains($0) }) ?? rest.endIndex
            if let at = rest[..<authorityEnd].lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") {
                text.removeSubrange(colon..<at)
            }
        }
        // ?…&password=…&… → without it.
        if let q = text.firstIndex(of: "?") {
            let kept = text[text.index(after: q)...].split(separator: "&").filter { !$0.lowercased().hasPrefix("password=") }
            text = String(text[..<q]) + (kept.isEmpty ? "" : "?" + kept.joined(separator: "&"))
        }
        return "table:" + text
    }
}
