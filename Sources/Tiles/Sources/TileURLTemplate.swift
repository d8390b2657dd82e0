/// An XYZ tile URL template: `{z}`, `{x}`, `{y}`, `{-y}` (TMS row), `{s}` (a subdomain chosen by the
/// tile so the same tile always goes to the same host, which keeps HTTP caches effective) and `{r}`
/// (`@2x` on HiDPI when the source offers it, else empty).
public struct TileURLTemplate: Sendable, Hashable {
    /// The template text.
    public var template: String
    /// Subdomains for `{s}`.
    public var subdomains: [String]
    /// Whether the source serves `@2x` tiles for `{r}`.
    public var hasRetina: Bool

    /// Creates a template; nil unless it names `{z}`, `{x}` and `{y}` (or `{-y}`) and is http(s).
    public init?(_ template: String, subdomains: [String] = ["a", "b", "c"], hasRetina: Bool = false) {
        let lower = template.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"),
              template.contains("{z}"), template.contains("{x}"),
              template.contains("{y}") || template.contains("{-y}") else { return nil }
        self.template = template
        self.subdomains = subdomains.isEmpty ? ["a"] : subdomains
        self.hasRetina = hasRetina
    }

    /// The URL of a tile (the column wrapped into the world).
    public func url(for tile: TileID, scale: Double = 1) -> String {
        let t = tile.wrapped
        let s = subdomains[abs(t.x + t.y) % subdomains.count]
        return template
            .replacingOccurrences(of: "{z}", with: String(t.z))
            .replacingOccurrences(of: "{x}", with: String(t.x))
            .replacingOccurrences(of: "{-y}", with: String(t.tmsRow))
            .replacingOccurrences(of: "{y}", with: String(t.y))
            .replacingOccurrences(of: "{s}", with: s)
            .replacingOccurrences(of: "{r}", with: hasRetina && scale > 1.5 ? "@2x" : "")
    }

    /// The host part of a URL (for per-host request limits).
    public static func host(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return "" }
        let rest = url[schemeEnd.upperBound...]
        return String(rest.prefix { $0 != "/" && $0 != "?" })
    }
}
