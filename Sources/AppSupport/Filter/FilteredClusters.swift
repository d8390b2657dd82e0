import ClusterCore
import GeoData

/// A filter worked out over a session: the exact clusters of the passing places (kept apart by
/// the `--by` category if any, aggregating the file's own categories and values), the same
/// clusters aggregating the total's inputs (`--total`), and what the event log
/// and the map's "12,345 of 1,000,000 places" say about it.
public struct FilteredClusters: Sendable {
    /// What was asked.
    public let settings: FilterSettings
    /// Which places pass, their groups and the total's inputs, by global point id.
    public let result: FilterResult
    /// A fresh build of exactly the passing places (a `SubsetClusterer`; ids are global point
    /// ids), or for an interim the live index changed to them (`LiveSubsetIndex`, see `isInterim`).
    public let index: any PointClusterer
    /// The same build aggregating the total's inputs (nil without `--total`): its clusters and ids
    /// are `index`'s (same points, selection, groups and options), only the aggregates differ.
    public let totalIndex: (any PointClusterer)?
    /// How many places pass.
    public let passing: Int
    /// How many places there are.
    public let total: Int
    /// Every condition and the time window as one expression of the filter grammar ("" when
    /// nothing filters): what the `filter` event records.
    public let expression: String
    /// How long working it out took (evaluation and clustering; the property table's first
    /// decoding included when it happened then).
    public let milliseconds: Double
    /// For an interim (a small change shown at once from a live index, `FilterInterim`): how many
    /// places it added or removed; nil for an exact build.
    public internal(set) var changedPlaces: Int? = nil
    /// How an interim was made (nil: the exact build).
    public internal(set) var interimKind: FilterInterimKind? = nil

    /// Whether these clusters are an interim state, shown until the exact build replaces them:
    /// they keep every rule of the hierarchical algorithm but may group differently.
    public var isInterim: Bool { interimKind != nil }

    /// What `--total` totals over `item` (an item of `index`): its aggregates of the total's
    /// property (sum, mean, min, max, or category counts for most-common); nil without a total.
    public func totalAggregates(of item: ClusterItem) -> ClusterAggregates? {
        totalIndex?.aggregates(of: item)
    }

    /// "12,345 of 1,000,000 places".
    public var placesText: String { FilterState.placesText(passing: passing, of: total) }

    /// The conditions and the time window of `settings` as one expression; `timeProperty` is
    /// the date property the window read.
    public static func expression(of settings: FilterSettings, timeProperty: String?) -> String {
        var parts = settings.conditions
        if let t = timeProperty {
            let name = FilterCondition.quotedName(t)
            if let s = settings.since { parts.append("\(name) >= \(FilterCondition.quotedText(s))") }
            if let u = settings.until { parts.append("\(name) <= \(FilterCondition.quotedText(u))") }
        }
        if parts.count == 1 { return parts[0] }
        return parts.map { "(\($0))" }.joined(separator: " and ")
    }
}

/// How an interim frame was made (the `filter-interim` event's `kind`).
public enum FilterInterimKind: String, Sendable {
    /// A small change repaired into the live index of the places shown before (`LiveSubsetIndex`):
    /// near exact.
    case repair
    /// The unfiltered build of every place recounted over the passing places
    /// (`HierarchyRecount`): any change, in one pass; the unfiltered clusters thinned.
    case recount
}
