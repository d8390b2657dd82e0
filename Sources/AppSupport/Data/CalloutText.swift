import GeoData

/// The text of a place's callout (SPEC §5.3): its name as the title, then the label, the
/// description and every other property as "key: value", cut with "…" when there are many.
public enum CalloutText {
    /// Properties shown elsewhere (title, pin label) or that are only coordinates or styling.
    static let hidden: Set<String> = ["name", "title", "label", "description", "marker-color", "marker-symbol",
                                      "marker-size", "lat", "latitude", "lon", "lng", "long", "longitude", "x", "y"]
    /// At most this many lines after the title.
    public static let maxLines = 9
    /// Values longer than this are cut with "…" (the renderer also wraps).
    public static let maxValueCharacters = 160

    /// Title and lines for the place at `local` in `points`.
    public static func content(for points: PointSet, at local: Int, fallbackTitle: String) -> (title: String, lines: [String]) {
        var lines: [String] = []
        if let l = points.label(at: local), !l.isEmpty { lines.append(l) }
        if let d = points.description(at: local), !d.isEmpty { lines.append(cut(d)) }
        var others: [String] = []
        for (key, value) in points.properties(at: local) where !hidden.contains(key.lowercased()) {
            if case .null = value { continue }
            let text = value.description
            if text.isEmpty { continue }
            others.append("\(key): \(cut(text))")
        }
        let room = maxLines - lines.count
        if others.count > room {
            lines += others.prefix(max(0, room - 1))
            lines.append("… \(others.count - max(0, room - 1)) more")
        } else {
            lines += others
        }
        let title = points.name(at: local).flatMap { $0.isEmpty ? nil : $0 } ?? fallbackTitle
        return (title, lines)
    }

    static func cut(_ s: String) -> String {
        s.count > maxValueCharacters ? String(s.prefix(maxValueCharacters - 1)) + "…" : s
    }
}
