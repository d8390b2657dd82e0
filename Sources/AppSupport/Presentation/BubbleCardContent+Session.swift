import ClusterCore
import GeoData
import MapModel

extension MapDataSession {
    /// Most members whose times are read for a card's date span (more: the span is left out,
    /// rather than read from a part of them).
    public static let cardTimeLimit = 1_000_000

    /// The card of a shown bubble (issue 29 item 5): from the shown index's aggregates (count and
    /// the file's categories), the grouping's total index (the total) and group, and `times`
    /// (the time bar's property, by global point id) for the date span. A remote source's bubble
    /// says what the source gave. `maxZoom`: deepest zoom a flight can reach (a bubble splitting
    /// only deeper offers its list instead). Nil when the bubble is no longer shown.
    public func bubbleCard(of id: ClusterID, times: PropertyColumn? = nil, maxZoom: Double = 22) -> BubbleCardContent? {
        if let remote { return remote.item(for: id).map { remoteBubbleCard(of: $0, facts: remote.facts(of: id)) } }
        guard let item = shownIndex.item(for: id) else { return nil }
        var card = BubbleCardContent(count: item.count, noun: noun(count: item.count))
        let sceneID = SceneItemID.cluster(id.rawValue)
        let grouping = self.grouping
        if let g = grouping, let total = g.total {
            let totals = g.totalIndex ?? g.index
            if let t = totals.item(for: id) {
                card.totals = BubbleCardContent.totals(total, of: totals.aggregates(of: t), count: item.count,
                                                       categoryNames: g.totalCategoryNames)
            }
        }
        if let g = grouping, let by = g.groupProperty, let code = g.group(of: sceneID), Int(code) < g.groupNames.count {
            card.group = (by, BubbleCardContent.Category(name: g.groupNames[Int(code)], count: item.count,
                                                         color: BubbleGrouping.color(ofGroup: code)))
        }
        if sources.count > 1 || !(sources.first?.points.categoryNames.isEmpty ?? true) {
            card.setCategories(shownIndex.aggregates(of: item)) { categoryName($0) }
            // Grouped, the map colours the groups, not these: no dots that would read as groups;
            // one category alone says nothing the group line doesn't.
            if card.groupProperty != nil {
                card.categoryColoursShown = false
                if card.categories.count <= 1 { card.categories = []; card.uncategorized = 0 }
            }
        }
        if let times, item.count <= MapDataSession.cardTimeLimit {
            card.dates = BubbleCardContent.span(of: shownIndex.leaves(of: id, limit: item.count, offset: 0), in: times)
        }
        let splits = shownIndex.expansionZoom(of: id).map { Double($0) <= maxZoom } ?? false
        card.canZoomIn = splits
        card.canList = item.count <= BubbleCardContent.listLimit || !splits
        return card
    }

    /// A remote bubble's card: its count, the totals and properties its source gave, its centre.
    func remoteBubbleCard(of item: ClusterItem, facts: [RemoteView.Fact]) -> BubbleCardContent {
        var card = BubbleCardContent(count: item.count, noun: noun(count: item.count))
        let read = BubbleCardContent.remoteLines(facts, count: item.count)
        card.totals = read.totals
        card.facts = read.others + [BubbleCardContent.Line("Centre: " + PropertyFormat.coordinates(item.coordinate))]
        card.canZoomIn = true
        card.canList = false
        return card
    }

    /// "1,234 places" over "Total deaths: 5,678": a remote bubble's tooltip (count and totals).
    public func remoteTooltip(of id: ClusterID) -> String? {
        guard let remote, let item = remote.item(for: id) else { return nil }
        let card = remoteBubbleCard(of: item, facts: remote.facts(of: id))
        let totals = card.totals.prefix(2).map { "\($0.title): \($0.text)" }.joined(separator: " · ")
        // As a local bubble's: the count first, then what it adds up to on the next line.
        return totals.isEmpty ? card.title : card.title + "\n" + DisplayText.line(totals, limit: 160)
    }
}

extension BubbleCardContent {
    /// The first and last time among `members` in `column` (NaN: no time); nil when none has one.
    public static func span(of members: [Int], in column: PropertyColumn) -> ClosedRange<Double>? {
        let numbers = column.numbers
        var lo = Double.infinity, hi = -Double.infinity
        for m in members where m >= 0 && m < numbers.count {
            let t = numbers[m]
            if t.isNaN { continue }
            lo = min(lo, t); hi = max(hi, t)
        }
        return lo <= hi ? lo...hi : nil
    }

