/// One condition on a column, turned into SQL with the value as a query parameter (never pasted
/// into the text) and the column as a quoted identifier checked against the table's columns.
public struct PostGISCondition: Sendable, Equatable {
    /// Comparison operators.
    public enum Operator: String, Sendable, CaseIterable {
        case equal = "=", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        /// Text containment, case-insensitive (`ILIKE` with the value's wildcards escaped).
        case contains = "~"
    }

    public var column: String
    public var op: Operator
    public var value: String

    /// A condition.
    public init(column: String, op: Operator, value: String) {
        self.column = column; self.op = op; self.value = value
    }

    /// Parses `column OP value` (OP one of = != < <= > >= ~); the value is everything after it.
    public init(parsing text: String) throws {
        // Longest operators first so that "<=" is not read as "<".
        let ops: [Operator] = [.lessOrEqual, .greaterOrEqual, .notEqual, .equal, .less, .greater, .contains]
        var best: (Range<String.Index>, Operator)?
        for op in ops {
            if let r = text.range(of: op.rawValue), best == nil || r.lowerBound < best!.0.lowerBound { best = (r, op) }
        }
        guard let (range, op) = best else {
            throw PostGISError.badFilter("'\(text)' has no operator (= != < <= > >= ~)")
        }
        let column = text[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        guard !column.isEmpty else { throw PostGISError.badFilter("'\(text)' names no column") }
        self.init(column: column, op: op, value: text[range.upperBound...].trimmingCharacters(in: .whitespaces))
    }

    /// The SQL condition with its value as parameter `$index`; numbers compare as numbers when the
    /// column is numeric, everything else as text.
    func sql(table: PostGISTable, quotedColumn: String, parameter index: Int) throws -> (sql: String, value: String) {
        guard let type = table.columns[column] else {
            throw PostGISError.badFilter("table \(table.displayName) has no column '\(column)'")
        }
        let numeric = ["smallint", "integer", "bigint", "real", "double precision"].contains(type) || type.hasPrefix("numeric")
        switch op {
        case .contains:
            let escaped = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_")
            return ("\(quotedColumn)::text ILIKE '%' || $\(index) || '%'", escaped)
        default:
            let sqlOp = op == .notEqual ? "<>" : op.rawValue
            if numeric {
                guard Double(value) != nil else {
                    throw PostGISError.badFilter("'\(value)' is not a number (column \(column) is \(type))")
                }
                return ("\(quotedColumn) \(sqlOp) $\(index)::float8", value)
            }
            return ("\(quotedColumn)::text \(sqlOp) $\(index)", value)
        }
    }
}
