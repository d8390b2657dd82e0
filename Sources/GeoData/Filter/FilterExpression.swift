/// A parsed filter expression: conditions on properties combined with and / or / not.
///
/// The grammar (keywords are case-insensitive; `#` marks a comment here, not in expressions):
/// ```
/// expression := or
/// or         := and ( "or" and )*
/// and        := unary ( "and" unary )*
/// unary      := "not" unary | "(" expression ")" | condition
/// condition  := name comparison value          # mag >= 6, type = 'earthquake', time < 2011-03-12
///             | name ["not"] "in" "(" value ( "," value )* ")"   # type in ('quake', 'blast')
///             | name ["not"] "contains" text   # place contains 'japan' (ignores case)
///             | name "is" ["not"] "null"       # a missing (or null) value
/// comparison := "=" | "==" | "!=" | "<>" | "<" | "<=" | ">" | ">="
/// value      := number | text | date | "true" | "false" | word   # a bare word is a text
/// name       := a word (letters, digits, _ - . :, not starting with a digit) | `any text`
/// text       := 'single' or "double" quoted; a doubled quote or a backslash escapes one
/// date       := 2011-03-11 | 2011-03-11T05:46 | 2011-03-11T05:46:24.5Z | …+09:00 (UTC when no zone)
/// ```
/// A condition on a place that lacks the property (or has null) is false, whatever the
/// comparison (`!=` too); `not` then makes it true. Texts compare exactly (`=`, `in`) or by
/// Unicode order (`<`…); `contains` ignores case.
public indirect enum FilterExpression: Equatable, Sendable {
    case and(FilterExpression, FilterExpression)
    case or(FilterExpression, FilterExpression)
    case not(FilterExpression)
    /// `name op value`.
    case compare(FilterField, FilterComparison, FilterLiteral)
    /// `name in (values…)`.
    case isIn(FilterField, [FilterLiteral])
    /// `name contains 'text'` (case-insensitive).
    case contains(FilterField, FilterLiteral)
    /// `name is null`: the property is missing or null.
    case isMissing(FilterField)

    /// Every property name the expression reads, in order of first use.
    public var fieldNames: [String] {
        var names: [String] = []
        func walk(_ e: FilterExpression) {
            switch e {
            case .and(let a, let b), .or(let a, let b): walk(a); walk(b)
            case .not(let a): walk(a)
            case .compare(let f, _, _), .isIn(let f, _), .contains(let f, _), .isMissing(let f):
                if !names.contains(f.name) { names.append(f.name) }
            }
        }
        walk(self)
        return names
    }

    /// Parses `text`.
    /// - Throws: `FilterError` with the column of the first mistake.
    public static func parse(_ text: String) throws -> FilterExpression {
        var parser = FilterParser(tokens: try FilterLexer.tokens(text))
        return try parser.parseAll()
    }
}

/// A property named in an expression, with where it was written (for messages).
public struct FilterField: Equatable, Sendable {
    public var name: String
    /// 1-based column of the name.
    public var column: Int

    public init(name: String, column: Int) {
        self.name = name
        self.column = column
    }
}

/// A value written in an expression, with its column.
public struct FilterLiteral: Equatable, Sendable {
    public enum Value: Equatable, Sendable {
        case number(Double)
        case text(String)
        /// Seconds since 1970 UTC, and the text as written.
        case date(Double, String)
        case bool(Bool)
    }

    public var value: Value
    /// 1-based column of the value.
    public var column: Int

    public init(_ value: Value, column: Int) {
        self.value = value
        self.column = column
    }

    /// The value as a person wrote it.
    public var shown: String {
        switch value {
        case .number(let d): return PropertyValue.plainText(d)
        case .text(let s): return "'\(s)'"
        case .date(_, let s): return s
        case .bool(let b): return b ? "true" : "false"
        }
    }
}
