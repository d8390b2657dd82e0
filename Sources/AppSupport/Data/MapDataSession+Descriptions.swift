import GeoData
import ClusterCore
import MapModel

/// Words for bubbles and places: tooltips, screen-reader names and list rows (SPEC §5.5, §5.7).
extension MapDataSession {
    /// What the data's places are called: the dataset's noun ("142 earthquakes"), "places" for files.
    public func noun(count: Int) -> String {
        let n = sources.count == 1 ? sources[0].dataset?.noun : nil
        return count == 1 ? n?.singular ?? "place" : n?.plural ?? "places"
    }

    /// "12 places, mostly museum" — the exact count, and the top category when one dominates
    /// (while a filter groups or totals: "… · Total damage: 1,234 · Kind: fire").
    public func summary(of item: ClusterItem) -> String {
        let count = item.count
        var text = "\(MapDataSession.formatted(count)) \(noun(count: count))"
        guard item.isCluster else { return text }
        let agg = shownIndex.aggregates(of: item)
        if let top = agg.categoryCounts.first, top.category >= 0, let name = categoryName(top.category) {
            let share = Double(top.count) / Double(max(1, agg.count))
            if share >= 0.5 { text += ", mostly \(name)" } else { text += ", including \(name)" }
        }
        // A remote source's own words for its bubble (its category, its totals).
        if let id = item.clusterID, let detail = remote?.detail(of: id) { text += ", " + detail }
        // Cluster by and totals (issue 29): the tooltip, the list rows and screen readers say them.
        if let line = grouping?.tooltipLine(of: SceneItemID(item)) { text += " · " + line }
        return text
    }

    /// The summary plus the first few names, the most important first when the data ranks its
    /// places (population, magnitude): "142 earthquakes\nM 8.6, M 7.9, M 7.5, M 7.4, …".
    public func tooltip(of item: ClusterItem, names limit: Int = 4) -> String {
        guard let id = item.clusterID else { return places.name(of: item.pointIndex ?? 0) }
        let leaves = mostImportantLeaves(of: id, limit: limit)
        var names = leaves.map { places.name(of: $0) }.joined(separator: ", ")
        if item.count > leaves.count { names += ", …" }
        return summary(of: item) + "\n" + names
    }

    /// Members looked at for the ranking (a hover on a 170k-city bubble stays quick).
    static let rankedLeavesLimit = 50_000

    /// Up to `limit` members of a cluster: the highest-ranked by the data's numeric property when
    /// it says importance (population, magnitude, rank), else the first in index order.
    public func mostImportantLeaves(of id: ClusterID, limit: Int) -> [Int] {
        guard sources.count == 1, let key = sources[0].points.numericPropertyName,
              let importance = PropertyFormat.importance(of: key) else {
            return shownIndex.leaves(of: id, limit: limit, offset: 0)
        }
        let points = sources[0].points
        let sign = importance == .largestFirst ? 1.0 : -1.0
        var best: [(index: Int, score: Double)] = []
        for leaf in shownIndex.leaves(of: id, limit: MapDataSession.rankedLeavesLimit, offset: 0) {
            let v = points.numericValue(at: leaf).map { $0 * sign } ?? -.infinity
            guard best.count < limit || v > best[best.count - 1].score else { continue }
            let at = best.firstIndex { v > $0.score } ?? best.count
            best.insert((leaf, v), at: at)
            if best.count > limit { best.removeLast() }
        }
        return best.map(\.index)
    }

    /// Name of an aggregate category: the file's category names, or the file names when several
    /// files are shown together.
    func categoryName(_ category: Int32) -> String? {
        let i = Int(category)
        if sources.count > 1 { return i < sources.count ? sources[i].points.sourceName : nil }
        let names = sources.first?.points.categoryNames ?? []
        return i < names.count ? names[i] : nil
    }

    /// 12,345 with a thousands separator (no Foundation locale dependence).
    public static func formatted(_ n: Int) -> String { formatCount(n) }
}

extension MapDataSession {
    /// The attribution line for the base map and the data shown (SPEC §2).
    public var attribution: String {
        var parts = ["© Natural Earth"]
        for s in sources {
            guard let a = s.dataset?.attribution else { continue }
            let short = MapDataSession.shortAttribution(a)
            if !parts.contains(short) { parts.append(short) }
        }
        return parts.joined(separator: " · ")
    }

    /// The few words of a dataset's credit that fit on the map (the full text is in About).
    static func shortAttribution(_ full: String) -> String {
        if full.contains("GeoNames") { return "GeoNames CC BY 4.0" }
        if full.contains("airportsdata") { return "airportsdata (MIT)" }
        if full.contains("USGS") { return "USGS" }
        return full
    }
}
