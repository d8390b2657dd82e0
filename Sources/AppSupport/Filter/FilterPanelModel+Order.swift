import GeoData

/// The order of the panel's rows (review-s16 finding 16): the person's real properties first,
/// id-like columns last — still there, but a `geonameid` histogram or a serial `id` no longer
/// sits above population, country or date. As QGIS and kepler.gl list every column, none is
/// hidden.
extension FilterPanelModel {
    /// `properties` in the data's order with id-like ones moved to the end (in their own order).
    /// A property the person has typed or filtered on stays where it was: they chose it.
    public static func ordered(_ properties: [FilterCatalog.Property], settings: FilterSettings) -> [FilterCatalog.Property] {
        let filtered = Set(panelConditions(settings).keys)
        func chosen(_ p: FilterCatalog.Property) -> Bool { settings.types[p.name] != nil || filtered.contains(p.name) }
        let ids = properties.filter { isIdLike($0) && !chosen($0) }
        guard !ids.isEmpty else { return properties }
        let names = Set(ids.map(\.name))
        return properties.filter { !names.contains($0.name) } + ids
    }

    /// An id: named `id` or ending in `id` (`_id`, `geonameid`, `fid`, `gid`) and not a yes/no or
    /// a date; or a whole number counting every place once (`1…N`, a serial key); or a category
    /// whose every value names a single place.
    public static func isIdLike(_ p: FilterCatalog.Property) -> Bool {
        let name = p.name.lowercased()
        if name.hasSuffix("id"), p.type != .boolean, p.type != .date { return true }
        switch p.type {
        case .number:
            guard let r = p.range, p.missing == 0, p.present > 1, r.lowerBound.rounded() == r.lowerBound,
                  r.upperBound.rounded() == r.upperBound else { return false }
            return r.upperBound - r.lowerBound + 1 == Double(p.present)
        case .category:
            return p.present > 20 && p.values.count == p.present && p.values.allSatisfy { $0.count == 1 }
        default:
            return false
        }
    }
}
