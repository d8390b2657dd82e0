/// One property value of a place, as found in the file.
public enum PropertyValue: Sendable, Equatable, CustomStringConvertible {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    /// A nested JSON array or object, kept as its JSON text.
    case json(String)
    /// A date or date-time from a typed attribute (GDAL formats), as ISO 8601 text:
    /// `2024-03-01`, `2024-03-01T12:30:00Z` (UTC) or `2024-03-01T12:30:00` (zone unknown).
    case date(String)


    /// Text for showing to a person (numbers without a trailing ".0" when integral).
    public var description: String {
        switch self {
        case .string(let s): return s
        case .number(let d): return PropertyValue.format(d)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .json(let s): return s
        case .date(let s): return s
        }
    }

    /// The value as text when it is a string, number or bool; nil for null and nested values.
    public var text: String? {
        switch self {
        case .string(let s): return s
        case .number, .bool: return description
        case .date(let s): return s
        case .null, .json: return nil
        }
    }

    /// The value as a number when it is a number (or a string holding one).
    public var number: Double? {
        switch self {
        case .number(let d): return d
        case .string(let s): return Double(s)
        default: return nil
        }
    }

    /// A number as text: integral values without ".0".
    public static func plainText(_ d: Double) -> String { format(d) }

    static func format(_ d: Double) -> String {
        if d.isFinite && d == d.rounded() && abs(d) < 1e15 { return String(Int64(d)) }
        return String(d)
    }
}
