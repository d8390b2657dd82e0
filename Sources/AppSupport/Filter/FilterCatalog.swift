import GeoData

/// What the filter panel shows of each property: its type (inferred, or the person's), how
/// many places have it, the values of a category with their counts, the range of a number or
/// date with a small histogram. Worked out off the GTK thread (`FilterEngine.catalog`).
public struct FilterCatalog: Sendable, Equatable {
    /// One property.
    public struct Property: Sendable, Equatable {
        public var name: String
        /// The type it is read as now.
        public var type: PropertyType
        /// The type the data suggested.
        public var inferred: PropertyType
        /// Places with a usable value, and without one.
        public var present: Int
        public var missing: Int
        /// Category and boolean values with their counts, most common first.
        public var values: [ValueCount]
        /// Numbers and dates: the smallest and largest value.
        public var range: ClosedRange<Double>?
        /// Numbers and dates: counts in `FilterCatalog.bins` equal bins over `range`.
        public var histogram: [Int]

        public init(name: String, type: PropertyType, inferred: PropertyType, present: Int, missing: Int,
                    values: [ValueCount] = [], range: ClosedRange<Double>? = nil, histogram: [Int] = []) {
            self.name = name; self.type = type; self.inferred = inferred
            self.present = present; self.missing = missing
            self.values = values; self.range = range; self.histogram = histogram
        }
    }

    /// A value and how many places have it.
    public struct ValueCount: Sendable, Equatable {
        public var text: String
        public var count: Int
        public init(_ text: String, _ count: Int) { self.text = text; self.count = count }
    }

    /// The properties, in the data's order.
    public var properties: [Property]
    /// How many places there are.
    public var placeCount: Int

    /// Bars in a range's histogram.
    public static let bins = 24

    public init(properties: [Property], placeCount: Int) {
        self.properties = properties
        self.placeCount = placeCount
    }

    /// The property called `name`.
    public func property(_ name: String) -> Property? { properties.first { $0.name == name } }
}

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
