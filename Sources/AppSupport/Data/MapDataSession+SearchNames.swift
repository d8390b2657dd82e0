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

    /// A search index of every place shown, by point id (call off the GTK thread for big sets).
    public func makePlaceSearch() -> PlaceSearch {
        let n = pointCount
        var names: [String?] = []
        names.reserveCapacity(n)
        for id in 0..<n { names.append(searchName(of: id)) }
        let weights = searchIsWeighted ? (0..<n).map(searchWeight(of:)) : []
        return PlaceSearch(names: names, weights: weights)
    }

    /// Brings a search index of the previous session up to date with a live change.
    public func update(_ search: inout PlaceSearch, with change: NameChanges) {
        for id in change.removed { search.remove(id) }
        let weighted = searchIsWeighted
        for id in change.named { search.update(id, name: searchName(of: id), weight: weighted ? searchWeight(of: id) : 0) }
    }
}
