import ClusterCore
import GeoData
import MapModel

/// One row of the "in view" list beside the map (SPEC §5.7): a bubble ("12 places", "mostly
/// museum") or a place (its name, its label or category).
public struct InViewRow: Equatable, Sendable {
    public enum Kind: String, Sendable { case bubble, place }

    public var id: SceneItemID
    public var kind: Kind
    /// Places the row stands for (1 for a place).
    public var count: Int
    /// First line: "12 places" or the place's name.
    public var title: String
    /// Second line: "mostly museum", the place's label or its category (may be empty).
    public var subtitle: String
    /// What the row is called in the event log and by screen readers: "12 places, mostly museum",
    /// "Rooftop Loft, $120".
    public var name: String
    /// Bubble style step (0…2) for a bubble; the pin colour 0xRRGGBB for a place, or for a bubble
    /// its fill when the data colours bubbles (0: the step's colour).
    public var step: Int
    public var color: UInt32
    /// The whole name (up to `DisplayText.fullLength`) when `title` had to shorten it: the row's tooltip.
    public var fullTitle: String?

    public init(id: SceneItemID, kind: Kind, count: Int, title: String, subtitle: String, name: String,
                step: Int = 0, color: UInt32 = 0) {
        self.id = id; self.kind = kind; self.count = count; self.title = title; self.subtitle = subtitle
        self.name = name; self.step = step; self.color = color
    }

    /// The screen-reader label: the name, then the kind of item ("bubble" rows say so).
    public var accessibleLabel: String {
        switch kind {
        case .bubble: return "\(name). Bubble, activate to zoom in"
        case .place: return subtitle.isEmpty || name.contains(subtitle) ? name : "\(name), \(subtitle)"
        }
    }

    /// Bubbles of at most this many places list their names as the row's second line.
    public static let namedBubbleLimit = 3

    /// Splits a bubble summary ("12 places, mostly museum") into its two lines.
    public static func splitSummary(_ summary: String) -> (title: String, subtitle: String) {
        guard let r = summary.range(of: ", ") else { return (summary, "") }
        return (String(summary[..<r.lowerBound]), String(summary[r.upperBound...]))
    }
}

/// The smallest single replacement that turns one row list into another (common prefix and
/// suffix kept), so a list widget keeps its unchanged rows — and the focus on them — when the
/// map moves a little.
public struct ListSplice: Equatable, Sendable {
    /// First changed position.
    public var position: Int
    /// Rows removed there from the old list.
    public var removed: Int
    /// Rows of the new list inserted there.
    public var inserted: Range<Int>

    public init(position: Int, removed: Int, inserted: Range<Int>) {
        self.position = position; self.removed = removed; self.inserted = inserted
    }

    /// nil when the lists are equal.
    public static func between<T: Equatable>(_ old: [T], _ new: [T]) -> ListSplice? {
        guard old != new else { return nil }
        var prefix = 0
        while prefix < old.count && prefix < new.count && old[prefix] == new[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < old.count - prefix && suffix < new.count - prefix
                && old[old.count - 1 - suffix] == new[new.count - 1 - suffix] { suffix += 1 }
        return ListSplice(position: prefix, removed: old.count - prefix - suffix,
                          inserted: prefix..<(new.count - suffix))
    }
}

extension MapDataSession {
    /// The list rows for the items of a scene, in the given (reading) order. Bubbles say their
    /// exact count and top category; places their name and label (or category).
    public func inViewRows(order: [SceneItemID], scene: Scene) -> [InViewRow] {
        var steps: [SceneItemID: (count: Int, step: Int, fill: UInt32?)] = [:]
        for b in scene.bubbles { steps[b.id] = (b.count, b.step, b.look.fill) }
        return order.compactMap { id in
            switch id {
            case .cluster(let raw):
                guard let item = bubbleItem(for: ClusterID(rawValue: raw)) else { return nil }
                let summary = self.summary(of: item)
                let parts = InViewRow.splitSummary(summary)
                // A bubble of a few places says which ones ("Prado Museum, Thyssen Museum"), not
                // only "2 places" (issue 32 item 11).
                var subtitle = parts.subtitle
                if item.count <= InViewRow.namedBubbleLimit, let cluster = item.clusterID, remote == nil {
                    subtitle = shownIndex.leaves(of: cluster, limit: item.count, offset: 0)
                        .map { places.name(of: $0) }.joined(separator: ", ")
                }
                return InViewRow(id: id, kind: .bubble, count: item.count, title: DisplayText.line(parts.title),
                                 subtitle: DisplayText.line(subtitle),
                                 name: DisplayText.line(summary, limit: DisplayText.fullLength), step: steps[id]?.step ?? 0, color: steps[id]?.fill ?? 0)
            case .point(let i):
                guard i >= 0 && i < pointCount else { return nil }
                let name = laterName(of: i) ?? places.name(of: i)
                var subtitle = places.label(of: i) ?? ""
                if subtitle.isEmpty {
                    let (src, local) = source(of: i)
                    subtitle = DisplayText.line(src.points.categoryName(at: local) ?? "")
                }
                if subtitle == name { subtitle = "" }
                let label = places.label(of: i).map { $0 == name ? name : "\(name), \($0)" } ?? name
                var row = InViewRow(id: id, kind: .place, count: 1, title: name, subtitle: subtitle, name: label,
                                    color: places.color(of: i))
                row.fullTitle = places.fullName(of: i)
                return row
            }
        }
    }
}
