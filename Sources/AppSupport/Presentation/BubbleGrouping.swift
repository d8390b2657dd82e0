import ClusterCore
import GeoData
import MapModel

/// "Cluster by" a category and totals on the bubbles (SPEC §10, issue 29 item 5), applied to a
/// scene built from the grouped index: each bubble and place in its category's colour, bubbles
/// of different categories side by side, the total abbreviated on the bubble (as counts are),
/// and with a `sum` total the bubble's size following that weight.
///
/// Built from a `FilterResult` and the index its clusters come from (a `SubsetClusterer` when
/// grouped); pure, so tests decorate scenes without a window.
public struct BubbleGrouping: @unchecked Sendable {
    /// The index the scene's items come from (aggregates and groups are read from it).
    public let index: any PointClusterer
    /// The category property clustered apart, nil when mixed.
    public let groupProperty: String?
    /// Per global point: its group code (−1: none); empty when mixed.
    public let groups: [Int32]
    /// Group codes' texts.
    public let groupNames: [String]
    /// What the bubbles total, nil for counts.
    public let total: FilterSettings.TotalSetting?
    /// Most-common totals' category texts.
    public let totalCategoryNames: [String]
    /// The index whose aggregates count the total's property (same clusters and ids as `index`,
    /// whose aggregates count the file's own categories for colours); nil: `index` itself.
    public let totalIndex: (any PointClusterer)?

    /// Smallest and largest bubble radius when sized by weight (logical pixels).
    /// (At least the smallest count bubble's 15 px, so a four-character total like `137k` fits.)
    public static let weightRadii: ClosedRange<Double> = 15...30

    /// A grouping of the items of `index`: `groups` and `groupNames` as `FilterResult` gives them.
    public init(index: any PointClusterer, groupProperty: String?, groups: [Int32], groupNames: [String],
                total: FilterSettings.TotalSetting?, totalCategoryNames: [String], totalIndex: (any PointClusterer)? = nil) {
        self.index = index
        self.totalIndex = totalIndex
        self.groupProperty = groupProperty
        self.groups = groups
        self.groupNames = groupNames
        self.total = total
        self.totalCategoryNames = totalCategoryNames
    }

    /// The grouping `settings` asks for, over `result` and the index built from it; nil when
    /// the bubbles are plain (no `--by`, no `--total`).
    public init?(settings: FilterSettings, result: FilterResult, index: any PointClusterer,
                 totalIndex: (any PointClusterer)? = nil) {
        guard settings.groupProperty != nil || settings.total != nil else { return nil }
        self.init(index: index, groupProperty: settings.groupProperty, groups: result.groups, groupNames: result.groupNames,
                  total: settings.total, totalCategoryNames: result.totalCategoryNames, totalIndex: totalIndex)
    }

    /// Whether bubble size follows the total (a sum is a weight).
    public var sizesByWeight: Bool { total?.kind == .sum }

    /// The group code of a drawn item, nil when mixed or unknown.
    public func group(of id: SceneItemID) -> Int32? {
        guard groupProperty != nil else { return nil }
        switch id {
        case .point(let i): return i >= 0 && i < groups.count && groups[i] >= 0 ? groups[i] : nil
        case .cluster(let raw):
            guard let sub = index as? SubsetClusterer, let item = sub.item(for: ClusterID(rawValue: raw)) else { return nil }
            return sub.groupValue(of: item).flatMap { $0 >= 0 ? $0 : nil }
        }
    }

    /// The category colour of a group code.
    public static func color(ofGroup g: Int32) -> UInt32 { PlaceColors.category(Int(g)) }

    /// The total of a cluster as a number (most-common: the category code), nil without one.
    public func totalValue(of id: SceneItemID) -> Double? {
        let totals = totalIndex ?? index
        guard let total, case .cluster(let raw) = id, let item = totals.item(for: ClusterID(rawValue: raw)) else { return nil }
        return total.kind.value(of: totals.aggregates(of: item))
    }

    /// The total as drawn on the bubble: `1.2k`, `0.35`, or the most common category's first
    /// letters (`Burg…`); nil when no member has a value.
    public func bubbleText(of id: SceneItemID) -> String? {
        guard let total, let v = totalValue(of: id) else { return nil }
        if total.kind.readsCategory {
            return BubbleGrouping.categoryLabel(Int(v) < totalCategoryNames.count ? totalCategoryNames[Int(v)] : "")
        }
        return ClusterTotal.abbreviated(v)
    }

    /// A most common category as drawn on a bubble: its first letters (`Burg…`).
    public static func categoryLabel(_ name: String) -> String { name.count > 5 ? String(name.prefix(4)) + "…" : name }

