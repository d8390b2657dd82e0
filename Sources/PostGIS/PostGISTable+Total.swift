import ClusterCore

extension PostGISTable {
    /// Column types the server can sum (`format_type` names; `numeric(10,2)` starts with one).
    static let numberTypes = ["smallint", "integer", "bigint", "real", "double precision", "numeric", "decimal"]

    /// Why the bubbles can't total `kind` of `column` (`--total KIND:COLUMN`) on this table, in
    /// one line naming the column; nil when they can. The server gives each cell its column's
    /// sum, lowest, highest and rows with a value (so the mean too): most-common is a file's only.
    public func totalProblem(kind: ClusterTotal, column: String) -> String? {
        let option = "--total \(kind.rawValue):\(column)"
        guard let type = columns[column] else {
            return "\(option): table \(displayName) has no column '\(column)'; the bubbles show counts"
        }
        guard Self.numberTypes.contains(where: { type.hasPrefix($0) }) else {
            return "\(option): column '\(column)' of \(displayName) is \(type), not a number; the bubbles show counts"
        }
        guard [.sum, .mean, .minimum, .maximum].contains(kind) else {
            return "\(option): a table's bubbles total sum, mean, min or max of a column, not \(kind.rawValue); the bubbles show counts"
        }
        return nil
    }
}
