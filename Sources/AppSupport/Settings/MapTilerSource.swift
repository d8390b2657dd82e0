import Foundation

/// MapTiler's street map (online, needs a personal API key from maptiler.com): the URL template
/// for a key, how to recognise it, and the credit its terms require.
public enum MapTilerSource {
    /// "© MapTiler © OpenStreetMap contributors", as MapTiler's terms ask.
    public static let attribution = "© MapTiler © OpenStreetMap contributors"
    static let prefix = "https://api.maptiler.com/maps/streets-v2/256/"

    /// The raster template for `key` (256-px tiles, `@2x` on HiDPI), or nil if the key can't be one.
    public static func template(key: String) -> String? {
        guard let key = validKey(key) else { return nil }
        return prefix + "{z}/{x}/{y}{r}.png?key=" + key
    }

    /// The key trimmed, if it looks like a MapTiler key (letters, digits, `-` and `_`, 8–128 long).
    public static func validKey(_ raw: String) -> String? {
        let key = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (8...128).contains(key.count),
              key.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                  || $0 == "-" || $0 == "_" }) else { return nil }
        return key
    }

    /// Whether a template is MapTiler's.
    public static func isMapTiler(_ template: String) -> Bool { template.hasPrefix("https://api.maptiler.com/") }
}
