import ClusterCore

/// The questions asked of the data, as written on a command line (or saved with the state):
/// conditions, a time window, a category to cluster by and a total to show. Plain text here;
/// `FilterResult.apply(_:to:)` answers them over a point set's columns.
///
/// Options: `--where EXPR` (repeatable, combined with and), `--since DATE`, `--until DATE`
/// (inclusive; a date without a time means through the end of that day), `--time PROPERTY`
/// (which date property the window reads; default: the first one found), `--by PROPERTY`,
/// `--total KIND:PROPERTY` (KIND: sum, mean, min, max, most-common), `--type PROPERTY=TYPE`
/// (number, date, category, text, boolean).
public struct FilterSettings: Sendable, Equatable, Codable {
    /// Conditions in the filter grammar (`FilterExpression`), all of which must hold.
    public var conditions: [String] = []
    /// The time window's ends as written (ISO 8601 dates or date-times).
    public var since: String?
    public var until: String?
    /// The date property the window applies to (nil: the first date property).
    public var timeProperty: String?
    /// The category property whose values are clustered apart.
    public var groupProperty: String?
    /// What each bubble totals.
    public var total: TotalSetting?
    /// Types chosen by the person, by property name.
    public var types: [String: PropertyType] = [:]

    public init() {}

    /// A total of one property.
    public struct TotalSetting: Sendable, Equatable, Codable {
        public var kind: ClusterTotal
        public var property: String

        public init(kind: ClusterTotal, property: String) {
            self.kind = kind
            self.property = property
        }

        /// As written: `sum:deaths`.
        public var text: String { "\(kind.rawValue):\(property)" }
    }

    /// Whether nothing is asked (every place shows, mixed, with counts only).
    public var isEmpty: Bool {
        conditions.isEmpty && since == nil && until == nil && groupProperty == nil && total == nil
    }

    /// The option names (without `--`) this accepts, with value names and help.
    public static let options: [(name: String, value: String, help: String)] = [
        ("where", "EXPR", "Show only places where EXPR holds, e.g. 'mag >= 6 and type in (\"a\", \"b\")' (repeatable)"),
        ("since", "DATE", "Show only places at or after DATE (2011-01-01 or 2011-01-01T12:00:00Z)"),
        ("until", "DATE", "Show only places at or before DATE (a day: through its end)"),
        ("time", "PROPERTY", "The date property --since/--until read (default: the first date property)"),
        ("by", "PROPERTY", "Cluster each value of a category property apart"),
        ("total", "KIND:PROPERTY", "Total per bubble: sum, mean, min, max or most-common of PROPERTY"),
        ("type", "PROPERTY=TYPE", "Read PROPERTY as number, date, category, text or boolean"),
    ]

    /// Takes the value of option `name` (without `--`); false when `name` is not one of these.
    /// - Throws: `FilterSettingsError` for a value that can't be right whatever the data.
    public mutating func set(_ name: String, _ value: String) throws -> Bool {
        func bad(_ m: String) -> FilterSettingsError { FilterSettingsError(option: name, value: value, message: m) }
        switch name {
        case "where":
            do {
                _ = try FilterExpression.parse(value)
            } catch let e as FilterError {
                throw FilterSettingsError(option: name, value: value, message: e.description)
            }
            conditions.append(value)
        case "since", "until":
            guard DateText.seconds(value) != nil else {
                throw bad("not a date (write 2011-01-01 or 2011-01-01T12:00:00Z)")
            }
            if name == "since" { since = value } else { until = value }
        case "time": timeProperty = value
        case "by": groupProperty = value
        case "total":
            guard let colon = value.firstIndex(of: ":"), let kind = ClusterTotal(rawValue: String(value[..<colon]).lowercased()),
                  value.index(after: colon) < value.endIndex else {
                throw bad("expected KIND:PROPERTY with KIND one of \(ClusterTotal.allCases.map(\.rawValue).joined(separator: ", ")), e.g. sum:deaths")
            }
            total = TotalSetting(kind: kind, property: String(value[value.index(after: colon)...]))
        case "type":
            guard let eq = value.lastIndex(of: "="), let t = PropertyType(rawValue: String(value[value.index(after: eq)...]).lowercased()),
                  eq > value.startIndex else {
                throw bad("expected PROPERTY=TYPE with TYPE one of \(PropertyType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            types[String(value[..<eq])] = t
        default:
            return false
        }
        return true
    }
}

/// A question the data can't answer, or one written wrongly, in one line:
/// `--where 'mag >= ': column 8: expected a value after '>='`.
public struct FilterSettingsError: Error, Equatable, Sendable, CustomStringConvertible {
    public var option: String
    public var value: String
    public var message: String

    public init(option: String, value: String, message: String) {
        self.option = option
        self.value = value
        self.message = message
    }

    public var description: String { "--\(option) '\(value)': \(message)" }
}
