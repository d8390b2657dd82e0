#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Short strings for many records, stored as one byte buffer plus end offsets.
/// A column nobody filled costs nothing per record; empty means absent.
struct StringColumn: Sendable {
    private(set) var bytes: [UInt8] = []
    /// End offset in `bytes` of each record's string; empty while every record so far is empty.
    private var ends: [UInt32] = []
    /// Records appended so far.
    private(set) var count = 0

    /// Appends the bytes `p[start..<end]`.
    @inline(__always)
    mutating func append(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        if end <= start { appendEmpty(); return }
        materialize()
        bytes.append(contentsOf: UnsafeBufferPointer(start: p + start, count: end - start))
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
        count += 1
    }

    /// Appends a JSON string body, decoding escapes when there are any.
    @inline(__always)
    mutating func appendJSON(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int, hasEscapes: Bool) {
        if !hasEscapes { append(p, from: start, to: end); return }
        materialize()
        JSONStringDecoder.decode(p, from: start, to: end, into: &bytes)
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
        count += 1
    }

    /// Appends already-decoded bytes.
    mutating func append(bytes new: [UInt8]) {
        if new.isEmpty { appendEmpty(); return }
        materialize()
        bytes.append(contentsOf: new)
        ends.append(UInt32(truncatingIfNeeded: bytes.count))
        count += 1
    }

    @inline(__always)
    mutating func appendEmpty() {
        if !ends.isEmpty { ends.append(UInt32(truncatingIfNeeded: bytes.count)) }
        count += 1
    }

    @inline(__always)
    private mutating func materialize() {
        if ends.isEmpty && count > 0 { ends = [UInt32](repeating: 0, count: count) }
    }

    /// Whether any record has a non-empty value.
    var hasValues: Bool { !bytes.isEmpty }

    /// The string of record `i`, or nil when empty.
    func string(at i: Int) -> String? {
        guard !ends.isEmpty else { return nil }
        let end = Int(ends[i])
        let start = i == 0 ? 0 : Int(ends[i - 1])
        if end == start { return nil }
        return bytes.withUnsafeBufferPointer {
            String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
        }
    }

    mutating func shrink() {
        bytes = Array(bytes)
        if !ends.isEmpty { ends = Array(ends) }
    }
}

/// Interns category names to small integers, with a one-entry cache for runs of equal values.
struct CategoryInterner {
    private(set) var names: [String] = []
    private var indexByName: [String: Int32] = [:]
    private var lastBytes: [UInt8] = []
    private var lastIndex: Int32 = -1

    /// The index for the UTF-8 bytes `p[start..<end]` (already decoded).
    @inline(__always)
    mutating func index(_ p: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int32 {
        let n = end - start
        if lastIndex >= 0 && n == lastBytes.count {
            let same = lastBytes.withUnsafeBufferPointer { lb in
                n == 0 || memcmp(lb.baseAddress!, p + start, n) == 0
            }
            if same { return lastIndex }
        }
        let name = String(decoding: UnsafeBufferPointer(start: p + start, count: n), as: UTF8.self)
        return index(name, bytes: Array(UnsafeBufferPointer(start: p + start, count: n)))
    }

    mutating func index(_ name: String) -> Int32 {
        index(name, bytes: Array(name.utf8))
    }

    private mutating func index(_ name: String, bytes: [UInt8]) -> Int32 {
        let idx: Int32
        if let found = indexByName[name] {
            idx = found
        } else {
            idx = Int32(names.count)
            names.append(name)
            indexByName[name] = idx
        }
        lastBytes = bytes
        lastIndex = idx
        return idx
    }
}
