import ClusterCore

/// One condition of the filter panel, on one property: the values of a category ticked, a
/// range of a number or date, a text to contain, a boolean. Each becomes a chip over the map
/// and a piece of the filter grammar (`expression`), so the panel, the command line and the
/// event log say the same thing.
public struct FilterCondition: Equatable, Sendable {
    public enum Kind: Equatable, Sendable {
        /// The category's values that show (unticked ones are hidden).
        case oneOf([String])
        /// A number range (either end open).
        case numberRange(lower: Double?, upper: Double?)
        /// A date range in UTC seconds (either end open).
        case dateRange(lower: Double?, upper: Double?)
        /// The text contains this (ignoring case).
        case contains(String)
        /// The boolean is this.
        case isTrue(Bool)
    }

    public var property: String
    public var kind: Kind

    public init(property: String, kind: Kind) {
        self.property = property
        self.kind = kind
    }

    /// The condition in the filter grammar (`mag >= 6 and mag <= 9`, `type in ('a', 'b')`).
    public var expression: String {
        let name = Self.quotedName(property)
        switch kind {
        case .oneOf(let values):
            // Nothing ticked: nothing shows (the grammar has no empty list).
            if values.isEmpty { return "\(name) is null and not \(name) is null" }
            return "\(name) in (" + values.map(Self.quotedText).joined(separator: ", ") + ")"
        case .numberRange(let lo, let hi):
            return Self.range(name, lo.map(PropertyValue.plainText), hi.map(PropertyValue.plainText))
        case .dateRange(let lo, let hi):
            return Self.range(name, lo.map(DateText.text), hi.map(DateText.text))
        case .contains(let text): return "\(name) contains \(Self.quotedText(text))"
        case .isTrue(let b): return "\(name) = \(b)"
        }
    }

    /// What the chip over the map says (`mag 6–9`, `type: earthquake, explosion`).
    public var chipText: String {
        switch kind {
        case .oneOf(let values):
            let shown = values.prefix(3).joined(separator: ", ")
            return "\(property): " + (values.isEmpty ? "none" : shown + (values.count > 3 ? " +\(values.count - 3)" : ""))
        case .numberRange(let lo, let hi):
            return Self.rangeChip(property, lo.map(PropertyValue.plainText), hi.map(PropertyValue.plainText))
        case .dateRange(let lo, let hi):
            return Self.rangeChip(property, lo.map(DateText.text), hi.map(DateText.text))
        case .contains(let text): return "\(property) contains “\(text)”"
        case .isTrue(let b): return "\(property): \(b ? "yes" : "no")"
        }
    }

    private static func range(_ name: String, _ lo: String?, _ hi: String?) -> String {
        switch (lo, hi) {
        case let (l?, h?): return "\(name) >= \(l) and \(name) <= \(h)"
        case let (l?, nil): return "\(name) >= \(l)"
        case let (nil, h?): return "\(name) <= \(h)"
        case (nil, nil): return "not \(name) is null"
        }
    }

    private static func rangeChip(_ property: String, _ lo: String?, _ hi: String?) -> String {
        switch (lo, hi) {
        case let (l?, h?): return "\(property) \(l) – \(h)"
        case let (l?, nil): return "\(property) ≥ \(l)"
        case let (nil, h?): return "\(property) ≤ \(h)"
        case (nil, nil): return "\(property): any"
        }
    }

    /// A name as the grammar reads it: bare when it is a plain word, else in backticks.
    public static func quotedName(_ name: String) -> String {
        let plain = name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { $0.isLetter || $0.isNumber || "_-.:".contains($0) }
            && !FilterLexer.keywords.contains(name.lowercased())
        return plain ? name : "`" + name.replacingOccurrences(of: "`", with: "``") + "`"
    }

    /// A text as the grammar reads it: in single quotes, quotes doubled.
    public static func quotedText(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }
}

/// The filter panel's conditions (combined with and), as a value.
public struct FilterState: Equatable, Sendable {
    public private(set) var conditions: [FilterCondition] = []

    public init(conditions: [FilterCondition] = []) {
        for c in conditions { set(c) }
    }

    /// Sets the condition on its property (replacing one there was).
    public mutating func set(_ condition: FilterCondition) {
        if let k = conditions.firstIndex(where: { $0.property == condition.property }) {
            conditions[k] = condition
        } else {
            conditions.append(condition)
        }
    }

    /// Removes the condition on a property (a chip's close button).
    public mutating func remove(property: String) { conditions.removeAll { $0.property == property } }

    /// Removes every condition ("Clear").
    public mutating func clear() { conditions.removeAll() }

    /// The chips' texts, in the order the conditions were set.
    public var chips: [String] { conditions.map(\.chipText) }

    /// All conditions as one expression (nil when there are none): what the event log records.
    public var expression: String? {
        conditions.isEmpty ? nil : conditions.map { conditions.count > 1 ? "(\($0.expression))" : $0.expression }.joined(separator: " and ")
    }

    /// "12,345 of 1,000,000 places".
    public static func placesText(passing: Int, of total: Int) -> String {
        "\(formatCount(passing)) of \(formatCount(total)) place\(total == 1 ? "" : "s")"
    }
}

extension FilterEvaluator {
    /// The places that pass every condition of the panel; nil when there is none.
    /// - Throws: `FilterError` when a condition names a property the data doesn't have.
    public func selection(for state: FilterState) throws -> PointSelection? {
        guard let text = state.expression else { return nil }
        return try selection(for: text)
    }
}
