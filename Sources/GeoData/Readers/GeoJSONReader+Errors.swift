// Error construction. These are only called on the way to a `throw`, so being non-mutating
// (which may copy this large struct) costs nothing on the fast path.
extension GeoJSONReader {
    func error(_ message: String, at offset: Int? = nil, kind: GeoDataError.Kind = .syntax) -> GeoDataError {
        GeoDataError.at(offset ?? pos, in: p, count: end, kind: kind, fileName: fileName,
                        featureIndex: featureIndex, message: message)
    }

    /// "expected X", saying what was found instead (or that the file ends there).
    func expected(_ what: String) -> GeoDataError {
        if pos >= end { return error("expected \(what), but the file ends here (truncated?)") }
        return error("expected \(what), found \(describeByte(at: pos))")
    }

    /// `expected(_:)` for a fixed description. Out of line, so that the scanning loops that
    /// branch to it stay small.
    @inline(never)
    func expected(literal what: StaticString) -> GeoDataError {
        expected(what.description)
    }

    /// A member name that is not a quoted string, or not followed by ':'; `noun` is "member"
    /// or "property".
    @inline(never)
    func expectedName(_ noun: StaticString, colon: Bool) -> GeoDataError {
        expected(colon ? "':' after a \(noun) name" : "a \(noun) name in quotes")
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

    /// A string still open where the file ends.
    func unterminatedString() -> GeoDataError {
        error("unterminated string, the file ends here (truncated?)")
    }

    /// An object or array nested deeper than `maxDepth`.
    func nestingTooDeep() -> GeoDataError {
        error("nesting deeper than \(GeoJSONReader.maxDepth) levels", kind: .tooLarge)
    }
}
