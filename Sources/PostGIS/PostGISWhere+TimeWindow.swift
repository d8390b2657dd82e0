import GeoData

extension PostGISWhere {
    /// `--since/--until` on a table as a condition in the filter grammar (then a parameterised
    /// WHERE like any other), meaning what they mean for files: from `since` on, up to `until`
    /// (a day without a time is the whole day). The time column is `timeColumn` (`--time`), else
    /// the table's only date or timestamp column. Nil when neither bound is given.
    /// - Throws: `PostGISError.badFilter` naming the option for a bad date or column.
    public static func timeWindow(since: String?, until: String?, timeColumn: String?, table: PostGISTable) throws -> String? {
        guard since != nil || until != nil else { return nil }
        let option = since != nil ? "since" : "until"
        func isTime(_ type: String) -> Bool { [.time, .localTime].contains(ColumnKind(type)) }
        let name: String
        if let t = timeColumn {
            guard let type = table.columns[t] else {
                throw PostGISError.badFilter("--time '\(t)': table \(table.displayName) has no column '\(t)'")
            }
            guard isTime(type) else { throw PostGISError.badFilter("--time '\(t)': column '\(t)' holds \(type), not dates") }
            name = t
        } else {
            let dated = table.columns.filter { isTime($0.value) }.map(\.key).sorted()
            guard dated.count == 1 else {
                throw PostGISError.badFilter(dated.isEmpty ? "--\(option): table \(table.displayName) has no date or timestamp column"
                    : "--\(option): table \(table.displayName) has several date columns (\(dated.joined(separator: ", "))); name one with --time")
            }
            name = dated[0]
        }
        let column = FilterCondition.quotedName(name)
        var parts: [String] = []
        if let s = since {
            guard let lo = DateText.seconds(s) else { throw PostGISError.badFilter("--since '\(s)': not a date (YYYY-MM-DD or ISO 8601)") }
            parts.append("\(column) >= \(DateText.text(lo))")
        }
        if let u = until {
            guard let hi = DateText.seconds(u) else { throw PostGISError.badFilter("--until '\(u)': not a date (YYYY-MM-DD or ISO 8601)") }
            // A day without a time means the whole day.
            parts.append(u.count <= 10 ? "\(column) < \(DateText.text(hi + 86400))" : "\(column) <= \(DateText.text(hi))")
        }
        return parts.joined(separator: " and ")
    }
}
