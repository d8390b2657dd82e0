/// Splits RFC 4180 records: fields separated by commas, optionally double-quoted (with `""`
/// for a quote), quoted fields may hold commas and line breaks; records end at LF, CRLF or CR.
/// Every byte is checked for UTF-8.
struct CSVScanner {
    let p: UnsafePointer<UInt8>
    let end: Int
    var pos: Int
    /// 1-based physical line of `pos`.
    var line: Int
    /// Field `i` occupies `p[fieldStarts[i]..<fieldEnds[i]]` (inside the quotes when quoted).
    var fieldStarts: [Int] = []
    var fieldEnds: [Int] = []
    /// Bit 0: quoted; bit 1: has doubled quotes to undo.
    var fieldFlags: [UInt8] = []
    /// The record had text after a closing quote (`"ab"c`).
    var malformed = false
    /// Where the record's text ends (before its line break).
    var recordEnd = 0

    init(p: UnsafePointer<UInt8>, end: Int, pos: Int, line: Int) {
        self.p = p
        self.end = end
        self.pos = pos
        self.line = line
    }

    var fieldCount: Int { fieldStarts.count }

    func invalidUTF8(at i: Int, fileName: String) -> GeoDataError {
        GeoDataError.at(i, in: p, count: end, kind: .invalidUTF8, fileName: fileName, featureIndex: nil,
                        message: "invalid UTF-8 byte 0x\(String(p[i], radix: 16, uppercase: true)) (the file must be UTF-8)")
    }

    /// Reads one record starting at `pos`; afterwards `pos` is at the next record.
    mutating func readRecord(fileName: String) throws {
        fieldStarts.removeAll(keepingCapacity: true)
        fieldEnds.removeAll(keepingCapacity: true)
        fieldFlags.removeAll(keepingCapacity: true)
        malformed = false
        while true {
            if p[pos] == 34 {
                let quoteStart = pos
                let quoteLine = line
                pos += 1
                let s = pos
                var flags: UInt8 = 1
                while true {
                    let c = p[pos]
                    if c == 34 {
                        if p[pos + 1] == 34 { flags |= 2; pos += 2; continue }
                        break
                    }
                    if c == 10 {
                        line += 1
                        pos += 1
                    } else if c >= 0x80 {
                        guard let n = UTF8Check.sequenceLength(p, at: pos) else { throw invalidUTF8(at: pos, fileName: fileName) }
                        pos += n
                    } else if c == 0 && pos >= end {
                        throw GeoDataError.at(quoteStart, in: p, count: end, kind: .syntax, fileName: fileName, featureIndex: nil,
                                              message: "a quoted field that starts on line \(formatCount(quoteLine)) never ends (missing closing '\"')")
                    } else {
                        pos += 1
                    }
                }
                fieldStarts.append(s)
                fieldEnds.append(pos)
                fieldFlags.append(flags)
                pos += 1
                let d = p[pos]
                if !(d == 44 || d == 10 || d == 13 || pos >= end) {
                    malformed = true
                    try scanUnquoted(fileName: fileName)
                }
            } else {
                let s = pos
                try scanUnquoted(fileName: fileName)
                fieldStarts.append(s)
                fieldEnds.append(pos)
                fieldFlags.append(0)
            }
            let d = p[pos]
            if d == 44 { pos += 1; continue }
            recordEnd = pos
            if d == 13 {
                pos += 1
                if p[pos] == 10 { pos += 1 }
                line += 1
            } else if d == 10 {
                pos += 1
                line += 1
            }
            return
        }
    }

    @inline(__always)
    mutating func scanUnquoted(fileName: String) throws {
        while true {
            let c = p[pos]
            if c == 44 || c == 10 || c == 13 { return }
            if c >= 0x80 {
                guard let n = UTF8Check.sequenceLength(p, at: pos) else { throw invalidUTF8(at: pos, fileName: fileName) }
                pos += n
            } else if c == 0 && pos >= end {
                return
            } else {
                pos += 1
            }
        }
    }

    /// Whether the record is an empty line.
    var isBlank: Bool { fieldStarts.count == 1 && fieldFlags[0] == 0 && fieldEnds[0] == fieldStarts[0] }

    /// The decoded bytes of field `i` (quotes undone).
    func fieldBytes(_ i: Int) -> [UInt8] {
        CSVScanner.decode(p, from: fieldStarts[i], to: fieldEnds[i], flags: fieldFlags[i])
    }

    func fieldString(_ i: Int) -> String { String(decoding: fieldBytes(i), as: UTF8.self) }

    static func decode(_ p: UnsafePointer<UInt8>, from s: Int, to e: Int, flags: UInt8) -> [UInt8] {
        if flags & 2 == 0 { return Array(UnsafeBufferPointer(start: p + s, count: e - s)) }
        var out: [UInt8] = []
        out.reserveCapacity(e - s)
        var i = s
        while i < e {
            out.append(p[i])
            i += (p[i] == 34 && p[i + 1] == 34) ? 2 : 1
        }
        return out
    }
}
