import CGDAL

/// Reads the columns of the Arrow record batches GDAL gives (`OGR_L_GetArrowStream`, the Arrow C
/// data interface) into `AttributeTable` columns, and finds the WKB geometry column.
/// Only the layouts GDAL produces for OGR fields are read; any other column is left out.
enum ArrowColumns {
    /// The attribute kind an Arrow format string holds, or nil for columns not read.
    static func kind(format f: String) -> AttributeTable.Kind? {
        switch f {
        case "b": return .bool
        case "c", "C", "s", "S", "i", "I", "l", "L": return .integer
        case "f", "g": return .real
        case "u", "U": return .text
        case "tdD", "tdm": return .date
        case "tts", "ttm", "ttu", "ttn": return .time
        case "+l", "+L": return .list
        default: return f.hasPrefix("ts") ? .dateTime : nil
        }
    }

    /// Whether a binary column is the layer's WKB geometry (GDAL marks it `ogc.wkb`).
    static func isGeometry(_ schema: UnsafeMutablePointer<ArrowSchema>, geometryName: String) -> Bool {
        let s = schema.pointee
        let f = String(cString: s.format)
        guard f == "z" || f == "Z" else { return false }
        if let m = s.metadata, metadata(m).contains(where: { $0.key == "ARROW:extension:name" && $0.value == "ogc.wkb" }) { return true }
        return s.name.map { String(cString: $0) } == geometryName
    }

    /// The key/value pairs of an Arrow metadata block (int32 count, then length-prefixed strings).
    static func metadata(_ p: UnsafePointer<CChar>) -> [(key: String, value: String)] {
        let raw = UnsafeRawPointer(p)
        var pos = 0
        func int() -> Int { defer { pos += 4 }; return Int(raw.loadUnaligned(fromByteOffset: pos, as: Int32.self)) }
        func str() -> String {
            let n = int()
            defer { pos += n }
            return String(decoding: UnsafeRawBufferPointer(start: raw + pos, count: max(0, n)), as: UTF8.self)
        }
        let n = int()
        guard n >= 0 && n < 1000 else { return [] }
        return (0..<n).map { _ in (str(), str()) }
    }

    /// Whether row `i` of `a` has a value.
    @inline(__always)
    static func isValid(_ a: ArrowArray, _ i: Int) -> Bool {
        guard a.null_count != 0, a.n_buffers > 0, let bits = a.buffers[0] else { return true }
        let j = Int(a.offset) + i
        return bits.load(fromByteOffset: j >> 3, as: UInt8.self) >> UInt8(j & 7) & 1 == 1
    }

    /// The bytes of row `i` of a binary or string array (format `z`/`u`: 32-bit offsets,
    /// `Z`/`U`: 64-bit).
    @inline(__always)
    static func bytes(_ a: ArrowArray, _ i: Int, large: Bool) -> UnsafeRawBufferPointer {
        let j = Int(a.offset) + i
        let data = a.buffers[2]!
        let start: Int, end: Int
        if large {
            let o = a.buffers[1]!.assumingMemoryBound(to: Int64.self)
            start = Int(o[j]); end = Int(o[j + 1])
        } else {
            let o = a.buffers[1]!.assumingMemoryBound(to: Int32.self)
            start = Int(o[j]); end = Int(o[j + 1])
        }
        return UnsafeRawBufferPointer(start: data + start, count: end - start)
    }

    /// Row `i` of an integer-like array as Int64.
    @inline(__always)
    static func integer(_ a: ArrowArray, _ i: Int, format f: String) -> Int64 {
        let j = Int(a.offset) + i
        let d = a.buffers[1]!
        switch f {
        case "c": return Int64(d.load(fromByteOffset: j, as: Int8.self))
        case "C": return Int64(d.load(fromByteOffset: j, as: UInt8.self))
        case "s": return Int64(d.load(fromByteOffset: 2 * j, as: Int16.self))
        case "S": return Int64(d.load(fromByteOffset: 2 * j, as: UInt16.self))
        case "i", "tdD", "tts", "ttm": return Int64(d.load(fromByteOffset: 4 * j, as: Int32.self))
        case "I": return Int64(d.load(fromByteOffset: 4 * j, as: UInt32.self))
        case "L": return Int64(truncatingIfNeeded: d.load(fromByteOffset: 8 * j, as: UInt64.self))
        case "b": return Int64(d.load(fromByteOffset: j >> 3, as: UInt8.self) >> UInt8(j & 7) & 1)
        default: return d.load(fromByteOffset: 8 * j, as: Int64.self)
        }
    }

