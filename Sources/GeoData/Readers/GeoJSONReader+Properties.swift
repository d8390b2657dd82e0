#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A feature's `properties`: the raw object is kept whole; the few members with a role (name,
// label, category, the numeric property, …) are captured as spans on the way through.
extension GeoJSONReader {
    // Property roles (bit set).
    static let roleName: UInt16 = 1, roleTitle: UInt16 = 2, roleLabel: UInt16 = 4
    static let roleDescription: UInt16 = 8, roleCategory: UInt16 = 16, roleMarkerSymbol: UInt16 = 32
    static let roleMarkerColor: UInt16 = 64, roleNumeric: UInt16 = 128, roleCategoryOverride: UInt16 = 256

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
        if isOptionKey(numericKey, k, n) { r |= GeoJSONReader.roleNumeric }
        if isOptionKey(categoryKey, k, n) { r |= GeoJSONReader.roleCategoryOverride }
        return r
    }

    /// Whether the property name `k[0..<n]` is `optionKey`, a property named in the load options.
    @inline(__always)
    static func isOptionKey(_ optionKey: [UInt8]?, _ k: UnsafePointer<UInt8>, _ n: Int) -> Bool {
        guard let key = optionKey, key.count == n else { return false }
        return key.withUnsafeBufferPointer { memcmp($0.baseAddress!, k, n) == 0 }
    }

    /// The `properties` object; its '{' is at `pos`.
    mutating func parseProperties(depth: Int) throws {
        let start = pos
        if enterContainer(closedBy: UInt8(ascii: "}")) {
            repeat {
                let key = try scanMemberName("property")
                let r = GeoJSONReader.role(p, of: key, numericKey, categoryKey)
                if r == 0 {
                    try skipValue(depth: depth + 1)
                } else {
                    try readPropertyValue(role: r, depth: depth + 1)
                }
            } while try nextElementFollows(closer: UInt8(ascii: "}"), expecting: "',' or '}' after a property")
        }
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
        } else if GeoJSONReader.startsNumber(c) {
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
}
