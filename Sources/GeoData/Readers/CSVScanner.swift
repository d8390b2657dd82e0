/// Splits RFC 4180 records: fields separated by commas (or another delimiter), optionally double-quoted (with `""`
/// for a quote), quoted fields may hold commas and line breaks; records end at LF, CRLF or CR.
/// Every byte is checked for UTF-8.
struct CSVScanner {
    let p: UnsafePointer<UInt8>
    let end: Int
    var pos: Int
    /// 1-based physical line of `pos`.
    var line: Int
    /// One field: `p[start..<end]` (inside the quotes when quoted).
    struct Field {
        var start: Int
        var end: Int
        /// Bit 0: quoted; bit 1: has doubled quotes to undo.
        var flags: UInt8
    }
    /// The fields of the current record are `fields[0..<fieldCount]` (the storage is reused).
    let fields = FieldList()
    private(set) var fieldCount = 0
    /// The record had text after a closing quote (`"ab"c`).
    var malformed = false
    /// Where the record's text ends (before its line break).
    var recordEnd = 0

    /// The field separator: `,` normally; `\t` or `;` when the header line has no comma.
    var delimiter: UInt8 = 44

    init(p: UnsafePointer<UInt8>, end: Int, pos: Int, line: Int, delimiter: UInt8 = 44) {
        self.delimiter = delimiter
        self.p = p
        self.end = end
        self.pos = pos
        self.line = line
    }

    @inline(__always)
    mutating func addField(_ start: Int, _ end: Int, _ flags: UInt8) {
        fields.set(fieldCount, Field(start: start, end: end, flags: flags))
        fieldCount += 1
    }

    /// A record's fields, in storage of its own that grows and is reused: a Swift array here
    /// cost a uniqueness check per field, a tenth of reading a row (issue 14, launch).
    final class FieldList {
        private var base: UnsafeMutablePointer<Field>
        private var capacity = 16
        /// Fields ever written (later records may have fewer).
        private var written = 0

        init() { base = .allocate(capacity: capacity) }
        deinit { base.deallocate() }

        /// Field `i` of the current record (an empty field past the longest record yet).
        @inline(__always)
        subscript(i: Int) -> Field { i < written ? base[i] : Field(start: 0, end: 0, flags: 0) }

        @inline(__always)
        func set(_ i: Int, _ f: Field) {
            if i >= capacity { grow() }
            base[i] = f
            if i >= written { written = i + 1 }
        }

        private func grow() {
            let bigger = UnsafeMutablePointer<Field>.allocate(capacity: capacity * 2)
            bigger.initialize(from: base, count: capacity)
            base.deallocate()
            base = bigger
            capacity *= 2
        }
    }

    func invalidUTF8(at i: Int, fileName: String) -> GeoDataError {
        GeoDataError.at(i, in: p, count: end, kind: .invalidUTF8, fileName: fileName, featureIndex: nil,
                        message: "invalid UTF-8 byte 0x\(String(p[i], radix: 16, uppercase: true)) (the file must be UTF-8)")
    }

    /// Reads one record starting at `pos`; afterwards `pos` is at the next record.
    mutating func readRecord(fileName: String) throws {
        fieldCount = 0
        malformed = false
        while true {
            if p[pos] == 34 {
                let quoteStart = pos
                let quoteLine = line
                pos += 1
                let s = pos
                var flags: UInt8 = 1
                while true {
                    skipPlain(stoppingAt: 34)
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
                addField(s, pos, flags)
                pos += 1
                let d = p[pos]
                if !(d == delimiter || d == 10 || d == 13 || pos >= end) {
                    malformed = true
                    try scanUnquoted(fileName: fileName)
                }
            } else {
                let s = pos
                try scanUnquoted(fileName: fileName)
                addField(s, pos, 0)
            }
            let d = p[pos]
            if d == delimiter { pos += 1; continue }
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

    /// Skips ahead 8 bytes at a time to the next byte that may need attention. Safe to read
    /// ahead: buffers are padded, and the NUL padding counts as a control byte.
    @inline(__always)
    mutating func skipPlain(stoppingAt byte: UInt8) {
        while true {
            let m = ByteMask.special(UnsafeRawPointer(p + pos).loadUnaligned(as: UInt64.self), or: byte)
            if m != 0 { pos += m.trailingZeroBitCount >> 3; return }
            pos += 8
        }
    }

    @inline(__always)
    mutating func scanUnquoted(fileName: String) throws {
        while true {
            skipPlain(stoppingAt: delimiter)
            let c = p[pos]
            if c == delimiter || c == 10 || c == 13 { return }
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

    /// The delimiter for a file whose header line starts at `start`: a comma when the header has
    /// one (outside quotes), else a tab, else a semicolon, else a comma.
    static func detectDelimiter(_ p: UnsafePointer<UInt8>, from start: Int, end: Int) -> UInt8 {
        var commas = 0, tabs = 0, semicolons = 0
        var quoted = false
        var i = start
        while i < end {
            let c = p[i]
            if c == 34 { quoted.toggle() }
            else if !quoted {
                if c == 10 || c == 13 { break }
                if c == 44 { commas += 1 } else if c == 9 { tabs += 1 } else if c == 59 { semicolons += 1 }
            }
            i += 1
        }
        if commas > 0 { return 44 }
        if tabs > 0 { return 9 }
        if semicolons > 0 { return 59 }
        return 44
    }

    /// Whether the record is an empty line.
    var isBlank: Bool { fieldCount == 1 && fields[0].flags == 0 && fields[0].end == fields[0].start }

    /// The decoded bytes of field `i` (quotes undone).
    func fieldBytes(_ i: Int) -> [UInt8] {
        CSVScanner.decode(p, from: fields[i].start, to: fields[i].end, flags: fields[i].flags)
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
