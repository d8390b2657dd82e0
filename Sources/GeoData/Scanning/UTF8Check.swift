/// UTF-8 well-formedness for one multi-byte sequence (RFC 3629: no overlongs, no surrogates,
/// nothing above U+10FFFF).
enum UTF8Check {
    /// The length of the well-formed sequence that starts with the byte `p[i]` (≥ 0x80), or nil.
    /// Reads at most 3 bytes past `i`; buffers are NUL-padded, and NUL is never a continuation.
    @inline(__always)
    static func sequenceLength(_ p: UnsafePointer<UInt8>, at i: Int) -> Int? {
        let b0 = p[i]
        @inline(__always) func cont(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
        switch b0 {
        case 0xC2...0xDF:
            return cont(p[i + 1]) ? 2 : nil
        case 0xE0:
            return (p[i + 1] >= 0xA0 && p[i + 1] <= 0xBF && cont(p[i + 2])) ? 3 : nil
        case 0xE1...0xEC, 0xEE...0xEF:
            return (cont(p[i + 1]) && cont(p[i + 2])) ? 3 : nil
        case 0xED:
            return (p[i + 1] >= 0x80 && p[i + 1] <= 0x9F && cont(p[i + 2])) ? 3 : nil
        case 0xF0:
            return (p[i + 1] >= 0x90 && p[i + 1] <= 0xBF && cont(p[i + 2]) && cont(p[i + 3])) ? 4 : nil
        case 0xF1...0xF3:
            return (cont(p[i + 1]) && cont(p[i + 2]) && cont(p[i + 3])) ? 4 : nil
        case 0xF4:
            return (p[i + 1] >= 0x80 && p[i + 1] <= 0x8F && cont(p[i + 2]) && cont(p[i + 3])) ? 4 : nil
        default:
            return nil
        }
    }
}

/// Decoding of JSON string contents whose syntax was already checked by the scanner.
enum JSONStringDecoder {
    /// Appends the decoded UTF-8 of the string body `p[start..<end]` (between the quotes) to `out`.
    /// Unpaired surrogate escapes become U+FFFD.
    static func decode(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, into out: inout [UInt8]) {
        var i = start
        while i < end {
            let c = p[i]
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            let e = p[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "n"): out.append(10)
            case UInt8(ascii: "t"): out.append(9)
            case UInt8(ascii: "r"): out.append(13)
            case UInt8(ascii: "b"): out.append(8)
            case UInt8(ascii: "f"): out.append(12)
            case UInt8(ascii: "u"):
                var scalar = hex4(p, i)
                i += 4
                if scalar >= 0xD800 && scalar <= 0xDBFF {
                    if i + 6 <= end && p[i] == UInt8(ascii: "\\") && p[i + 1] == UInt8(ascii: "u") {
                        let low = hex4(p, i + 2)
                        if low >= 0xDC00 && low <= 0xDFFF {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        } else {
                            scalar = 0xFFFD
                        }
                    } else {
                        scalar = 0xFFFD
                    }
                } else if scalar >= 0xDC00 && scalar <= 0xDFFF {
                    scalar = 0xFFFD
                }
                appendScalar(scalar, to: &out)
            default: out.append(e)   // \" \\ \/
            }
        }
    }

    /// Decodes a string body to a Swift String.
    static func string(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) -> String {
        if !hasEscapes {
            return String(decoding: UnsafeBufferPointer(start: p + start, count: end - start), as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(end - start)
        decode(p, from: start, to: end, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    @inline(__always)
    static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case 48...57: return UInt32(c - 48)
        case 65...70: return UInt32(c - 55)
        case 97...102: return UInt32(c - 87)
        default: return nil
        }
    }

    static func hex4(_ p: UnsafePointer<UInt8>, _ i: Int) -> UInt32 {
        var v: UInt32 = 0
        for j in 0..<4 { v = v << 4 | (hexValue(p[i + j]) ?? 0) }
        return v
    }

    static func appendScalar(_ s: UInt32, to out: inout [UInt8]) {
        switch s {
        case 0..<0x80:
            out.append(UInt8(s))
        case 0x80..<0x800:
            out.append(UInt8(0xC0 | (s >> 6)))
            out.append(UInt8(0x80 | (s & 0x3F)))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | (s >> 12)))
            out.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (s & 0x3F)))
        default:
            out.append(UInt8(0xF0 | (s >> 18)))
            out.append(UInt8(0x80 | ((s >> 12) & 0x3F)))
            out.append(UInt8(0x80 | ((s >> 6) & 0x3F)))
            out.append(UInt8(0x80 | (s & 0x3F)))
        }
    }

    /// Appends `s` as a JSON string literal (with quotes) to `out`.
    static func appendJSONString(_ s: String, to out: inout String) {
        out.append("\"")
        for u in s.unicodeScalars {
            switch u {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where u.value < 0x20:
                let hex = String(u.value, radix: 16)
                out.append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: out.unicodeScalars.append(u)
            }
        }
        out.append("\"")
    }
}
