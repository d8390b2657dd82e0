import GeoData

extension FilterEngine {
    /// The catalog of the session's properties read with the person's `types` (slow the first
    /// time: the properties are decoded then; call off the GTK thread).
    public func catalog(types: [String: PropertyType]) -> FilterCatalog {
        withEvaluator(types: types) { e in
            var properties: [FilterCatalog.Property] = []
            var inferredTypes: [String: PropertyType] = [:]
            for name in e.table.names { inferredTypes[name] = inferredType(of: name) }
            // A property no place holds any more (a live update removed or emptied every place
            // that had it) is left out, as a fresh decoding of the same places would not list it.
            for name in e.table.names where e.table.profile(of: name)?.present != 0 {
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

    /// Every property as the filter reads it (decoded once, shared with the filter and warmed up
    /// after a load), with the person's `types`: what the time bar looks for dates in, so
    /// showing it does not decode the places a second time.
    public func propertyTable(types: [String: PropertyType]) -> PropertyTable {
        withEvaluator(types: types) { $0.table }
    }
}
