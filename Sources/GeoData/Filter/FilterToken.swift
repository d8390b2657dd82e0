/// One token of a filter expression, with the column it starts at.
struct FilterToken: Equatable, Sendable {
    enum Kind: Equatable, Sendable {
        /// A property name (bare, or quoted with backticks).
        case name(String)
        case number(Double)
        /// A quoted text ('…' or "…").
        case string(String)
        /// An unquoted date or date-time literal (`2011-03-11`, `2011-03-11T05:46:24Z`), in
        /// seconds since 1970 UTC.
        case date(Double, text: String)
        /// `=` `!=` `<` `<=` `>` `>=` (also `==` and `<>`).
        case comparison(FilterComparison)
        case leftParen, rightParen, comma
        /// A word the grammar reserves: and, or, not, in, contains, true, false, is, null.
        case keyword(String)
        case end
    }

    var kind: Kind
    /// 1-based character column.
    var column: Int
    /// How many characters the token spans (for messages).
    var length: Int

    /// How the token reads in a message.
    var shown: String {
        switch kind {
        case .name(let n): return "'\(n)'"
        case .number(let d): return "'\(PropertyValue.plainText(d))'"
        case .string(let s): return "'\(s)'"
        case .date(_, let text): return "'\(text)'"
        case .comparison(let c): return "'\(c.rawValue)'"
        case .leftParen: return "'('"
        case .rightParen: return "')'"
        case .comma: return "','"
        case .keyword(let k): return "'\(k)'"
        case .end: return "the end"
        }
    }
}

/// A comparison operator.
public enum FilterComparison: String, Sendable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="

    /// Whether `order` (the sign of left − right: −1, 0 or 1) satisfies the comparison.
    @inline(__always) func holds(_ order: Int) -> Bool {
        switch self {
        case .equal: return order == 0
        case .notEqual: return order != 0
        case .less: return order < 0
        case .lessOrEqual: return order <= 0
        case .greater: return order > 0
        case .greaterOrEqual: return order >= 0
        }
    }
}
