import GeoData

/// A long checklist's shortcuts (review-s16 finding 13: to keep one country of 246, 245 boxes
/// had to be unticked): "All" and "None" tick or untick every value matching the search box (all
/// values when it is empty), as QGIS's "Select all / none"; "only" on a value keeps just that
/// one, as kepler.gl's multi-select starts from one value.
extension FilterPanelModel {
    /// The values of `property` ticked under `settings` (every value when no condition names it).
    public static func ticked(_ property: String, catalog: FilterCatalog, settings: FilterSettings) -> Set<String> {
        guard let p = catalog.property(property) else { return [] }
        switch panelConditions(settings)[property]?.condition.kind {
        case .oneOf(let values)?: return Set(values)
        case .isTrue(let b)?: return [b ? "true" : "false"]
        default: return Set(p.values.map(\.text))
        }
    }

    /// Ticks (`on`) or unticks every value of `property` whose text contains `search` (ignoring
    /// case; "" for all); the values the search does not find keep their boxes.
    public static func tickingAll(_ on: Bool, of property: String, matching search: String,
                                  catalog: FilterCatalog, settings: FilterSettings) -> FilterSettings {
        guard let p = catalog.property(property) else { return settings }
        let needle = search.trimmingCharacters(in: .whitespaces).lowercased()
        let found = p.values.map(\.text).filter { needle.isEmpty || $0.lowercased().contains(needle) }
        var kept = ticked(property, catalog: catalog, settings: settings)
        if on { kept.formUnion(found) } else { kept.subtract(found) }
        return settingTicked(kept, of: p, settings: settings)
    }

    /// Keeps only `value` of `property` ticked.
    public static func tickingOnly(_ value: String, of property: String, catalog: FilterCatalog,
                                   settings: FilterSettings) -> FilterSettings {
        guard let p = catalog.property(property) else { return settings }
        return settingTicked([value], of: p, settings: settings)
    }

    /// `settings` with exactly `kept` ticked (all: no condition; one boolean: `is true/false`).
    static func settingTicked(_ kept: Set<String>, of p: FilterCatalog.Property, settings: FilterSettings) -> FilterSettings {
        let all = p.values.map(\.text)
        if Set(all).isSubset(of: kept) { return setting(nil, on: p.name, in: settings) }
        let values = all.filter(kept.contains)
        if p.type == .boolean, values.count == 1 {
            return setting(FilterCondition(property: p.name, kind: .isTrue(values[0] == "true")), on: p.name, in: settings)
        }
        return setting(FilterCondition(property: p.name, kind: .oneOf(values)), on: p.name, in: settings)
    }
}
