import ClusterCore

extension PostGISTable {
    /// Column types the server can sum (`format_type` names; `numeric(10,2)` starts with one).
    static let numberTypes = ["smallint", "integer", "bigint", "real", "double precision", "numeric", "decimal"]

    /// Column types without a most common value worth showing.
    static let valuelessTypes = ["geometry", "geography", "bytea", "json", "jsonb", "xml", "tsvector"]

    /// Why the bubbles can't total `kind` of `column` (`--total KIND:COLUMN`) on this table, in
    /// one line naming the column; nil when they can. The server gives each cell its column's
    /// sum, lowest, highest and rows with a value (so the mean too), or its rows per value (most-common).
    public func totalProblem(kind: ClusterTotal, column: String) -> String? {
        let option = "--total \(kind.rawValue):\(column)"
        guard let type = columns[column] else {
            return "\(option): table \(displayName) has no column '\(column)'; the bubbles show counts"
        }
        if kind == .mostCommon {
            // Any column's values compare as text (a category, a code, a number, a flag); a
            // geometry or a document has no "most common" worth a bubble.
            guard column != geometryColumn, !Self.valuelessTypes.contains(where: { type.hasPrefix($0) }) else {
                return "\(option): column '\(column)' of \(displayName) is \(type), not a category; the bubbles show counts"
            }
            return nil
        }
        guard Self.numberTypes.contains(where: { type.hasPrefix($0) }) else {
            return "\(option): column '\(column)' of \(displayName) is \(type), not a number; the bubbles show counts"
        }
        return nil
    }
}
