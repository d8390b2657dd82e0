import ClusterCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The places loaded from one file, stored for millions of points: per point only its coordinate
/// and the byte offset of its record in the file, which is kept (mapped, not copied, for a regular
/// file) so that names, properties and ids are decoded from it on demand
/// (`PointSet+Properties.swift`).
///
/// A *record* is one usable GeoJSON feature or CSV row; a MultiPoint feature is one record with
/// several points. Every per-point accessor takes a point index `0..<count`.
public struct PointSet: Sendable {
    /// The kind of file the points came from.
    public enum Format: String, Sendable { case geoJSON, csv, gdal }

    /// Which optional fields at least one record has.
    struct FieldsPresent: OptionSet, Sendable {
        let rawValue: UInt8
        static let name = FieldsPresent(rawValue: 1)
        static let label = FieldsPresent(rawValue: 2)
        static let description = FieldsPresent(rawValue: 4)
        static let markerColor = FieldsPresent(rawValue: 8)
    }

    /// Where a CSV file's special columns are (−1: none).
    struct CSVColumns: Sendable {
        var header: [String] = []
        var latitude = -1, longitude = -1
        var name = -1, label = -1, description = -1, markerColor = -1, id = -1
        var delimiter: UInt8 = 44
    }

    /// The file's name (last path component); "file · layer" for one layer of a file with several.
    public internal(set) var sourceName: String
    /// GeoJSON, CSV, or a format read through GDAL.
    public let format: Format
    /// The usable points, in file order.
    public let coordinates: [GeoCoordinate]
    /// For each point: the 0-based index of its GeoJSON feature (null-geometry features count;
    /// MultiPoint members share their feature's index) or of its CSV data row (0 = first row
    /// after the header; skipped rows count, blank lines do not).
    public let sourcePositions: Int32Column
    /// For each point: index into `categoryNames`, or −1 when it has no category.
    public let categoryIndices: Int32Column
    /// Distinct categories, in order of first appearance.
    public let categoryNames: [String]
    /// The numeric property read for every point (`LoadOptions.numericProperty`), if any.
    public let numericPropertyName: String?
    /// For each point: the numeric property's value, NaN when absent. Empty when no numeric
    /// property was asked for.
    public let numericValues: [Double]
    /// What was skipped and why.
    public private(set) var report: LoadReport

    /// For each point: where its record starts in `buffer`.
    let offsets: [UInt32]
    let fields: FieldsPresent
    /// The whole file (NUL-padded), kept for lazy property decoding.
    let buffer: FileBuffer
    /// CSV only.
    let csv: CSVColumns
    /// GDAL formats only: the features' typed attributes (a point's offset is its row), and
    /// which columns hold names, labels… (`Readers/GDAL`).
    let table: AttributeTable?
    let special: AttributeTable.SpecialColumns

    init(sourceName: String, format: Format, builder b: PointSetBuilder, numericPropertyName: String?,
         report: LoadReport, buffer: FileBuffer, csv: CSVColumns = CSVColumns()) {
        self.sourceName = sourceName
        self.format = format
        self.coordinates = b.coordinates
        self.sourcePositions = b.sourcePositions
        self.categoryIndices = b.categoryIndices
        self.categoryNames = b.categories.names
        self.numericPropertyName = numericPropertyName
        self.numericValues = b.numericValues
        self.report = report
        self.offsets = b.offsets
        self.fields = b.fields
        self.buffer = buffer
        self.csv = csv
        self.table = nil
        self.special = AttributeTable.SpecialColumns()
    }

    /// A layer read through GDAL: the builder's offsets are rows of `table`.
    init(sourceName: String, gdal b: PointSetBuilder, numericPropertyName: String?, report: LoadReport,
         table: AttributeTable, special: AttributeTable.SpecialColumns) {
        self.sourceName = sourceName
        self.format = .gdal
        self.coordinates = b.coordinates
        self.sourcePositions = b.sourcePositions
        self.categoryIndices = b.categoryIndices
        self.categoryNames = b.categories.names
        self.numericPropertyName = numericPropertyName
        self.numericValues = b.numericValues
        self.report = report
        self.offsets = b.offsets
        self.fields = b.fields
        self.buffer = FileBuffer(bytes: [])
        self.csv = CSVColumns()
        self.table = table
        self.special = special
    }

    /// Adds a remark to the load summary.
    mutating func appendWarning(_ text: String) { report.warnings.append(text) }

    /// Number of points.
    public var count: Int { coordinates.count }
    /// Whether there are no points.
    public var isEmpty: Bool { coordinates.isEmpty }

    /// Index into `categoryNames` of the point's category (`category`, else `marker-symbol`,
    /// or the property named by `LoadOptions.categoryProperty`), or nil.
    public func category(at i: Int) -> Int? {
        let c = categoryIndices[i]
        return c < 0 ? nil : Int(c)
    }

    /// The point's category name, or nil.
    public func categoryName(at i: Int) -> String? { category(at: i).map { categoryNames[$0] } }

    /// The numeric property's value for point `i`, nil when absent or not asked for.
    public func numericValue(at i: Int) -> Double? {
        guard !numericValues.isEmpty else { return nil }
        let v = numericValues[i]
        return v.isNaN ? nil : v
    }

    /// Whether any point has a name / label / description / marker colour.
    public var hasNames: Bool { fields.contains(.name) }
    public var hasLabels: Bool { fields.contains(.label) }
    public var hasDescriptions: Bool { fields.contains(.description) }
    public var hasMarkerColors: Bool { fields.contains(.markerColor) }

    /// Whether the bytes behind the points are still the ones that were read (a mapped file
    /// changed on disk since is no longer decoded: its places then have no names or properties).
    public var isSourceUnchanged: Bool { buffer.isUnchanged }
}