    /// Row `i` of a float array.
    @inline(__always)
    static func real(_ a: ArrowArray, _ i: Int, format f: String) -> Double {
        let j = Int(a.offset) + i
        return f == "f" ? Double(a.buffers[1]!.load(fromByteOffset: 4 * j, as: Float.self))
                        : a.buffers[1]!.load(fromByteOffset: 8 * j, as: Double.self)
    }

    /// Milliseconds per unit of a timestamp / time format (`tsm:…` → 1).
    static func millisecondsPerUnit(_ f: String) -> (multiply: Int64, divide: Int64) {
        let unit = f.dropFirst(2).first
        switch unit {
        case "s": return (1000, 1)
        case "u": return (1, 1000)
        case "n": return (1, 1_000_000)
        default: return (1, 1)
        }
    }

    /// Appends the `a.length` rows of one column to `col`.
    static func append(_ schema: UnsafeMutablePointer<ArrowSchema>, _ array: UnsafeMutablePointer<ArrowArray>,
                       to col: inout AttributeTable.Column) {
        let a = array.pointee
        let f = String(cString: schema.pointee.format)
        let n = Int(a.length)
        col.valid.reserveCapacity(col.valid.count + n)
        switch col.kind {
        case .integer, .bool:
            for i in 0..<n { isValid(a, i) ? col.append(int: integer(a, i, format: f)) : col.appendNull() }
        case .real:
            for i in 0..<n { isValid(a, i) ? col.append(real: real(a, i, format: f)) : col.appendNull() }
        case .text:
            let large = f == "U"
            for i in 0..<n {
                guard isValid(a, i) else { col.appendNull(); continue }
                col.append(text: bytes(a, i, large: large).bindMemory(to: UInt8.self))
            }
        case .date:
            for i in 0..<n {
                guard isValid(a, i) else { col.appendNull(); continue }
                let v = integer(a, i, format: f)
                col.append(int: f == "tdm" ? floorDiv(v, 86_400_000) : v)
            }
        case .dateTime:
            let (mul, div) = millisecondsPerUnit(f)
            for i in 0..<n {
                guard isValid(a, i) else { col.appendNull(); continue }
                col.append(int: floorDiv(integer(a, i, format: "l") * mul, div))
            }
        case .time:
            let (mul, div) = millisecondsPerUnit(f)
            for i in 0..<n {
                guard isValid(a, i) else { col.appendNull(); continue }
                let ms = floorDiv(integer(a, i, format: f) * mul, div)
                col.append(text: timeText(ms))
            }
        case .list:
            for i in 0..<n {
                guard isValid(a, i) else { col.appendNull(); continue }
                col.append(text: listJSON(schema, a, i, large: f == "+L"))
            }
        }
    }

    /// `12:30:05` (and `.250` when there are milliseconds).
    static func timeText(_ ms: Int64) -> String {
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let s = ms / 1000
        var out = "\(two(s / 3600)):\(two(s / 60 % 60)):\(two(s % 60))"
        if ms % 1000 != 0 { out += "." + String(String(1000 + ms % 1000).dropFirst()) }
        return out
    }

    /// Row `i` of a list column as a JSON array of its numbers or strings.
    static func listJSON(_ schema: UnsafeMutablePointer<ArrowSchema>, _ a: ArrowArray, _ i: Int, large: Bool) -> String {
        guard a.n_children == 1, let child = a.children[0], schema.pointee.n_children == 1,
              let childSchema = schema.pointee.children[0] else { return "[]" }
        let j = Int(a.offset) + i
        let start: Int, end: Int
        if large {
            let o = a.buffers[1]!.assumingMemoryBound(to: Int64.self)
            start = Int(o[j]); end = Int(o[j + 1])
        } else {
            let o = a.buffers[1]!.assumingMemoryBound(to: Int32.self)
            start = Int(o[j]); end = Int(o[j + 1])
        }
        let c = child.pointee
        let cf = String(cString: childSchema.pointee.format)
        let kind = ArrowColumns.kind(format: cf)
        var out = "["
        for k in start..<end {
            if k > start { out += "," }
            guard isValid(c, k) else { out += "null"; continue }
            switch kind {
            case .integer?: out += String(integer(c, k, format: cf))
            case .bool?: out += integer(c, k, format: cf) != 0 ? "true" : "false"
            case .real?:
                let d = real(c, k, format: cf)
                out += d.isFinite ? PropertyValue.plainText(d) : "null"
            case .text?:
                let s = String(decoding: bytes(c, k, large: cf == "U"), as: UTF8.self)
                JSONStringDecoder.appendJSONString(s, to: &out)
            default: out += "null"
            }
        }
        return out + "]"
    }

    @inline(__always)
    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
