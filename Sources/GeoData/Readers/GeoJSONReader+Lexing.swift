// The byte cursor: white space, strings, member names and the punctuation between elements.
// Everything here is on the hot path and inlined into its callers.
extension GeoJSONReader {
    @inline(__always)
    mutating func skipWhitespace() {
        while GeoJSONReader.isWhitespace(p[pos]) { pos += 1 }
    }

    /// JSON's white space: space, line feed, carriage return, tab.
    @inline(__always)
    static func isWhitespace(_ c: UInt8) -> Bool { c == 32 || c == 10 || c == 13 || c == 9 }

    /// White space, and the record separators (0x1E) of GeoJSON text sequences (RFC 8142).
    mutating func skipSequenceSeparators() {
        skipWhitespace()
        while p[pos] == 0x1E {
            pos += 1
            skipWhitespace()
        }
    }

    /// Steps over the '{' or '[' at `pos` and the white space after it. Returns false, with
    /// `closer` consumed too, when the container is empty.
    @inline(__always)
    mutating func enterContainer(closedBy closer: UInt8) -> Bool {
        pos += 1
        skipWhitespace()
        if p[pos] == closer { pos += 1; return false }
        return true
    }

    /// After an element of an object or array: steps over a ',' and returns true (another element
    /// follows), or over `closer` and returns false; anything else is "expected `what`".
    @inline(__always)
    mutating func nextElementFollows(closer: UInt8, expecting what: StaticString) throws -> Bool {
        skipWhitespace()
        let c = p[pos]
        if c == UInt8(ascii: ",") { pos += 1; skipWhitespace(); return true }
        if c == closer { pos += 1; return false }
        throw expected(literal: what)
    }

    /// Reads `"name":` and the white space around the colon; `noun` ("member" or "property")
    /// names it in error messages. Returns the name's span.
    @inline(__always)
    mutating func scanMemberName(_ noun: StaticString = "member") throws -> Span {
        guard p[pos] == 34 else { throw expectedName(noun, colon: false) }
        let key = try scanString()
        skipWhitespace()
        guard p[pos] == UInt8(ascii: ":") else { throw expectedName(noun, colon: true) }
        pos += 1
        skipWhitespace()
        return key
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
                let special = ByteMask.special(UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self), or: 0x22, 0x5C)
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
                if pos >= end { throw unterminatedString() }
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
            if pos + 1 >= end { throw unterminatedString() }
            throw error("invalid escape '\\\(describeByte(at: pos + 1))' in a string")
        }
    }

    // Helpers on the bytes are static: calling a non-mutating method of this large struct from
    // a mutating one makes Swift copy the whole struct.

    /// Whether `c` can start a JSON number.
    @inline(__always)
    static func startsNumber(_ c: UInt8) -> Bool { c == UInt8(ascii: "-") || c &- 48 < 10 }

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
}
