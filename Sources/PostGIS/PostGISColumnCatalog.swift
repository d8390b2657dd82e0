import GeoData

/// What the filter panel shows of a table's columns (issue 31 item 5), read from the server: each
/// column's type from the PostgreSQL catalogue (numbers, dates, texts, booleans; a text column with
/// few distinct values is a category), how many rows have a value, a category's values with their
/// counts (most common first), a number's or date's range with a histogram of equal bins. The app
/// turns it into the panel's `FilterCatalog` field for field.
///
/// Counts are exact over every row, or — for a big table (`PostGISColumnCatalogReader`) — scaled up
/// from a `TABLESAMPLE SYSTEM` sample of its pages: then `sampledPercent` says so and the window says
/// "about".
public struct PostGISColumnCatalog: Sendable, Equatable {
    /// One column: the panel's own description of a property (GeoData's `FilterCatalog`), its
    /// `inferred` type the one the server's type and the distinct values suggest.
    public typealias Column = FilterCatalog.Property
    /// A value and how many rows hold it.
    public typealias ValueCount = FilterCatalog.ValueCount

    /// The filterable columns in the table's order (geometry and unsupported types left out).
    public var columns: [Column]
    /// Rows with a geometry (the places), exact or estimated as the counts are.
    public var rowCount: Int
    /// nil: every count is exact; else the share of the table's pages read (percent), the counts
    /// scaled up from it.
    public var sampledPercent: Double?

    /// Whether the counts are estimates from a sample.
    public var isEstimate: Bool { sampledPercent != nil }

    public init(columns: [Column], rowCount: Int, sampledPercent: Double? = nil) {
        self.columns = columns
        self.rowCount = rowCount
        self.sampledPercent = sampledPercent
    }

    /// The column called `name`.
    public func column(_ name: String) -> Column? { columns.first { $0.name == name } }

    /// The panel's type for a server type: nil for types the filters don't read (geometry, json,
    /// arrays, bytea…). Texts start as `.text` (a category when few distinct values are found).
    public static func baseType(ofSQLType t: String) -> PropertyType? {
        switch PostGISWhere.ColumnKind(t) {
        case .number: return .number
        case .time, .localTime: return .date
        case .boolean: return .boolean
        case .text:
            let texts = ["text", "name", "citext", "uuid"]
            return texts.contains(t) || t.hasPrefix("character") ? .text : nil
        }
    }
}
