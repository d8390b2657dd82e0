import Foundation
import GeoData

/// A filter in the app's filter grammar (`GeoData.FilterExpression`: comparisons, `in`,
/// `contains`, `is null`, and/or/not, parentheses) as a parameterised SQL condition: every value
/// is a query parameter (never pasted into the text) and every name a quoted identifier checked
/// against the table's columns.
///
/// It means what the in-process evaluation means: a condition on a missing (NULL) value is false
/// whatever the comparison (`!=` too), and `not` then makes it true — each condition is wrapped in
/// `COALESCE(…, false)` so SQL's three-valued logic can't turn `not` into "unknown".
public struct PostGISWhere: Sendable, Equatable {
    /// The parsed filter.
    public let expression: FilterExpression

    /// A filter of an expression already parsed.
    public init(_ expression: FilterExpression) { self.expression = expression }

    /// Parses `text` (throws `badFilter` with the filter parser's message, which gives the column).
    public init(parsing text: String) throws {
        do {
            expression = try FilterExpression.parse(text)
        } catch {
            throw PostGISError.badFilter("\(error)")
        }
    }

    /// Several filters that must all hold (one `--where` each).
    public static func all(_ filters: [PostGISWhere]) -> PostGISWhere? {
        guard var e = filters.first?.expression else { return nil }
        for f in filters.dropFirst() { e = .and(e, f.expression) }
        return PostGISWhere(e)
    }

    /// The SQL condition, its parameters numbered from `first`, and their values.
    func sql(table: PostGISTable, quote: (String) throws -> String, firstParameter first: Int) throws -> (sql: String, values: [String]) {
        var values: [String] = []
        func parameter(_ v: String, _ cast: String = "") -> String {
            values.append(v)
            return "$\(first + values.count - 1)\(cast)"
        }
        func column(_ f: FilterField) throws -> (sql: String, kind: ColumnKind) {
            guard let type = table.columns[f.name] else {
                throw PostGISError.badFilter("table \(table.displayName) has no column '\(f.name)' (column \(f.column) of the filter)")
            }
            return (try quote(f.name), ColumnKind(type))
        }
        func walk(_ e: FilterExpression) throws -> String {
            switch e {
            case .and(let a, let b): return "(\(try walk(a)) AND \(try walk(b)))"
            case .or(let a, let b): return "(\(try walk(a)) OR \(try walk(b)))"
            case .not(let a): return "(NOT \(try walk(a)))"
            case .isMissing(let f): return "(\(try column(f).sql) IS NULL)"
            case .compare(let f, let op, let literal):
                let c = try column(f)
                let sqlOp = op == .notEqual ? "<>" : op.rawValue
                return "COALESCE(\(try Self.compare(c, sqlOp, literal, parameter)), false)"
            case .isIn(let f, let literals):
                let c = try column(f)
                let tests = try literals.map { try Self.compare(c, "=", $0, parameter) }
                return "COALESCE(" + (tests.isEmpty ? "false" : tests.joined(separator: " OR ")) + ", false)"
            case .contains(let f, let literal):
                let c = try column(f)
                let text: String
                switch literal.value {
                case .text(let s), .date(_, let s): text = s
                case .number, .bool: text = literal.shown
                }
                // ILIKE with the value's own wildcards escaped: it is looked for as written.
                let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                    .replacingOccurrences(of: "_", with: "\\_")
                return "COALESCE(\(c.sql)::text ILIKE '%' || \(parameter(escaped)) || '%', false)"
            }
        }
        return (try walk(expression), values)
    }

    /// What a column's type compares as.
    enum ColumnKind: Equatable {
        /// `time`: an instant (`timestamptz`); `localTime`: a wall-clock time or a day
        /// (`timestamp`, `date`), read as UTC like the dates of files.
        case number, time, localTime, boolean, text
        init(_ type: String) {
            if ["smallint", "integer", "bigint", "real", "double precision"].contains(type) || type.hasPrefix("numeric") {
                self = .number
            } else if type.hasPrefix("timestamp") && type.hasSuffix("with time zone") && !type.hasSuffix("without time zone") {
                self = .time
            } else if type.hasPrefix("timestamp") || type == "date" {
                self = .localTime
            } else if type == "boolean" {
                self = .boolean
            } else {
                self = .text
            }
        }
    }

    /// One comparison of a column with a literal (a parameter), by the column's kind.
    static func compare(_ c: (sql: String, kind: ColumnKind), _ op: String, _ literal: FilterLiteral,
                        _ parameter: (String, String) -> String) throws -> String {
        switch (c.kind, literal.value) {
        case (.number, .number(let d)):
            return "\(c.sql) \(op) \(parameter(String(d), "::float8"))"
        case (.time, .date(let seconds, _)):
            return "\(c.sql) \(op) to_timestamp(\(parameter(String(seconds), "::float8")))"
        case (.localTime, .date(let seconds, _)):
            // The instant's UTC wall-clock time, whatever the session's time zone.
            return "\(c.sql) \(op) (to_timestamp(\(parameter(String(seconds), "::float8"))) AT TIME ZONE 'UTC')"
        case (.boolean, .bool(let b)):
            return "\(c.sql) \(op) \(parameter(b ? "true" : "false", "::boolean"))"
        case (.text, .number(let d)):
            // A text column holding numbers compares as numbers where its text is one.
            let pattern = #"^\s*[-+]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?\s*$"#
            return "(CASE WHEN \(c.sql)::text ~ '\(pattern)' THEN (\(c.sql)::text)::float8 END) \(op) \(parameter(String(d), "::float8"))"
        case (.number, _), (.time, _), (.localTime, _), (.boolean, _):
            let kind = c.kind == .localTime ? "time" : "\(c.kind)"
            throw PostGISError.badFilter("\(literal.shown) can't be compared with a \(kind) column (column \(literal.column) of the filter)")
        case (.text, .text(let s)), (.text, .date(_, let s)):
            // Unicode (code point) order, as the in-process filters compare texts.
            return "\(c.sql)::text COLLATE \"C\" \(op) \(parameter(s, ""))"
        case (.text, .bool(let b)):
            return "\(c.sql)::text \(op) \(parameter(b ? "true" : "false", ""))"
        }
    }
}

extension PostGISWhere {
    /// Checks the filter against `table` without a server: every name must be a column and every
    /// value comparable with it. Throws `PostGISError.badFilter` naming the filter's column.
    public func check(against table: PostGISTable) throws {
        _ = try sql(table: table, quote: { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }, firstParameter: 1)
    }
}
