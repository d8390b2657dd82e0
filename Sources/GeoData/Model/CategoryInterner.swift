#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
