import GeoData

/// The names the search field finds (SPEC §6), by point id: built once per session, then kept
/// up to date by live changes instead of rebuilt, so a removed place is never offered.
extension MapDataSession {
    /// Which names a live change touched: removed ids, and ids whose name is new (additions
    /// and renamed places).
    public struct NameChanges: Sendable, Equatable {
        public var removed: [Int] = []
        public var named: [Int] = []
        public init(removed: [Int] = [], named: [Int] = []) { self.removed = removed; self.named = named }
    }

    /// Whether search weighs names by population (some source has a population column).
    var searchIsWeighted: Bool {
        sources.contains { ($0.points.numericPropertyName ?? "").lowercased().contains("population") }
    }

    /// The search name of a point id: nil when the place was removed (or has no point).
    public func searchName(of id: Int) -> String? {
        guard id >= 0, id < pointCount, !places.isRemoved(id) else { return nil }
        let (src, local) = source(of: id)
        return src.points.name(at: local) ?? ""
    }

    /// The search weight of a point id (its population, when search is weighted).
    public func searchWeight(of id: Int) -> Double {
        guard id >= 0, id < pointCount, !places.isRemoved(id) else { return 0 }
        let (src, local) = source(of: id)
        guard (src.points.numericPropertyName ?? "").lowercased().contains("population"),
              src.points.numericValues.count == src.points.count else { return 0 }
        return src.points.numericValues[local]
    }

    /// A search index of every named place shown, by point id (call off the GTK thread for big
    /// sets). Only named places are indexed, decoded front to back from their files (a mapped
    /// file's pages go back to the page cache behind the pass): ten million unnamed points cost
    /// nothing.
    public func makePlaceSearch() -> PlaceSearch {
        var names: [String] = []
        var indices: [Int32] = []
        var weights: [Double] = []
        let weighted = searchIsWeighted
        for s in sources {
            let set = s.points
            let isPopulation = weighted && (set.numericPropertyName ?? "").lowercased().contains("population")
                && set.numericValues.count == set.count
            set.forEachName { i, name in
                let id = s.firstIndex + i
                guard let name, !name.isEmpty, !places.isRemoved(id) else { return }
                names.append(name)
                indices.append(Int32(id))
                if weighted { weights.append(isPopulation ? set.numericValues[i] : 0) }
            }
        }
        return PlaceSearch(names: names, pointIndices: indices, weights: weights)
    }

    /// Brings a search index of the previous session up to date with a live change.
    public func update(_ search: inout PlaceSearch, with change: NameChanges) {
        for id in change.removed { search.remove(id) }
        let weighted = searchIsWeighted
        for id in change.named { search.update(id, name: searchName(of: id), weight: weighted ? searchWeight(of: id) : 0) }
    }
}
