import GeoData

extension FilterEngine {
    /// The catalog of the session's properties read with the person's `types` (slow the first
    /// time: the properties are decoded then; call off the GTK thread).
    public func catalog(types: [String: PropertyType]) -> FilterCatalog {
        withEvaluator(types: types) { e in
            var properties: [FilterCatalog.Property] = []
            var inferredTypes: [String: PropertyType] = [:]
            for name in e.table.names { inferredTypes[name] = inferredType(of: name) }
            for name in e.table.names {
                guard let column = e.column(name) else { continue }
                var p = FilterCatalog.Property(name: name, type: column.type, inferred: inferredTypes[name] ?? column.type,
                                               present: column.profile.present - column.profile.mismatched,
                                               missing: column.profile.missing + column.profile.mismatched)
                switch column.type {
                case .category, .boolean:
                    p.values = column.textCounts().map { FilterCatalog.ValueCount($0.text, $0.count) }
                case .number, .date:
                    if let r = column.numberRange() {
                        p.range = r
                        p.histogram = column.histogram(bins: FilterCatalog.bins, over: r)
                    }
                case .text:
                    break
                }
                properties.append(p)
            }
            return FilterCatalog(properties: properties, placeCount: session.placeCount())
        }
    }
}
