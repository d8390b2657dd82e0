import GeoData
import MapModel

/// A place's callout as a card (SPEC §5.3, §7): the name as the title; a line that says where
/// and what ("Lisbon, Portugal · population 517,802", "Leoti, United States · elevation 3,435 ft");
/// the label and description; the other properties formatted for people ("Key: value"), no value
/// twice; internal ids and codes only behind "More".
public enum CalloutText {
    /// Properties shown elsewhere (title, pin label, place line) or that are only coordinates or styling.
    static let hidden: Set<String> = ["name", "title", "label", "description", "marker-color", "marker-symbol",
                                      "marker-size", "lat", "latitude", "lon", "lng", "long", "longitude", "x", "y",
                                      "country", "city", "category"]
    /// At most this many lines after the title.
    public static let maxLines = 9
    /// Values longer than this are cut with "…" (the renderer also wraps).
    public static let maxValueCharacters = 160
    /// Property names longer than this are cut with "…".
    public static let maxKeyCharacters = 40

    /// What a card shows: `lines` always, `moreLines` (internal ids and codes) after "More".
    public struct Card: Sendable, Equatable {
        public var title: String
        public var lines: [String]
        public var moreLines: [String]
        /// The lines to draw: with the ids when expanded.
        public func lines(expanded: Bool) -> [String] { expanded ? lines + moreLines : lines }
    }

    /// The card of the place at `local` in `points`.
    public static func card(for points: PointSet, at local: Int, fallbackTitle: String) -> Card {
        let props = points.properties(at: local)
        func value(_ key: String) -> PropertyValue? {
            props.first { $0.key.lowercased() == key }?.value
        }
        let fullName = points.name(at: local).flatMap { $0.isEmpty ? nil : $0 }
        // A long name is shortened in the title; a longer excerpt waits behind "More".
        let title = fullName.map { DisplayText.line($0) } ?? fallbackTitle
        let label = points.label(at: local).flatMap { $0.isEmpty ? nil : cut($0) }
        // The place line: where (city or name, country) and what (category, the key facts).
        var place: [String] = []
        let country = value("country")?.text.map(PropertyFormat.country)
        let city = value("city")?.text.flatMap { $0.isEmpty ? nil : $0 }
        if let country, !country.isEmpty {
            place.append([city ?? points.name(at: local), country].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", "))
        } else if let city {
            place.append(city)
        }
        var shownKeys = Set<String>()
        if let c = points.categoryName(at: local), !c.isEmpty { place.append(PropertyFormat.category(c)) }
        for (key, v) in props {
            guard case .number(let d) = v, let fact = PropertyFormat.fact(key: key, value: d) else { continue }
            shownKeys.insert(key.lowercased())
            // A price already on the pin's label ("$120") is not said again.
            if let label, digits(label) == digits(fact) { continue }
            // Unnamed places take their key fact as the title ("M 5.6"); not twice.
            if fact == title { continue }
            place.append(fact)
        }
        var lines: [String] = []
        if let label { lines.append(label) }
        if !place.isEmpty { lines.append(place.joined(separator: " · ")) }
        if let d = points.description(at: local), !d.isEmpty { lines.append(cut(d)) }
        var others: [String] = [], more: [String] = []
        for (key, v) in props {
            let k = key.lowercased()
            guard !hidden.contains(k), !shownKeys.contains(k), !PropertyFormat.isStyle(k) else { continue }
            if case .null = v { continue }
            // Ids and codes are written as they are (no thousands separators in 2267057).
            let text = PropertyFormat.isInternal(k) ? v.description : PropertyFormat.text(v)
            if text.isEmpty { continue }
            // No value twice: a property equal to the title or the label is left out.
            if text == title || text == label { continue }
            let line = "\(DisplayText.line(PropertyFormat.words(key), limit: maxKeyCharacters)): \(cut(text))"
            if PropertyFormat.isInternal(k) { more.append(line) } else { others.append(line) }
        }
        let room = maxLines - lines.count
        // What doesn't fit goes behind "More" with the ids.
        lines += others.prefix(max(0, room))
        more = Array(others.dropFirst(max(0, room))) + more
        if let fullName, title != fullName { more.insert("Name: " + DisplayText.line(fullName, limit: DisplayText.fullLength), at: 0) }
        return Card(title: title, lines: lines, moreLines: more)
    }

    /// The digits of a text ("$120" → "120").
    static func digits(_ s: String) -> String { String(s.filter { $0.isNumber }) }

    /// A value for one card line: bounded, direction overrides shown (`DisplayText`).
    static func cut(_ s: String) -> String { DisplayText.line(s, limit: maxValueCharacters - 1) }
}
