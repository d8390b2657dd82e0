extension PointSet {
    /// A 64-bit digest of point `i`'s record as written (the bytes from its start to the next
    /// record's), so a live update can tell which places changed without decoding any: equal
    /// digests mean the same bytes (up to a 2⁻⁶⁴ chance), hence the same properties. Nil when the
    /// bytes can no longer be read (the mapped file changed) or the records are not in file order.
    /// - Complexity: O(record's bytes); nothing is allocated (GDAL tables: the record's JSON).
    public func recordDigest(at i: Int) -> UInt64? {
        if let table { return Self.digest(Array(table.propertiesJSON(row: Int(offsets[i])).utf8)) }
        guard buffer.isUnchanged else { return nil }
        let start = Int(offsets[i])
        // Members of one MultiPoint share their feature's offset: the record runs to the next
        // record that starts elsewhere.
        var next = i + 1
        while next < offsets.count && offsets[next] == offsets[i] { next += 1 }
        let end = next < offsets.count ? Int(offsets[next]) : buffer.count
        guard start <= end, end <= buffer.count else { return nil }
        return buffer.withBytes { p in Self.digest(UnsafeBufferPointer(start: p + start, count: end - start)) }
    }

    /// Whether `other` reads its records from the same bytes at the same offsets (the same
    /// loaded set, e.g. the replay's), so record `i` of both is the same.
    public func hasSameRecords(as other: PointSet) -> Bool {
        buffer === other.buffer && table == nil && offsets.count == other.offsets.count
            && offsets.withUnsafeBufferPointer { a in other.offsets.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
    }

    /// Eight bytes at a time, each word multiplied into the state (a wyhash-like mix).
    static func digest<C: Collection>(_ bytes: C) -> UInt64 where C.Element == UInt8 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var word: UInt64 = 0, shift: UInt64 = 0
        for b in bytes {
            word |= UInt64(b) << shift
            shift += 8
            if shift == 64 {
                h = mix(h ^ word)
                word = 0
                shift = 0
            }
        }
        return mix(h ^ word ^ (shift << 56))
    }

    @inline(__always) private static func mix(_ x: UInt64) -> UInt64 {
        let m = x.multipliedFullWidth(by: 0xA076_1D64_78BD_642F)
        return m.high ^ m.low
    }
}
