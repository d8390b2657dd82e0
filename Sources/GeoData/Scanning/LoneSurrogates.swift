/// JSON text copied from a file with its unpaired surrogate escapes (`"\ud800"`) replaced by
/// `\ufffd`. Such escapes are legal JSON syntax but not Unicode, and strict readers (Python's
/// `json` with `ensure_ascii`, Go, jq) reject them, so the CLI must not pass them on (issue 15).
enum LoneSurrogates {
    /// The bytes as a String, with lone surrogate escapes replaced; copied as is when there are none.
    static func repaired(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard let firstFix = firstLoneSurrogate(bytes, from: 0) else {
            return String(decoding: bytes, as: UTF8.self)
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        var fix: Int? = firstFix
        while let at = fix {
            out.append(contentsOf: bytes[copied..<at])
            out.append(contentsOf: Array("\\ufffd".utf8))
            copied = at + 6
            fix = firstLoneSurrogate(bytes, from: copied)
        }
        out.append(contentsOf: bytes[copied...])
        return String(decoding: out, as: UTF8.self)
    }

    /// The offset of the next `\uD800`–`\uDFFF` escape that is not part of a high+low pair.
    static func firstLoneSurrogate(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start
        while i + 1 < b.count {
            guard b[i] == UInt8(ascii: "\\") else { i += 1; continue }
            guard b[i + 1] == UInt8(ascii: "u"), let v = hex4(b, i + 2) else { i += 2; continue }   // "\\", "\n", …
            if v >= 0xD800 && v <= 0xDBFF {
                if i + 11 < b.count, b[i + 6] == UInt8(ascii: "\\"), b[i + 7] == UInt8(ascii: "u"),
                   let low = hex4(b, i + 8), low >= 0xDC00 && low <= 0xDFFF {
                    i += 12
                    continue
                }
                return i
            }
            if v >= 0xDC00 && v <= 0xDFFF { return i }
            i += 6
        }
        return nil
    }

    private static func hex4(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32? {
        guard at + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for k in 0..<4 {
            let c = b[at + k]
            let d: UInt8
            switch c {
            case 48...57: d = c - 48
            case 65...70: d = c - 55
            case 97...102: d = c - 87
            default: return nil
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }
}
