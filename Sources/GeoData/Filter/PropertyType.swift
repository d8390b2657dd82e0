/// What a property holds, as the filter panel and the filter grammar treat it.
public enum PropertyType: String, Sendable, CaseIterable, Codable {
    /// Numbers (ranges, comparisons, totals).
    case number
    /// Dates and times (ISO 8601 text, or epoch seconds / milliseconds), as UTC seconds.
    case date
    /// Few distinct texts (a checklist with counts).
    case category
    /// Free text (contains).
    case text
    /// true / false.
    case boolean

    /// The type's name for several values, in messages ("holds numbers").
    public var plural: String { self == .category ? "categories" : rawValue + "s" }
}

/// How numbers in a date property count time.
public enum EpochUnit: String, Sendable, Codable {
    case seconds, milliseconds
}

/// What inference saw in one property's values (for the panel and for tests).
public struct PropertyProfile: Equatable, Sendable {
    /// Places with a value (not missing, not null).
    public var present = 0
    /// Places without the property, or with null.
    public var missing = 0
    /// Present values that don't fit the chosen type (they then count as missing in filters).
    public var mismatched = 0
    /// Distinct texts among the values (numbers and booleans counted by their text).
    public var distinctTexts = 0
    /// For a date property held as numbers: their unit.
    public var epochUnit: EpochUnit?
}
