#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ClusterCore

/// A schema-directed byte scanner for GeoJSON point files: a FeatureCollection, a single
/// Feature, or a sequence of Features (RFC 8142 text sequences, newline-delimited GeoJSON).
///
/// It knows the shape of a FeatureCollection, so it reads `geometry` and the interesting
/// properties directly and only validates-and-skips everything else; no JSON tree is built.
/// Members may come in any order. Every string is checked for UTF-8 (invalid bytes are an error
/// with a position). Nesting deeper than `maxDepth` is an error, so hostile input cannot
/// exhaust the stack.
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
    /// MultiPoint scratch: positions of the current feature.
    var multiLon: [Double] = []
    var multiLat: [Double] = []
    var multiStatus: [PositionStatus] = []
    /// The feature being read.
    var cur = FeatureState()

    enum GeometryKind { case missing, null, point, multiPoint, other, untyped }
    enum CoordinateShape { case none, empty, position, positions, deeper }
    enum PositionStatus { case ok, tooFew, notANumber }

    struct Span {
        var start = -1
        var end = -1
        var escaped = false
        @inline(__always) var isSet: Bool { start >= 0 }
    }

    /// What one feature's members said, gathered in any order.
    struct FeatureState {
        var kind = GeometryKind.missing
        var shape = CoordinateShape.none
        var lon = 0.0
        var lat = 0.0
        var status = PositionStatus.tooFew
        var propsStart = -1
        var propsEnd = -1
        var idStart = -1
        var idEnd = -1
        var name = Span(), title = Span(), label = Span(), description = Span()
        var category = Span(), markerSymbol = Span(), markerColor = Span(), categoryOverride = Span()
        var numeric = Double.nan
    }

    // Property roles (bit set).
    static let roleName: UInt16 = 1, roleTitle: UInt16 = 2, roleLabel: UInt16 = 4
    static let roleDescription: UInt16 = 8, roleCategory: UInt16 = 16, roleMarkerSymbol: UInt16 = 32
    static let roleMarkerColor: UInt16 = 64, roleNumeric: UInt16 = 128, roleCategoryOverride: UInt16 = 256

    init(bytes: UnsafePointer<UInt8>, count: Int, fileName: String, options: LoadOptions, ticker: ProgressTicker) {
        p = bytes
        end = count
        self.fileName = fileName
        self.ticker = ticker
        numericKey = options.numericProperty.map { Array($0.utf8) }
        categoryKey = options.categoryProperty.map { Array($0.utf8) }
        categoryLabels = options.categoryLabels
        // About 100 bytes per point feature in typical files.
        builder = PointSetBuilder(wantsNumeric: options.numericProperty != nil,
                                  capacityHint: min(count / 100 + 16, 50_000_000))
    }

    // MARK: - Errors

    func error(_ message: String, at offset: Int? = nil, kind: GeoDataError.Kind = .syntax) -> GeoDataError {
        GeoDataError.at(offset ?? pos, in: p, count: end, kind: kind, fileName: fileName,
                        featureIndex: featureIndex, message: message)
    }

    /// "expected X", saying what was found instead (or that the file ends there).
    func expected(_ what: String) -> GeoDataError {
        if pos >= end { return error("expected \(what), but the file ends here (truncated?)") }
        return error("expected \(what), found \(describeByte(at: pos))")
    }

    func describeByte(at i: Int) -> String {
        let c = p[i]
        switch c {
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(c)))'"
        case 10: return "a line break"
        case 0x80...: return "a non-ASCII character"
        default: return "byte 0x\(String(c, radix: 16))"
        }
    }

    // MARK: - Lexical helpers

    @inline(__always)
    mutating func skipWhitespace() {
        while true {
            let c = p[pos]
            if c == 32 || c == 10 || c == 13 || c == 9 { pos += 1 } else { return }
        }
    }

    /// Scans a string whose opening quote is at `pos`; returns the body's range.
    @inline(__always)
    mutating func scanString() throws -> Span {
        pos += 1
        let start = pos
        var escaped = false
        while true {
            // Eight bytes at a time while none is a quote, backslash, control byte or non-ASCII
            // (SWAR; a false alarm only drops to the byte loop). Reading ahead is safe: the
            // buffer is padded, and the NUL padding stops the scan.
            while true {
                let x = UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self)
                let ones: UInt64 = 0x0101_0101_0101_0101
                let highs: UInt64 = 0x8080_8080_8080_8080
                let q = x ^ (ones &* 0x22)
                let b = x ^ (ones &* 0x5C)
                let special = (((q &- ones) & ~q) | ((b &- ones) & ~b) | (x &- ones &* 0x20) | x) & highs
                if special != 0 {
                    // The lowest flagged byte is always a real one: go straight to it.
                    pos += special.trailingZeroBitCount >> 3
                    break
                }
                pos += 8
            }
            let c = p[pos]
            if c == 34 {
                let e = pos
                pos += 1
                return Span(start: start, end: e, escaped: escaped)
            }
            if c == 92 {
                escaped = true
                try scanEscape()
            } else if c < 0x20 {
                if pos >= end { throw error("unterminated string, the file ends here (truncated?)") }
                throw error("control character (byte 0x\(String(c, radix: 16))) inside a string; it must be escaped")
            } else if c >= 0x80 {
                guard let n = UTF8Check.sequenceLength(p, at: pos) else {
                    throw error("invalid UTF-8 byte 0x\(String(c, radix: 16, uppercase: true)) in a string (the file must be UTF-8)",
                                kind: .invalidUTF8)
                }
                pos += n
            } else {
                pos += 1
            }
        }
    }

    mutating func scanEscape() throws {
        let e = p[pos + 1]
        switch e {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            pos += 2
        case UInt8(ascii: "u"):
            for j in 2..<6 where JSONStringDecoder.hexValue(p[pos + j]) == nil {
                throw error("invalid \\u escape in a string: expected 4 hex digits", at: pos)
            }
            pos += 6
        default:
            if pos + 1 >= end { throw error("unterminated string, the file ends here (truncated?)") }
            throw error("invalid escape '\\\(describeByte(at: pos + 1))' in a string")
        }
    }

    @inline(__always)
    mutating func expectByte(_ b: UInt8, _ what: @autoclosure () -> String) throws {
        guard p[pos] == b else { throw expected(what()) }
        pos += 1
    }

    mutating func expectLiteral(_ lit: StaticString) throws {
        let n = lit.utf8CodeUnitCount
        if pos + n <= end && memcmp(p + pos, lit.utf8Start, n) == 0 {
            pos += n
            return
        }
        throw expected("a JSON value")
    }

    /// Validates a number at `pos` without converting it.
    @inline(__always)
    mutating func skipNumber() throws {
        var i = pos
        if p[i] == UInt8(ascii: "-") { i += 1 }
        if p[i] == UInt8(ascii: "0") {
            i += 1
        } else if p[i] &- 49 < 9 {
            while p[i] &- 48 < 10 { i += 1 }
        } else {
            throw error("invalid number", at: pos)
        }
        if p[i] == UInt8(ascii: ".") {
            i += 1
            guard p[i] &- 48 < 10 else { throw error("invalid number: expected a digit after '.'", at: i) }
            while p[i] &- 48 < 10 { i += 1 }
        }
        if p[i] | 0x20 == UInt8(ascii: "e") {
            i += 1
            if p[i] == UInt8(ascii: "-") || p[i] == UInt8(ascii: "+") { i += 1 }
            guard p[i] &- 48 < 10 else { throw error("invalid number: expected a digit in the exponent", at: i) }
            while p[i] &- 48 < 10 { i += 1 }
        }
        pos = i
    }

    @inline(__always)
    mutating func scanNumber() throws -> Double {
        let r = FastDouble.scanJSONNumber(p, at: pos)
        guard r.ok else {
            if r.end >= end { throw error("invalid number: the file ends here (truncated?)", at: pos) }
            throw error("invalid number", at: pos)
        }
        pos = r.end
        return r.value
    }

    /// Validates and skips any JSON value at `pos`.
    mutating func skipValue(depth: Int) throws {
        switch p[pos] {
        case UInt8(ascii: "\""):
            _ = try scanString()
        case UInt8(ascii: "{"):
            guard depth < GeoJSONReader.maxDepth else { throw error("nesting deeper than \(GeoJSONReader.maxDepth) levels", kind: .tooLarge) }
            pos += 1
            skipWhitespace()
            if p[pos] == UInt8(ascii: "}") { pos += 1; return }
            while true {
                guard p[pos] == 34 else { throw expected("a member name in quotes") }
                _ = try scanString()
                skipWhitespace()
                try expectByte(UInt8(ascii: ":"), "':' after a member name")
                skipWhitespace()
                try skipValue(depth: depth + 1)
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "}") { pos += 1; return }
                throw expected("',' or '}' in an object")
            }
        case UInt8(ascii: "["):
            guard depth < GeoJSONReader.maxDepth else { throw error("nesting deeper than \(GeoJSONReader.maxDepth) levels", kind: .tooLarge) }
            pos += 1
            skipWhitespace()
            if p[pos] == UInt8(ascii: "]") { pos += 1; return }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "]") { pos += 1; return }
                throw expected("',' or ']' in an array")
            }
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try skipNumber()
        default:
            throw expected("a JSON value")
        }
    }

    // Helpers on the bytes are static: calling a non-mutating method of this large struct from
    // a mutating one makes Swift copy the whole struct.

    /// The decoded bytes of a key with escapes (rare), followed by 16 bytes of padding.
    static func paddedKeyBytes(_ p: UnsafePointer<UInt8>, _ s: Span) -> [UInt8] {
        var out: [UInt8] = []
        JSONStringDecoder.decode(p, from: s.start, to: s.end, into: &out)
        return out + [UInt8](repeating: 0, count: 16)
    }

    /// Is the member name `s` (decoded) equal to `key`?
    @inline(__always)
    static func keyIs(_ p: UnsafePointer<UInt8>, _ s: Span, _ key: KeyWord) -> Bool {
        if !s.escaped { return key.matches(p, s.start, s.end - s.start) }
        let k = paddedKeyBytes(p, s)
        return k.withUnsafeBufferPointer { key.matches($0.baseAddress!, 0, k.count - 16) }
    }

    // MARK: - Document

    mutating func parse() throws {
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { pos = 3 }
        skipSequenceSeparators()
        if pos >= end { throw GeoDataError(kind: .empty, fileName: fileName, message: "the file is empty") }
        guard p[pos] == UInt8(ascii: "{") else {
            throw error("not a GeoJSON object: expected '{' at the start, found \(describeByte(at: pos))", kind: .notGeoJSON)
        }
        pos += 1
        skipWhitespace()
        var topType: String?
        var sawFeatures = false
        cur = FeatureState()
        if p[pos] != UInt8(ascii: "}") {
            while true {
                guard p[pos] == 34 else { throw expected("a member name in quotes") }
                let key = try scanString()
                skipWhitespace()
                try expectByte(UInt8(ascii: ":"), "':' after a member name")
                skipWhitespace()
                if GeoJSONReader.keyIs(p, key, .type) {
                    guard p[pos] == 34 else { throw error("\"type\" must be a string", kind: .notGeoJSON) }
                    let s = try scanString()
                    topType = JSONStringDecoder.string(p, from: s.start, to: s.end, hasEscapes: s.escaped)
                } else if GeoJSONReader.keyIs(p, key, .features) {
                    guard p[pos] == UInt8(ascii: "[") else {
                        throw error("\"features\" must be an array, found \(describeByte(at: pos))", kind: .notGeoJSON)
                    }
                    let topLevelFeature = cur   // the members of a top-level Feature, if any
                    try parseFeatures()
                    cur = topLevelFeature
                    sawFeatures = true
                } else if try !parseFeatureMember(key, depth: 1) {
                    try skipValue(depth: 1)
                }
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "}") { break }
                throw expected("',' or '}' after a member of the top-level object")
            }
        }
        pos += 1
        skipSequenceSeparators()
        if pos < end {
            guard topType == "Feature" && p[pos] == UInt8(ascii: "{") else {
                throw error("unexpected \(describeByte(at: pos)) after the end of the GeoJSON object")
            }
            try parseFeatureSequence()
            return
        }
        switch topType {
        case "FeatureCollection":
            guard sawFeatures else {
                throw GeoDataError(kind: .notGeoJSON, fileName: fileName, message: "a FeatureCollection without a \"features\" array")
            }
        case "Feature":
            featureIndex = 0
            report.itemsRead = 1
            commit(position: 0)
        case nil:
            guard sawFeatures else {
                throw GeoDataError(kind: .notGeoJSON, fileName: fileName,
                                   message: "not GeoJSON: the top-level object has no \"type\" and no \"features\"")
            }
        case let t?:
            throw GeoDataError(kind: .notGeoJSON, fileName: fileName,
                               message: "not a GeoJSON FeatureCollection or Feature (the top-level type is \"\(t)\")")
        }
        report.pointsLoaded = builder.coordinates.count
    }

    /// White space, and the record separators (0x1E) of GeoJSON text sequences (RFC 8142).
    mutating func skipSequenceSeparators() {
        skipWhitespace()
        while p[pos] == 0x1E {
            pos += 1
            skipWhitespace()
        }
    }

    /// A GeoJSON text sequence (RFC 8142) or newline-delimited GeoJSON: one Feature after
    /// another. The first one, already read as the top-level object, is feature 0.
    mutating func parseFeatureSequence() throws {
        featureIndex = 0
        commit(position: 0)
        featureIndex = nil
        var index = 1
        while pos < end {
            guard p[pos] == UInt8(ascii: "{") else {
                throw expected("a Feature object '{' (the file is a sequence of GeoJSON features)")
            }
            featureIndex = index
            try parseFeature(position: index)
            featureIndex = nil
            index += 1
            try ticker.tick(pos)
            skipSequenceSeparators()
        }
        report.itemsRead = index
        report.pointsLoaded = builder.coordinates.count
    }

    mutating func parseFeatures() throws {
        pos += 1
        skipWhitespace()
        var index = 0
        if p[pos] == UInt8(ascii: "]") { pos += 1; return }
        while true {
            featureIndex = index
            guard p[pos] == UInt8(ascii: "{") else { throw expected("a feature object '{'") }
            try parseFeature(position: index)
            featureIndex = nil
            index += 1
            try ticker.tick(pos)
            skipWhitespace()
            let c = p[pos]
            if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
            if c == UInt8(ascii: "]") { pos += 1; break }
            throw expected("',' or ']' after a feature")
        }
        report.itemsRead += index
        featureIndex = nil
    }

    mutating func parseFeature(position: Int) throws {
        pos += 1
        skipWhitespace()
        cur = FeatureState()
        if p[pos] != UInt8(ascii: "}") {
            while true {
                guard p[pos] == 34 else { throw expected("a member name in quotes") }
                let key = try scanString()
                skipWhitespace()
                try expectByte(UInt8(ascii: ":"), "':' after a member name")
                skipWhitespace()
                if try !parseFeatureMember(key, depth: 2) {
                    try skipValue(depth: 2)
                }
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "}") { break }
                throw expected("',' or '}' after a member of the feature")
            }
        }
        pos += 1
        commit(position: position)
    }

    /// Reads `geometry`, `properties` or `id`; returns false for other members (not consumed).
    mutating func parseFeatureMember(_ key: Span, depth: Int) throws -> Bool {
        let n = key.end - key.start
        let esc = key.escaped
        if (esc || n == 8) && GeoJSONReader.keyIs(p, key, .geometry) {
            try parseGeometry(depth: depth + 1)
            return true
        }
        if (esc || n == 10) && GeoJSONReader.keyIs(p, key, .properties) {
            let c = p[pos]
            if c == UInt8(ascii: "{") {
                try parseProperties(depth: depth + 1)
            } else if c == UInt8(ascii: "n") {
                try expectLiteral("null")
            } else {
                throw expected("\"properties\" to be an object or null")
            }
            return true
        }
        if (esc || n == 2) && GeoJSONReader.keyIs(p, key, .id) {
            let s = pos
            let c = p[pos]
            try skipValue(depth: depth + 1)
            // Only string and number ids are kept (RFC 7946 §3.2); others are ignored.
            if c == 34 || c == UInt8(ascii: "-") || c &- 48 < 10 {
                cur.idStart = s
                cur.idEnd = pos
            }
            return true
        }
        return false
    }

    // MARK: - Geometry

    mutating func parseGeometry(depth: Int) throws {
        let c = p[pos]
        if c == UInt8(ascii: "n") {
            try expectLiteral("null")
            cur.kind = .null
            return
        }
        guard c == UInt8(ascii: "{") else { throw expected("\"geometry\" to be an object or null") }
        pos += 1
        skipWhitespace()
        cur.kind = .untyped
        if p[pos] == UInt8(ascii: "}") { pos += 1; return }
        while true {
            guard p[pos] == 34 else { throw expected("a member name in quotes") }
            let key = try scanString()
            skipWhitespace()
            try expectByte(UInt8(ascii: ":"), "':' after a member name")
            skipWhitespace()
            if GeoJSONReader.keyIs(p, key, .type) {
                guard p[pos] == 34 else { throw expected("the geometry \"type\" to be a string") }
                let t = try scanString()
                if KeyWord.point.matches(p, t.start, t.end - t.start) { cur.kind = .point }
                else if KeyWord.multiPoint.matches(p, t.start, t.end - t.start) { cur.kind = .multiPoint }
                else { cur.kind = .other }
            } else if GeoJSONReader.keyIs(p, key, .coordinates) {
                try parseCoordinates(depth: depth + 1)
            } else {
                try skipValue(depth: depth + 1)
            }
            skipWhitespace()
            let c = p[pos]
            if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
            if c == UInt8(ascii: "}") { pos += 1; return }
            throw expected("',' or '}' after a member of the geometry")
        }
    }

    mutating func parseCoordinates(depth: Int) throws {
        let c = p[pos]
        if c == UInt8(ascii: "n") {
            try expectLiteral("null")
            cur.shape = .none
            return
        }
        guard c == UInt8(ascii: "[") else { throw expected("\"coordinates\" to be an array") }
        pos += 1
        skipWhitespace()
        let first = p[pos]
        if first == UInt8(ascii: "]") {
            pos += 1
            cur.shape = .empty
            return
        }
        if first != UInt8(ascii: "[") {
            let r = try parsePosition(depth: depth + 1)
            cur.shape = .position
            cur.lon = r.lon
            cur.lat = r.lat
            cur.status = r.status
            return
        }
        // An array of positions (MultiPoint, LineString) or deeper (polygons).
        multiLon.removeAll(keepingCapacity: true)
        multiLat.removeAll(keepingCapacity: true)
        multiStatus.removeAll(keepingCapacity: true)
        cur.shape = .positions
        while true {
            guard p[pos] == UInt8(ascii: "[") else {
                if cur.shape == .deeper { try skipValue(depth: depth + 1) } else { throw expected("a position '['") }
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "]") { pos += 1; return }
                throw expected("',' or ']' in coordinates")
            }
            let elementStart = pos
            pos += 1
            skipWhitespace()
            if cur.shape == .deeper || p[pos] == UInt8(ascii: "[") {
                cur.shape = .deeper
                pos = elementStart
                try skipValue(depth: depth + 1)
            } else {
                let r = try parsePosition(depth: depth + 2)
                multiLon.append(r.lon)
                multiLat.append(r.lat)
                multiStatus.append(r.status)
                try ticker.tick(pos)   // one huge MultiPoint still reports progress and can be cancelled
            }
            skipWhitespace()
            let c = p[pos]
            if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
            if c == UInt8(ascii: "]") { pos += 1; return }
            throw expected("',' or ']' after a position")
        }
    }

    /// Reads the elements of a position; `pos` is just inside its '['.
    @inline(__always)
    mutating func parsePosition(depth: Int) throws -> (lon: Double, lat: Double, status: PositionStatus) {
        var n = 0
        var lon = 0.0, lat = 0.0
        var status = PositionStatus.ok
        if p[pos] == UInt8(ascii: "]") { pos += 1; return (0, 0, .tooFew) }
        while true {
            let c = p[pos]
            if c == UInt8(ascii: "-") || c &- 48 < 10 {
                let v = try scanNumber()
                if n == 0 { lon = v } else if n == 1 { lat = v }
            } else {
                if n < 2 && status == .ok { status = c == UInt8(ascii: "n") ? .tooFew : .notANumber }
                try skipValue(depth: depth)
            }
            n += 1
            skipWhitespace()
            let d = p[pos]
            if d == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
            if d == UInt8(ascii: "]") { pos += 1; break }
            throw expected("',' or ']' after a coordinate")
        }
        if n < 2 { status = .tooFew }
        return (lon, lat, status)
    }

    // MARK: - Properties

    @inline(__always)
    static func role(_ p: UnsafePointer<UInt8>, of key: Span, _ numericKey: [UInt8]?, _ categoryKey: [UInt8]?) -> UInt16 {
        if key.escaped {
            let padded = paddedKeyBytes(p, key)
            return padded.withUnsafeBufferPointer {
                role(bytes: $0.baseAddress!, count: padded.count - 16, numericKey, categoryKey)
            }
        }
        return role(bytes: p + key.start, count: key.end - key.start, numericKey, categoryKey)
    }

    @inline(__always)
    static func role(bytes k: UnsafePointer<UInt8>, count n: Int, _ numericKey: [UInt8]?, _ categoryKey: [UInt8]?) -> UInt16 {
        var r: UInt16 = 0
        switch n {
        case 4: if KeyWord.name.matches(k, 0, n) { r = GeoJSONReader.roleName }
        case 5:
            if KeyWord.title.matches(k, 0, n) { r = GeoJSONReader.roleTitle }
            else if KeyWord.label.matches(k, 0, n) { r = GeoJSONReader.roleLabel }
        case 8: if KeyWord.category.matches(k, 0, n) { r = GeoJSONReader.roleCategory }
        case 11: if KeyWord.description.matches(k, 0, n) { r = GeoJSONReader.roleDescription }
        case 12: if KeyWord.markerColor.matches(k, 0, n) { r = GeoJSONReader.roleMarkerColor }
        case 13: if KeyWord.markerSymbol.matches(k, 0, n) { r = GeoJSONReader.roleMarkerSymbol }
        default: break
        }
        if let nk = numericKey, nk.count == n, nk.withUnsafeBufferPointer({ memcmp($0.baseAddress!, k, n) == 0 }) {
            r |= GeoJSONReader.roleNumeric
        }
        if let ck = categoryKey, ck.count == n, ck.withUnsafeBufferPointer({ memcmp($0.baseAddress!, k, n) == 0 }) {
            r |= GeoJSONReader.roleCategoryOverride
        }
        return r
    }

    mutating func parseProperties(depth: Int) throws {
        let start = pos
        pos += 1
        skipWhitespace()
        if p[pos] != UInt8(ascii: "}") {
            while true {
                guard p[pos] == 34 else { throw expected("a property name in quotes") }
                let key = try scanString()
                skipWhitespace()
                try expectByte(UInt8(ascii: ":"), "':' after a property name")
                skipWhitespace()
                let r = GeoJSONReader.role(p, of: key, numericKey, categoryKey)
                if r == 0 {
                    try skipValue(depth: depth + 1)
                } else {
                    try readPropertyValue(role: r, depth: depth + 1)
                }
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "}") { break }
                throw expected("',' or '}' after a property")
            }
        }
        pos += 1
        cur.propsStart = start
        cur.propsEnd = pos
    }

    mutating func readPropertyValue(role r: UInt16, depth: Int) throws {
        let c = p[pos]
        var span = Span()
        if c == 34 {
            span = try scanString()
            if r & GeoJSONReader.roleNumeric != 0 && !span.escaped {
                cur.numeric = FastDouble.parseLenient(p + span.start, count: span.end - span.start) ?? .nan
            }
        } else if c == UInt8(ascii: "-") || c &- 48 < 10 {
            let s = pos
            let v = try scanNumber()
            span = Span(start: s, end: pos, escaped: false)
            if r & GeoJSONReader.roleNumeric != 0 { cur.numeric = v }
        } else if c == UInt8(ascii: "t") || c == UInt8(ascii: "f") {
            let s = pos
            try skipValue(depth: depth)
            span = Span(start: s, end: pos, escaped: false)
        } else {
            try skipValue(depth: depth)
            return
        }
        if r & GeoJSONReader.roleName != 0 { cur.name = span }
        if r & GeoJSONReader.roleTitle != 0 { cur.title = span }
        if r & GeoJSONReader.roleLabel != 0 { cur.label = span }
        if r & GeoJSONReader.roleDescription != 0 { cur.description = span }
        if r & GeoJSONReader.roleCategory != 0 { cur.category = span }
        if r & GeoJSONReader.roleMarkerSymbol != 0 { cur.markerSymbol = span }
        if r & GeoJSONReader.roleMarkerColor != 0 { cur.markerColor = span }
        if r & GeoJSONReader.roleCategoryOverride != 0 { cur.categoryOverride = span }
    }

    // MARK: - Committing a feature

    @inline(__always)
    static func validate(lon: Double, lat: Double, status: PositionStatus) -> LoadReport.SkipReason? {
        switch status {
        case .tooFew: return .noCoordinates
        case .notANumber: return .notANumber
        case .ok:
            if lon.isNaN || lat.isNaN { return .notANumber }
            if !(abs(lat) <= 90 && abs(lon) <= 180) { return .outOfRange }
            return nil
        }
    }

    mutating func commit(position: Int) {
        switch cur.kind {
        case .missing, .null:
            report.skip(.nullGeometry, at: position)
        case .other, .untyped:
            report.skip(.unsupportedGeometry, at: position)
        case .point:
            guard cur.shape == .position else {
                report.skip(cur.shape == .deeper || cur.shape == .positions ? .unsupportedGeometry : .noCoordinates, at: position)
                return
            }
            if let reason = GeoJSONReader.validate(lon: cur.lon, lat: cur.lat, status: cur.status) {
                report.skip(reason, at: position)
                return
            }
            let (cat, num) = beginRecord()
            builder.addPoint(GeoCoordinate(latitude: cur.lat, longitude: cur.lon), record: builder.recordCount - 1,
                             position: position, category: cat, numeric: num)
        case .multiPoint:
            guard cur.shape == .positions else {
                report.skip(cur.shape == .deeper ? .unsupportedGeometry : .noCoordinates, at: position)
                return
            }
            var record = -1
            var cat: Int32 = -1
            var num = Double.nan
            for k in multiLon.indices {
                if let reason = GeoJSONReader.validate(lon: multiLon[k], lat: multiLat[k], status: multiStatus[k]) {
                    report.skip(reason, at: position)
                    continue
                }
                if record < 0 {
                    (cat, num) = beginRecord()
                    record = builder.recordCount - 1
                }
                builder.addPoint(GeoCoordinate(latitude: multiLat[k], longitude: multiLon[k]), record: record,
                                 position: position, category: cat, numeric: num)
            }
        }
    }

    /// Appends the record's columns; returns its category index and numeric value.
    mutating func beginRecord() -> (Int32, Double) {
        _ = builder.beginRecord(rawStart: cur.propsStart, rawEnd: cur.propsEnd, idStart: cur.idStart, idEnd: cur.idEnd)
        GeoJSONReader.append(p, cur.name.isSet ? cur.name : cur.title, to: &builder.names)
        GeoJSONReader.append(p, cur.label, to: &builder.labels)
        GeoJSONReader.append(p, cur.description, to: &builder.descriptions)
        GeoJSONReader.append(p, cur.markerColor, to: &builder.markerColors)
        var cat: Int32 = -1
        let catSpan = categoryKey != nil ? cur.categoryOverride : (cur.category.isSet ? cur.category : cur.markerSymbol)
        if catSpan.isSet && catSpan.end > catSpan.start {
            if !catSpan.escaped && categoryLabels.isEmpty {
                cat = builder.categories.index(p, from: catSpan.start, to: catSpan.end)
            } else {
                var text = JSONStringDecoder.string(p, from: catSpan.start, to: catSpan.end, hasEscapes: catSpan.escaped)
                if let mapped = categoryLabels[text] { text = mapped }
                cat = builder.categories.index(text)
            }
        }
        return (cat, cur.numeric)
    }

    @inline(__always)
    static func append(_ p: UnsafePointer<UInt8>, _ s: Span, to column: inout StringColumn) {
        if s.isSet {
            column.appendJSON(p, from: s.start, to: s.end, hasEscapes: s.escaped)
        } else {
            column.appendEmpty()
        }
    }
}
