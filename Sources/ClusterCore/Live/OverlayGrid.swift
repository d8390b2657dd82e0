/// A small hash grid of item references for one zoom level of a `LiveClusterIndex`: the items
/// that level holds beyond (or instead of) what its base build holds. Entries may go stale
/// (an item that left the level); readers filter them by the index's node state.
///
/// Chained buckets in flat arrays with a multiplicative hash: a neighbour query looks at a few
/// cells, and with Swift's hashed `Dictionary` each look-up cost more than the rest of the query.
/// Each entry is one record (key, item, link) reached through a buffer pointer: as three arrays,
/// an insertion paid seven uniqueness checks and a chain walk read three of them.
struct OverlayGrid: Sendable {
    /// Side of a grid cell in unit coordinates (the level's neighbour radius).
    let cell: Double
    /// Bucket → its first entry (−1: none); the count is a power of two.
    private var heads: [Int32] = []
    /// One entry: cell key, item, next entry in the bucket (or in the free list).
    private struct Entry {
        var key: UInt64
        var ref: UInt32
        var next: Int32
    }
    private var entries: [Entry] = []
    private var firstFree: Int32 = -1
    /// Live entries.
    private(set) var count = 0

    init(cell: Double) { self.cell = cell }

    var isEmpty: Bool { count == 0 }

    @inline(__always) func key(_ x: Double, _ y: Double) -> UInt64 {
        let ix = UInt64(max(0, min(x, 1)) / cell), iy = UInt64(max(0, min(y, 1)) / cell)
        return (iy << 32) | ix
    }

    @inline(__always) private static func bucket(_ key: UInt64, mask: Int) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// Adds `ref` at (x, y) unless it is already there.
    mutating func insert(_ ref: UInt32, x: Double, y: Double) {
        let k = key(x, y)
        if !heads.isEmpty {
            let present = heads.withUnsafeBufferPointer { heads in
                entries.withUnsafeBufferPointer { es in
                    var e = heads[Self.bucket(k, mask: heads.count - 1)]
                    while e >= 0 {
                        if es[Int(e)].ref == ref && es[Int(e)].key == k { return true }
                        e = es[Int(e)].next
                    }
                    return false
                }
            }
            if present { return }
        }
        if count + 1 > heads.count / 2 { grow() }
        let b = Self.bucket(k, mask: heads.count - 1)
        let e: Int32
        if firstFree >= 0 {
            e = firstFree
            firstFree = entries[Int(e)].next
            entries[Int(e)] = Entry(key: k, ref: ref, next: heads[b])
        } else {
            e = Int32(entries.count)
            entries.append(Entry(key: k, ref: ref, next: heads[b]))
        }
        heads[b] = e
        count += 1
    }

    /// Removes `ref`, which was inserted at (x, y) (nothing when it isn't there).
    mutating func remove(_ ref: UInt32, x: Double, y: Double) {
        guard count > 0 else { return }
        let k = key(x, y), b = Self.bucket(k, mask: heads.count - 1)
        var previous: Int32 = -1, e = heads[b]
        while e >= 0 {
            if entries[Int(e)].ref == ref && entries[Int(e)].key == k {
                if previous >= 0 { entries[Int(previous)].next = entries[Int(e)].next } else { heads[b] = entries[Int(e)].next }
                entries[Int(e)].next = firstFree
                firstFree = e
                count -= 1
                return
            }
            previous = e
            e = entries[Int(e)].next
        }
    }

    /// Doubles the buckets and rehashes the live entries.
    @inline(never) private mutating func grow() {
        var live: [Entry] = []
        live.reserveCapacity(count)
        for h in heads {
            var e = h
            while e >= 0 { live.append(entries[Int(e)]); e = entries[Int(e)].next }
        }
        heads = [Int32](repeating: -1, count: max(64, heads.count * 2))
        entries.removeAll(keepingCapacity: true)
        firstFree = -1
        let mask = heads.count - 1
        for var entry in live {
            let b = Self.bucket(entry.key, mask: mask)
            entry.next = heads[b]
            entries.append(entry)
            heads[b] = Int32(entries.count - 1)
        }
    }

    /// Calls `body` for every entry whose cell touches the box (callers test positions).
    @inline(__always) func forEachCandidate(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UInt32) -> Void) {
        guard count > 0, minX <= maxX, minY <= maxY else { return }
        let a = key(minX, minY), b = key(maxX, maxY)
        let x0 = a & 0xFFFF_FFFF, y0 = a >> 32, x1 = b & 0xFFFF_FFFF, y1 = b >> 32
        heads.withUnsafeBufferPointer { heads in
            entries.withUnsafeBufferPointer { es in
                // A wide box over a sparse grid: scan the entries instead of the cells.
                if (x1 - x0 + 1) * (y1 - y0 + 1) > UInt64(count) {
                    for h in heads {
                        var e = h
                        while e >= 0 {
                            let k = es[Int(e)].key, x = k & 0xFFFF_FFFF, y = k >> 32
                            if x >= x0 && x <= x1 && y >= y0 && y <= y1 { body(es[Int(e)].ref) }
                            e = es[Int(e)].next
                        }
                    }
                    return
                }
                let mask = heads.count - 1
                for y in y0...y1 {
                    for x in x0...x1 {
                        let k = (y << 32) | x
                        var e = heads[Self.bucket(k, mask: mask)]
                        while e >= 0 {
                            if es[Int(e)].key == k { body(es[Int(e)].ref) }
                            e = es[Int(e)].next
                        }
                    }
                }
            }
        }
    }
}
