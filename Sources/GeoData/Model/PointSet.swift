import ClusterCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The places loaded from one file, stored for millions of points: flat arrays per point, a few
/// small columns per record, and the file's bytes for decoding other properties on demand.
///
/// A *record* is one usable GeoJSON feature or CSV row; a MultiPoint feature is one record with
/// several points. Every per-point accessor takes a point index `0..<count`.
public struct PointSet: Sendable {
    /// The kind of file the points came from.
    public enum Format: String, Sendable { case geoJSON, csv }

    /// The file's name (last path component).
    public let sourceName: String
    /// GeoJSON or CSV.
    public let format: Format
    /// The usable points, in file order.
    public let coordinates: [GeoCoordinate]
    /// For each point: the 0-based index of its GeoJSON feature (null-geometry features count;
    /// MultiPoint members share their feature's index) or of its CSV data row (0 = first row
    /// after the header; skipped rows count, blank lines do not).
    public let sourcePositions: [Int32]
    /// For each point: index into `categoryNames`, or −1 when it has no category.
    public let categoryIndices: [Int32]
    /// Distinct categories, in order of first appearance.
    public let categoryNames: [String]
    /// The numeric property read for every point (`LoadOptions.numericProperty`), if any.
    public let numericPropertyName: String?
    /// For each point: the numeric property's value, NaN when absent. Empty when no numeric
    /// property was asked for.
    public let numericValues: [Double]
    /// What was skipped and why.
    public let report: LoadReport

    // Per-record storage.
    let pointRecords: [Int32]
    let rawStarts: [Int]
    let rawEnds: [Int]
    let names: StringColumn
    let labels: StringColumn
    let descriptions: StringColumn
    let markerColors: StringColumn
    let idStarts: [Int]
    let idEnds: [Int]
    /// The whole file (NUL-padded), kept for lazy property decoding.
    let buffer: FileBuffer
    /// CSV only: column names, and which columns hold the coordinates.
    let csvHeader: [String]
    let csvCoordinateColumns: (latitude: Int, longitude: Int)
    let csvDelimiter: UInt8

    init(sourceName: String, format: Format, builder b: PointSetBuilder, numericPropertyName: String?,
         report: LoadReport, buffer: FileBuffer, csvHeader: [String] = [],
         csvCoordinateColumns: (Int, Int) = (-1, -1), csvDelimiter: UInt8 = 44) {
        self.sourceName = sourceName
        self.format = format
        self.coordinates = b.coordinates
        self.sourcePositions = b.sourcePositions
        self.categoryIndices = b.categoryIndices
        self.categoryNames = b.categories.names
        self.numericPropertyName = numericPropertyName
        self.numericValues = b.numericValues
        self.report = report
        self.pointRecords = b.pointRecords
        self.rawStarts = b.rawStarts
        self.rawEnds = b.rawEnds
        self.names = b.names
        self.labels = b.labels
        self.descriptions = b.descriptions
        self.markerColors = b.markerColors
        self.idStarts = b.idStarts
        self.idEnds = b.idEnds
        self.buffer = buffer
        self.csvHeader = csvHeader
        self.csvCoordinateColumns = csvCoordinateColumns
        self.csvDelimiter = csvDelimiter
    }

    /// Number of points.
    public var count: Int { coordinates.count }
    /// Whether there are no points.
    public var isEmpty: Bool { coordinates.isEmpty }

    /// The record (usable feature or row) that point `i` belongs to.
    @inline(__always)
    func record(_ i: Int) -> Int { pointRecords.isEmpty ? i : Int(pointRecords[i]) }

    /// The place's name (`name`, else `title`), or nil.
    public func name(at i: Int) -> String? { names.string(at: record(i)) }
    /// Short text drawn on the pin (`label`), e.g. a price; nil when absent.
    public func label(at i: Int) -> String? { labels.string(at: record(i)) }
    /// The `description` property, or nil.
    public func description(at i: Int) -> String? { descriptions.string(at: record(i)) }
    /// The simplestyle `marker-color` property (as written, e.g. "#ff8800"), or nil.
    public func markerColor(at i: Int) -> String? { markerColors.string(at: record(i)) }

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
    public var hasNames: Bool { names.hasValues }
    public var hasLabels: Bool { labels.hasValues }
    public var hasDescriptions: Bool { descriptions.hasValues }
    public var hasMarkerColors: Bool { markerColors.hasValues }
}

/// A file's bytes followed by zero padding, so scanners can read a few bytes past the end.
///
/// The storage is malloc'ed so a stream of unknown length can grow in place (`realloc`) while it
/// is read, and so a large file's untouched pages cost no memory.
final class FileBuffer: @unchecked Sendable {
    /// Padding after the content: enough for any look-ahead the scanners do.
    static let padding = 16
    /// Content bytes (excluding padding).
    let count: Int
    private let storage: UnsafeMutablePointer<UInt8>

    /// Immutable after `init`, hence Sendable.
    init(count: Int, fill: (UnsafeMutableBufferPointer<UInt8>) throws -> Int) rethrows {
        let s = FileBuffer.allocate(count + FileBuffer.padding)
        do {
            let n = try fill(UnsafeMutableBufferPointer(start: s, count: count))
            self.count = n
            (s + n).initialize(repeating: 0, count: count + FileBuffer.padding - n)
        } catch {
            free(s)
            throw error
        }
        storage = s
    }

    /// Takes over `storage` (from `allocate` / `realloc`, at least `count + padding` bytes) and
    /// zeroes the padding.
    init(adopting storage: UnsafeMutablePointer<UInt8>, count: Int) {
        (storage + count).initialize(repeating: 0, count: FileBuffer.padding)
        self.storage = storage
        self.count = count
    }

    convenience init(bytes: [UInt8]) {
        self.init(count: bytes.count) { dst in
            _ = dst.initialize(from: bytes)
            return bytes.count
        }
    }

    deinit { free(storage) }

    /// `malloc` that never returns nil (a failed allocation is not recoverable here).
    static func allocate(_ n: Int) -> UnsafeMutablePointer<UInt8> {
        guard let p = malloc(max(n, 1)) else { fatalError("out of memory allocating \(n) bytes") }
        return p.assumingMemoryBound(to: UInt8.self)
    }

    /// Start of the bytes; valid for `count + padding` reads while `self` is alive.
    var base: UnsafePointer<UInt8> { UnsafePointer(storage) }

    func withBytes<R>(_ body: (UnsafePointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(self) { try body(base) }
    }
}
