/// A schema-directed byte scanner for GeoJSON point files: a FeatureCollection, a single
/// Feature, or a sequence of Features (RFC 8142 text sequences, newline-delimited GeoJSON).
///
/// It knows the shape of a FeatureCollection, so it reads `geometry` and the interesting
/// properties directly and only validates-and-skips everything else; no JSON tree is built.
/// Members may come in any order. Every string is checked for UTF-8 (invalid bytes are an error
/// with a position). Nesting deeper than `maxDepth` is an error, so hostile input cannot
/// exhaust the stack.
///
/// The work is split by concern: the byte cursor (`+Lexing`), skipping values (`+Values`),
/// the document and its features (`+Features`), geometry (`+Geometry`), properties
/// (`+Properties`), turning a feature into points (`+Commit`) and error messages (`+Errors`).
struct GeoJSONReader {
    static let maxDepth = 256

    let p: UnsafePointer<UInt8>
    let end: Int
    var pos = 0
    let fileName: String
    /// The feature being read (for error messages), nil outside the `features` array.
    var featureIndex: Int?
    var builder: PointSetBuilder
    var report = LoadReport(unit: .features)
    var ticker: ProgressTicker
    let numericKey: [UInt8]?
    let categoryKey: [UInt8]?
    let categoryLabels: [String: String]
    /// Placement scratch for a non-point geometry (`GeoJSONPlacement`).
    var placedX: [Double] = []
    var placedY: [Double] = []
    /// MultiPoint scratch: positions of the current feature.
    var multiLon: [Double] = []
    var multiLat: [Double] = []
    var multiStatus: [PositionStatus] = []
    /// The feature being read.
    var cur = FeatureState()
    /// Set for a big file's top-level reader: the `features` array is then read on every core.
    var parallel: ParallelScan?
    /// The layout of the features read so far, when they share one (`FeatureLayout`), and its
    /// steps and fixed bytes (read through these, so reading a feature retains nothing).
    var layout: FeatureLayout? {
        didSet {
            layoutSteps = layout.map { UnsafeBufferPointer($0.steps) } ?? UnsafeBufferPointer(start: nil, count: 0)
            layoutFixed = layout.map { UnsafePointer($0.fixed.baseAddress!) }
            layoutPlain = layout?.plain.map { UnsafeBufferPointer($0.pieces) }
        }
    }
    /// `layout`'s pieces when its features keep no property value (`PlainLayout`).
    var layoutPlain: UnsafeBufferPointer<PlainLayout.Piece>?
    var layoutSteps = UnsafeBufferPointer<FeatureLayout.Step>(start: nil, count: 0)
    var layoutFixed: UnsafePointer<UInt8>?
    /// Features in a row that did not fit `layout`, and how many layouts were learnt.
    var layoutMisses = 0
    var layoutsLearnt = 0
    /// Points read by the plain path, on their way to `builder`.
    var plainBatch: PointBatch?
    /// Whether layouts are learnt at all (tests compare with the general reader alone).
    let learnsLayouts: Bool

    enum GeometryKind { case missing, null, point, multiPoint, other, untyped }
    enum CoordinateShape { case none, empty, position, positions, deeper }
    enum PositionStatus { case ok, tooFew, notANumber }

    /// Where a string's body lies in the buffer (between its quotes).
    struct Span {
        var start = -1
        var end = -1
        var escaped = false
        @inline(__always) var isSet: Bool { start >= 0 }
    }

    /// What one feature's members said, gathered in any order.
    struct FeatureState {
        /// Where the feature's `{` is: the record's offset, from which it is read again later.
        var start = -1
        var kind = GeometryKind.missing
        var shape = CoordinateShape.none
        var lon = 0.0
        var lat = 0.0
        var status = PositionStatus.tooFew
        var propsStart = -1
        var propsEnd = -1
        var idStart = -1
        var idEnd = -1
        /// The `geometry` object's bytes (read again by OGR when it is not a point).
        var geometryStart = -1
        var geometryEnd = -1
        var name = Span(), title = Span(), label = Span(), description = Span()
        var category = Span(), markerSymbol = Span(), markerColor = Span(), categoryOverride = Span()
        var numeric = Double.nan
    }

    init(bytes: UnsafePointer<UInt8>, count: Int, fileName: String, options: LoadOptions, ticker: ProgressTicker,
         expectedBytes: Int? = nil) {
        p = bytes
        end = count
        self.fileName = fileName
        self.ticker = ticker
        numericKey = options.numericProperty.map { Array($0.utf8) }
        categoryKey = options.categoryProperty.map { Array($0.utf8) }
        categoryLabels = options.categoryLabels
        learnsLayouts = options.learnsFeatureLayouts
        // About 100 bytes per point feature in typical files.
        builder = PointSetBuilder(wantsNumeric: options.numericProperty != nil,
                                  capacityHint: min((expectedBytes ?? count) / 100 + 16, 50_000_000))
    }

    /// The members of the feature whose `{` is at `offset` of an already scanned buffer (a
    /// record read again for its name or properties); nil if it no longer reads as one.
    static func feature(_ p: UnsafePointer<UInt8>, count: Int, at offset: Int) -> FeatureState? {
        guard offset >= 0 && offset < count && p[offset] == UInt8(ascii: "{") else { return nil }
        var reader = GeoJSONReader(bytes: p, count: count, fileName: "", options: LoadOptions(),
                                   ticker: .none, expectedBytes: 0)
        reader.pos = offset
        // Depth 0: never stricter than the first read, which found this feature at depth 1 or 2.
        guard (try? reader.parseFeatureMembers(depth: 0)) != nil else { return nil }
        return reader.cur
    }
}
