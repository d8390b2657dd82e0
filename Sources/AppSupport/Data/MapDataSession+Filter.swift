import ClusterCore
import GeoData

/// Filters on the session's places (issue 29): the property table over global point ids, the
/// inputs the index aggregates, and the index the map queries — the exact filtered clusters
/// (`FilteredClusters`) while a filter shows, the live index otherwise.
extension MapDataSession {
    /// The index the map shows and queries (bubbles, leaves, expansion, aggregates): the
    /// filtered clusters while a filter shows, else the live index of every place. Live updates
    /// still change `clusterer`; the filter is then worked out again.
    public var shownIndex: any PointClusterer { filtered?.index ?? clusterer }

    /// How many places the map shows (those passing the filter, or all).
    public var shownCount: Int { filtered?.passing ?? clusterer.count }

    /// Every property of every place as columns, by global point id (several files side by
    /// side; ids after live updates mapped to their records). Removed places have none.
    /// - Complexity: decodes every record's properties once (call off the GTK thread).
    public func propertyTable() -> PropertyTable {
        PropertyTable(count: pointCount) { id in
            if places.isRemoved(id) { return [] }
            let (src, local) = source(of: id)
            return src.points.properties(at: local)
        }
    }

    /// How many places the session shows unfiltered: those with coordinates that live updates
    /// did not remove (what the live index holds, counted without touching it: safe off the GTK
    /// thread while a live update changes the index).
    func placeCount() -> Int {
        var n = 0
        for id in 0..<pointCount where places.coordinates[id].isValid && !places.isRemoved(id) { n += 1 }
        return n
    }

    /// The places that are places of this session (not removed or superseded by live updates);
    /// nil when every id is one.
    func livePlaces() -> PointSelection? {
        guard places.localIndex != nil else { return nil }
        return PointSelection(count: pointCount) { !places.isRemoved($0) }
    }

    /// The categories and values the live index aggregates, by global id (as `init` gives them:
    /// a single file's own categories and numbers, or the file number for several files).
    func aggregateInputs() -> (categories: [Int32], values: [Double]) {
        let n = pointCount
        if sources.count > 1 {
            var categories = [Int32](repeating: -1, count: n)
            for (k, s) in sources.enumerated() {
                for i in s.firstIndex..<min(n, s.firstIndex + s.points.count) { categories[i] = Int32(k) }
            }
            return (categories, [])
        }
        guard let set = sources.first?.points else { return ([], []) }
        let own = set.categoryIndices
        let hasCategories = own.count == set.count && !own.allEqual(-1)
        let hasValues = set.numericValues.count == set.count
        guard let local = places.localIndex else {
            return (hasCategories ? own.array : [], hasValues ? set.numericValues : [])
        }
        let categories = hasCategories ? local.map { $0 >= 0 ? own[Int($0)] : -1 } : []
        let values = hasValues ? local.map { $0 >= 0 ? set.numericValues[Int($0)] : .nan } : []
        return (categories, values)
    }
}