    /// Properties a clustered tile file writes for its own use (supercluster's names).
    static let clusterBookkeeping: Set<String> = ["cluster", "cluster_id", "point_count", "point_count_abbreviated",
                                                  "expansion_zoom", "sqrt_point_count", "tippecanoe_feature_density"]

    /// A remote bubble's facts as card lines: totals written as `<property>_sum` / `_mean` /
    /// `_min` / `_max` (our tile files', and a database's totals) become, per property, "Total p"
    /// (or its mean, highest, lowest: the first there is) and a line with the rest ("Range: 0 –
    /// 6,845 · mean 872.33"); other properties "Key: value"; bookkeeping is left out.
    public static func remoteLines(_ facts: [RemoteView.Fact], count: Int? = nil) -> (totals: [Total], others: [Line]) {
        var others: [Line] = [], order: [String] = [], values: [String: [ClusterTotal: Double]] = [:]
        // A database's most-common total: "Most common kind: fire (12 of 30)", as a file's card says it.
        let mostCommon = mostCommonTotals(facts, count: count)
        let kinds: [(suffix: String, kind: ClusterTotal)] = [("_sum", .sum), ("_mean", .mean), ("_min", .minimum), ("_max", .maximum)]
        for fact in facts where !clusterBookkeeping.contains(fact.name.lowercased()) && !mostCommon.names.contains(fact.name) {
            if case .number(let v) = fact.value, let k = kinds.first(where: { fact.name.hasSuffix($0.suffix) && fact.name.count > $0.suffix.count }) {
                let property = String(fact.name.dropLast(k.suffix.count))
                if values[property] == nil { order.append(property) }
                values[property, default: [:]][k.kind] = v
                continue
            }
            let text = PropertyFormat.text(fact.value)
            if text.isEmpty { continue }
            others.append(Line("\(DisplayText.line(PropertyFormat.words(fact.name), limit: 40)): \(DisplayText.line(text, limit: 120))"))
        }
        var totals: [Total] = mostCommon.totals
        for property in order {
            let v = values[property] ?? [:]
            guard let main = [ClusterTotal.sum, .mean, .maximum, .minimum].first(where: { v[$0] != nil }), let value = v[main] else { continue }
            let title = BubbleGrouping.totalTitle(FilterSettings.TotalSetting(kind: main, property: property))
            totals.append(Total(title: title, value: value, text: exact(value)))
            var rest: [String] = []
            if main != .minimum, main != .maximum, let lo = v[.minimum], let hi = v[.maximum] { rest.append("\(exact(lo)) – \(exact(hi))") }
            if main != .mean, let m = v[.mean] { rest.append("mean \(exact(m))") }
            if !rest.isEmpty { totals.append(Total(title: "Range", value: nil, text: rest.joined(separator: " · "))) }
        }
        return (totals, others)
    }
}

extension RemoteView {
    /// One thing a source says about a cluster: a property of a clustered tile's feature, or a
    /// database cell's total (`elevation_sum`).
    public struct Fact: Sendable, Equatable {
        public var name: String
        public var value: PropertyValue
        public init(_ name: String, _ value: PropertyValue) { self.name = name; self.value = value }
    }

    /// What the source said about a cluster of this view (empty: only its count).
    public func facts(of cluster: ClusterID) -> [Fact] { clusterFacts[cluster.rawValue] ?? [] }
}

extension RemoteView.Item {
    /// The item with a cluster's facts.
    public func with(facts: [RemoteView.Fact]) -> RemoteView.Item {
        var copy = self
        copy.facts = facts
        return copy
    }
}

extension BubbleCardContent {
    /// A database's most-common totals (`kind_most_common` = "fire", `kind_most_common_count` = 12):
    /// "Most common kind: fire (12 of 30)" with the bubble's count, the facts' names used.
    static func mostCommonTotals(_ facts: [RemoteView.Fact], count: Int?) -> (totals: [Total], names: Set<String>) {
        var totals: [Total] = [], names: Set<String> = []
        for fact in facts where fact.name.hasSuffix("_most_common") && fact.name.count > "_most_common".count {
            guard case .string(let value) = fact.value else { continue }
            let property = String(fact.name.dropLast("_most_common".count))
            var text = DisplayText.line(value)
            if let n = facts.first(where: { $0.name == fact.name + "_count" }), case .number(let c) = n.value {
                text += " (\(formatCount(Int(c)))" + (count.map { " of \(formatCount($0))" } ?? "") + ")"
                names.insert(n.name)
            }
            names.insert(fact.name)
            totals.append(Total(title: BubbleGrouping.totalTitle(FilterSettings.TotalSetting(kind: .mostCommon, property: property)),
                                value: nil, text: text))
        }
        return (totals, names)
    }
}