    /// The tooltip's line for a cluster: "Total deaths: 1,234 · type: earthquake".
    public func tooltipLine(of id: SceneItemID) -> String? {
        var parts: [String] = []
        if let total, let v = totalValue(of: id) {
            let value = total.kind.readsCategory
                ? (Int(v) < totalCategoryNames.count ? totalCategoryNames[Int(v)] : "")
                : BubbleCardContent.exact(v)
            parts.append("\(BubbleGrouping.totalTitle(total)): \(value)")
        }
        if let by = groupProperty, let g = group(of: id), Int(g) < groupNames.count {
            parts.append("\(PropertyFormat.words(by)): \(groupNames[Int(g)])")
        }
        return parts.isEmpty ? nil : DisplayText.line(parts.joined(separator: " · "))
    }

    /// "Total deaths", "Mean magnitude", "Most common type".
    public static func totalTitle(_ t: FilterSettings.TotalSetting) -> String {
        let kind: String
        switch t.kind {
        case .sum: kind = "Total"
        case .mean: kind = "Mean"
        case .minimum: kind = "Lowest"
        case .maximum: kind = "Highest"
        case .mostCommon: kind = "Most common"
        }
        return "\(kind) \(PropertyFormat.words(t.property).lowercased())"
    }

    /// Colours, totals and sizes the scene's bubbles and places, then puts overlapping marks
    /// side by side when grouped.
    public func decorate(_ scene: inout Scene, style: BubbleStyle) {
        var weights: [Double] = []
        if sizesByWeight { weights = scene.bubbles.map { max(0, totalValue(of: $0.id) ?? 0) } }
        let heaviest = weights.max() ?? 0
        for i in scene.bubbles.indices {
            let id = scene.bubbles[i].id
            if let g = group(of: id) { scene.bubbles[i].look = BubbleLook(fill: BubbleGrouping.color(ofGroup: g)) }
            if total != nil { scene.bubbles[i].label = bubbleText(of: id) ?? "–" }
            if sizesByWeight { scene.bubbles[i].radius = BubbleGrouping.weightRadius(weights[i], heaviest: heaviest) }
        }
        if groupProperty != nil {
            for i in scene.pins.indices {
                if let g = group(of: scene.pins[i].id) { scene.pins[i].color = BubbleGrouping.color(ofGroup: g) }
            }
            scene.placeSideBySide(style: style)
        }
    }

    /// Legend lines saying what is shown (added under the data's own legend).
    public func legendEntries(limit: Int = 8) -> [MapLegend.Entry] {
        var out: [MapLegend.Entry] = []
        if let by = groupProperty {
            for (i, name) in groupNames.prefix(limit).enumerated() {
                out.append(MapLegend.Entry(.bubble(BubbleGrouping.color(ofGroup: Int32(i))), DisplayText.line(name)))
            }
            if groupNames.count > limit { out.append(MapLegend.Entry(.dot(MapDataSession.otherCategoryColor), "Other (\(groupNames.count - limit) more)")) }
            out.append(MapLegend.Entry(.bubble(MapDataSession.otherCategoryColor), "Bubbles: one \(DisplayText.line(PropertyFormat.words(by).lowercased())) each, side by side"))
        }
        if let total {
            var text = "Number on bubbles: \(BubbleGrouping.totalTitle(total).lowercased())"
            if sizesByWeight { text += "; size follows it" }
            out.append(MapLegend.Entry(.bubble(MapDataSession.otherCategoryColor), DisplayText.line(text)))
        }
        return out
    }
}

extension BubbleGrouping {
    /// A bubble's radius when sized by a `sum` total: its area follows its weight's share of the
    /// heaviest bubble's, within `weightRadii` (a file's bubbles and a table's alike).
    public static func weightRadius(_ weight: Double, heaviest: Double) -> Double {
        let share = heaviest > 0 ? (max(0, weight) / heaviest).squareRoot() : 0
        let r = weightRadii
        // Half pixels: bubble sprites are cached per size.
        return ((r.lowerBound + share * (r.upperBound - r.lowerBound)) * 2).rounded() / 2
    }

    /// The legend with what the grouping shows: grouped, the categories replace the data's own
    /// colours (bubbles are filled, no ring); a total only adds its line.
    public func legend(over base: MapLegend) -> MapLegend {
        if let by = groupProperty {
            return MapLegend(title: DisplayText.line(PropertyFormat.words(by)), entries: legendEntries())
        }
        return MapLegend(title: base.title, entries: base.entries + legendEntries())
    }
}

extension MapDataSession {
    /// Cluster by and totals of the filter shown, nil when bubbles are plain.
    public var grouping: BubbleGrouping? {
        guard let f = filtered else { return nil }
        return BubbleGrouping(settings: f.settings, result: f.result, index: f.index, totalIndex: f.totalIndex)
    }
}
