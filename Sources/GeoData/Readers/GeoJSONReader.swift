#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ClusterCore

/// A schema-directed byte scanner for GeoJSON point files.
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
    var scratch: [UInt8] = []

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

    @inline(__always)
    func bytesEqual(_ s: Span, _ lit: StaticString) -> Bool {
        let n = lit.utf8CodeUnitCount
        return s.end - s.start == n && memcmp(p + s.start, lit.utf8Start, n) == 0
    }

    /// The bytes of a key, decoded when it has escapes (rare).
    func keyBytes(_ s: Span) -> [UInt8] {
        var out: [UInt8] = []
        JSONStringDecoder.decode(p, from: s.start, to: s.end, into: &out)
        return out
    }

    /// Is the (unescaped) key `s` the member name `lit`?
    @inline(__always)
    func keyIs(_ s: Span, _ lit: StaticString) -> Bool {
        if !s.escaped { return bytesEqual(s, lit) }
        let k = keyBytes(s)
        return k.count == lit.utf8CodeUnitCount && memcmp(k, lit.utf8Start, k.count) == 0
    }

    // MARK: - Document

    mutating func parse() throws {
        if end >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF { pos = 3 }
        skipWhitespace()
        if pos >= end { throw GeoDataError(kind: .empty, fileName: fileName, message: "the file is empty") }
        guard p[pos] == UInt8(ascii: "{") else {
            throw error("not a GeoJSON object: expected '{' at the start, found \(describeByte(at: pos))", kind: .notGeoJSON)
        }
        pos += 1
        skipWhitespace()
        var topType: String?
        var sawFeatures = false
        var single = FeatureState()
        if p[pos] != UInt8(ascii: "}") {
            while true {
                guard p[pos] == 34 else { throw expected("a member name in quotes") }
                let key = try scanString()
                skipWhitespace()
                try expectByte(UInt8(ascii: ":"), "':' after a member name")
                skipWhitespace()
                if keyIs(key, "type") {
                    guard p[pos] == 34 else { throw error("\"type\" must be a string", kind: .notGeoJSON) }
                    let s = try scanString()
                    topType = JSONStringDecoder.string(p, from: s.start, to: s.end, hasEscapes: s.escaped)
                } else if keyIs(key, "features") {
                    guard p[pos] == UInt8(ascii: "[") else {
                        throw error("\"features\" must be an array, found \(describeByte(at: pos))", kind: .notGeoJSON)
                    }
                    try parseFeatures()
                    sawFeatures = true
                } else if try !parseFeatureMember(key, &single, depth: 1) {
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
        skipWhitespace()
        if pos < end { throw error("unexpected \(describeByte(at: pos)) after the end of the GeoJSON object") }
        switch topType {
        case "FeatureCollection":
            guard sawFeatures else {
                throw GeoDataError(kind: .notGeoJSON, fileName: fileName, message: "a FeatureCollection without a \"features\" array")
            }
        case "Feature":
            featureIndex = 0
            report.itemsRead = 1
            commit(&single, position: 0)
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
        var st = FeatureState()
        if p[pos] != UInt8(ascii: "}") {
            while true {
                guard p[pos] == 34 else { throw expected("a member name in quotes") }
                let key = try scanString()
                skipWhitespace()
                try expectByte(UInt8(ascii: ":"), "':' after a member name")
                skipWhitespace()
                if try !parseFeatureMember(key, &st, depth: 2) {
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
        commit(&st, position: position)
    }

    /// Reads `geometry`, `properties` or `id`; returns false for other members (not consumed).
    mutating func parseFeatureMember(_ key: Span, _ st: inout FeatureState, depth: Int) throws -> Bool {
        let n = key.end - key.start
        let esc = key.escaped
        if (esc || n == 8) && keyIs(key, "geometry") {
            try parseGeometry(&st, depth: depth + 1)
            return true
        }
        if (esc || n == 10) && keyIs(key, "properties") {
            let c = p[pos]
            if c == UInt8(ascii: "{") {
                try parseProperties(&st, depth: depth + 1)
            } else if c == UInt8(ascii: "n") {
                try expectLiteral("null")
            } else {
                throw expected("\"properties\" to be an object or null")
            }
            return true
        }
        if (esc || n == 2) && keyIs(key, "id") {
            let s = pos
            let c = p[pos]
            try skipValue(depth: depth + 1)
            // Only string and number ids are kept (RFC 7946 §3.2); others are ignored.
            if c == 34 || c == UInt8(ascii: "-") || c &- 48 < 10 {
                st.idStart = s
                st.idEnd = pos
            }
            return true
        }
        return false
    }

    // MARK: - Geometry

    mutating func parseGeometry(_ st: inout FeatureState, depth: Int) throws {
        let c = p[pos]
        if c == UInt8(ascii: "n") {
            try expectLiteral("null")
            st.kind = .null
            return
        }
        guard c == UInt8(ascii: "{") else { throw expected("\"geometry\" to be an object or null") }
        pos += 1
        skipWhitespace()
        st.kind = .untyped
        if p[pos] == UInt8(ascii: "}") { pos += 1; return }
        while true {
            guard p[pos] == 34 else { throw expected("a member name in quotes") }
            let key = try scanString()
            skipWhitespace()
            try expectByte(UInt8(ascii: ":"), "':' after a member name")
            skipWhitespace()
            if keyIs(key, "type") {
                guard p[pos] == 34 else { throw expected("the geometry \"type\" to be a string") }
                let t = try scanString()
                if bytesEqual(t, "Point") { st.kind = .point }
                else if bytesEqual(t, "MultiPoint") { st.kind = .multiPoint }
                else { st.kind = .other }
            } else if keyIs(key, "coordinates") {
                try parseCoordinates(&st, depth: depth + 1)
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

    mutating func parseCoordinates(_ st: inout FeatureState, depth: Int) throws {
        let c = p[pos]
        if c == UInt8(ascii: "n") {
            try expectLiteral("null")
            st.shape = .none
            return
        }
        guard c == UInt8(ascii: "[") else { throw expected("\"coordinates\" to be an array") }
        pos += 1
        skipWhitespace()
        let first = p[pos]
        if first == UInt8(ascii: "]") {
            pos += 1
            st.shape = .empty
            return
        }
        if first != UInt8(ascii: "[") {
            let r = try parsePosition(depth: depth + 1)
            st.shape = .position
            st.lon = r.lon
            st.lat = r.lat
            st.status = r.status
            return
        }
        // An array of positions (MultiPoint, LineString) or deeper (polygons).
        multiLon.removeAll(keepingCapacity: true)
        multiLat.removeAll(keepingCapacity: true)
        multiStatus.removeAll(keepingCapacity: true)
        st.shape = .positions
        while true {
            guard p[pos] == UInt8(ascii: "[") else {
                if st.shape == .deeper { try skipValue(depth: depth + 1) } else { throw expected("a position '['") }
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "]") { pos += 1; return }
                throw expected("',' or ']' in coordinates")
            }
            let elementStart = pos
            pos += 1
            skipWhitespace()
            if st.shape == .deeper || p[pos] == UInt8(ascii: "[") {
                st.shape = .deeper
                pos = elementStart
                try skipValue(depth: depth + 1)
            } else {
                let r = try parsePosition(depth: depth + 2)
                multiLon.append(r.lon)
                multiLat.append(r.lat)
                multiStatus.append(r.status)
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
    func role(of key: Span) -> UInt16 {
        if key.escaped {
            let k = keyBytes(key)
            return k.withUnsafeBufferPointer { role(bytes: $0.baseAddress ?? p, count: k.count) }
        }
        return role(bytes: p + key.start, count: key.end - key.start)
    }

    @inline(__always)
    func role(bytes k: UnsafePointer<UInt8>, count n: Int) -> UInt16 {
        @inline(__always) func eq(_ lit: StaticString) -> Bool { memcmp(k, lit.utf8Start, n) == 0 }
        var r: UInt16 = 0
        switch n {
        case 4: if eq("name") { r = GeoJSONReader.roleName }
        case 5: if eq("title") { r = GeoJSONReader.roleTitle } else if eq("label") { r = GeoJSONReader.roleLabel }
        case 8: if eq("category") { r = GeoJSONReader.roleCategory }
        case 11: if eq("description") { r = GeoJSONReader.roleDescription }
        case 12: if eq("marker-color") { r = GeoJSONReader.roleMarkerColor }
        case 13: if eq("marker-symbol") { r = GeoJSONReader.roleMarkerSymbol }
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

    mutating func parseProperties(_ st: inout FeatureState, depth: Int) throws {
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
                let r = role(of: key)
                if r == 0 {
                    try skipValue(depth: depth + 1)
                } else {
                    try readPropertyValue(role: r, &st, depth: depth + 1)
                }
                skipWhitespace()
                let c = p[pos]
                if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); continue }
                if c == UInt8(ascii: "}") { break }
                throw expected("',' or '}' after a property")
            }
        }
        pos += 1
        st.propsStart = start
        st.propsEnd = pos
    }

    mutating func readPropertyValue(role r: UInt16, _ st: inout FeatureState, depth: Int) throws {
        let c = p[pos]
        var span = Span()
        if c == 34 {
            span = try scanString()
            if r & GeoJSONReader.roleNumeric != 0 && !span.escaped {
                st.numeric = FastDouble.parseLenient(p + span.start, count: span.end - span.start) ?? .nan
            }
        } else if c == UInt8(ascii: "-") || c &- 48 < 10 {
            let s = pos
            let v = try scanNumber()
            span = Span(start: s, end: pos, escaped: false)
            if r & GeoJSONReader.roleNumeric != 0 { st.numeric = v }
        } else if c == UInt8(ascii: "t") || c == UInt8(ascii: "f") {
            let s = pos
            try skipValue(depth: depth)
            span = Span(start: s, end: pos, escaped: false)
        } else {
            try skipValue(depth: depth)
            return
        }
        if r & GeoJSONReader.roleName != 0 { st.name = span }
        if r & GeoJSONReader.roleTitle != 0 { st.title = span }
        if r & GeoJSONReader.roleLabel != 0 { st.label = span }
        if r & GeoJSONReader.roleDescription != 0 { st.description = span }
        if r & GeoJSONReader.roleCategory != 0 { st.category = span }
        if r & GeoJSONReader.roleMarkerSymbol != 0 { st.markerSymbol = span }
        if r & GeoJSONReader.roleMarkerColor != 0 { st.markerColor = span }
        if r & GeoJSONReader.roleCategoryOverride != 0 { st.categoryOverride = span }
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

    mutating func commit(_ st: inout FeatureState, position: Int) {
        switch st.kind {
        case .missing, .null:
            report.skip(.nullGeometry, at: position)
        case .other, .untyped:
            report.skip(.unsupportedGeometry, at: position)
        case .point:
            guard st.shape == .position else {
                report.skip(st.shape == .deeper || st.shape == .positions ? .unsupportedGeometry : .noCoordinates, at: position)
                return
            }
            if let reason = GeoJSONReader.validate(lon: st.lon, lat: st.lat, status: st.status) {
                report.skip(reason, at: position)
                return
            }
            let (cat, num) = beginRecord(&st)
            builder.addPoint(GeoCoordinate(latitude: st.lat, longitude: st.lon), record: builder.recordCount - 1,
                             position: position, category: cat, numeric: num)
        case .multiPoint:
            guard st.shape == .positions else {
                report.skip(st.shape == .deeper ? .unsupportedGeometry : .noCoordinates, at: position)
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
                    (cat, num) = beginRecord(&st)
                    record = builder.recordCount - 1
                }
                builder.addPoint(GeoCoordinate(latitude: multiLat[k], longitude: multiLon[k]), record: record,
                                 position: position, category: cat, numeric: num)
            }
        }
    }

    /// Appends the record's columns; returns its category index and numeric value.
    mutating func beginRecord(_ st: inout FeatureState) -> (Int32, Double) {
        _ = builder.beginRecord(rawStart: st.propsStart, rawEnd: st.propsEnd, idStart: st.idStart, idEnd: st.idEnd)
        GeoJSONReader.append(p, st.name.isSet ? st.name : st.title, to: &builder.names)
        GeoJSONReader.append(p, st.label, to: &builder.labels)
        GeoJSONReader.append(p, st.description, to: &builder.descriptions)
        GeoJSONReader.append(p, st.markerColor, to: &builder.markerColors)
        var cat: Int32 = -1
        let catSpan = categoryKey != nil ? st.categoryOverride : (st.category.isSet ? st.category : st.markerSymbol)
        if catSpan.isSet && catSpan.end > catSpan.start {
            if !catSpan.escaped && categoryLabels.isEmpty {
                cat = builder.categories.index(p, from: catSpan.start, to: catSpan.end)
            } else {
                var text = JSONStringDecoder.string(p, from: catSpan.start, to: catSpan.end, hasEscapes: catSpan.escaped)
                if let mapped = categoryLabels[text] { text = mapped }
                cat = builder.categories.index(text)
            }
        }
        return (cat, st.numeric)
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
