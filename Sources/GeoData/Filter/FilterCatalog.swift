/// What the filter panel shows of each property: its type (inferred, or the person's), how
/// many places have it, the values of a category with their counts, the range of a number or
/// date with a small histogram. Worked out off the GTK thread (AppSupport's `FilterEngine.catalog` for
/// files, PostGIS's `PostGISColumnCatalogReader` for tables — one shape for both, so the panel reads either).
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
