/// A small hash grid of item references for one zoom level of a `LiveClusterIndex`: the items
/// that level holds beyond (or instead of) what its base build holds. Entries may go stale
/// (an item that left the level); readers filter them by the index's node state.
///
/// Chained buckets in flat arrays with a multiplicative hash: a neighbour query looks at a few
/// cells, and with Swift's hashed `Dictionary` each look-up cost more than the rest of the query.
struct OverlayGrid: Sendable {
    /// Side of a grid cell in unit coordinates (the level's neighbour radius).
    let cell: Double
    /// Bucket → its first entry (−1: none); the count is a power of two.
    private var heads: [Int32] = []
    // Entries: cell key, item, next entry in the bucket (or in the free list).
    private var keys: [UInt64] = []
    private var refs: [UInt32] = []
    private var next: [Int32] = []
    private var firstFree: Int32 = -1
    /// Live entries.
    private(set) var count = 0

    init(cell: Double) { self.cell = cell }

    var isEmpty: Bool { count == 0 }

    @inline(__always) func key(_ x: Double, _ y: Double) -> UInt64 {
        let ix = UInt64(max(0, min(x, 1)) / cell), iy = UInt64(max(0, min(y, 1)) / cell)
        return (iy << 32) | ix
    }

    @inline(__always) private func bucket(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 40) & (heads.count - 1)
    }

    /// Adds `ref` at (x, y) unless it is already there.
    mutating func insert(_ ref: UInt32, x: Double, y: Double) {
        let k = key(x, y)
        if !heads.isEmpty {
            var e = heads[bucket(k)]
            while e >= 0 {
                if refs[Int(e)] == ref && keys[Int(e)] == k { return }
                e = next[Int(e)]
            }
        }
        if count + 1 > heads.count / 2 { grow() }
        let b = bucket(k)
        let e: Int32
        if firstFree >= 0 {
            e = firstFree
            firstFree = next[Int(e)]
            keys[Int(e)] = k; refs[Int(e)] = ref; next[Int(e)] = heads[b]
        } else {
            e = Int32(keys.count)
            keys.append(k); refs.append(ref); next.append(heads[b])
        }
        heads[b] = e
        count += 1
    }

    /// Removes `ref`, which was inserted at (x, y) (nothing when it isn't there).
    mutating func remove(_ ref: UInt32, x: Double, y: Double) {
        guard count > 0 else { return }
        let k = key(x, y), b = bucket(k)
        var previous: Int32 = -1, e = heads[b]
        while e >= 0 {
            if refs[Int(e)] == ref && keys[Int(e)] == k {
                if previous >= 0 { next[Int(previous)] = next[Int(e)] } else { heads[b] = next[Int(e)] }
                next[Int(e)] = firstFree
                firstFree = e
                count -= 1
                return
            }
            previous = e
            e = next[Int(e)]
        }
    }

    /// Doubles the buckets and rehashes the live entries.
    private mutating func grow() {
        var live: [(UInt64, UInt32)] = []
        live.reserveCapacity(count)
        for h in heads {
            var e = h
            while e >= 0 { live.append((keys[Int(e)], refs[Int(e)])); e = next[Int(e)] }
        }
        heads = [Int32](repeating: -1, count: max(64, heads.count * 2))
        keys.removeAll(keepingCapacity: true); refs.removeAll(keepingCapacity: true); next.removeAll(keepingCapacity: true)
        firstFree = -1
        for (k, r) in live {
            let b = bucket(k)
            keys.append(k); refs.append(r); next.append(heads[b])
            heads[b] = Int32(keys.count - 1)
        }
    }

    /// Calls `body` for every entry whose cell touches the box (callers test positions).
    @inline(__always) func forEachCandidate(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UInt32) -> Void) {
        guard count > 0, minX <= maxX, minY <= maxY else { return }
        let a = key(minX, minY), b = key(maxX, maxY)
        let x0 = a & 0xFFFF_FFFF, y0 = a >> 32, x1 = b & 0xFFFF_FFFF, y1 = b >> 32
        // A wide box over a sparse grid: scan the entries instead of the cells.
        if (x1 - x0 + 1) * (y1 - y0 + 1) > UInt64(count) {
            for h in heads {
                var e = h
                while e >= 0 {
                    let k = keys[Int(e)], x = k & 0xFFFF_FFFF, y = k >> 32
                    if x >= x0 && x <= x1 && y >= y0 && y <= y1 { body(refs[Int(e)]) }
                    e = next[Int(e)]
                }
            }
            return
        }
        for y in y0...y1 {
            for x in x0...x1 {
                let k = (y << 32) | x
                var e = heads[bucket(k)]
                while e >= 0 {
                    if keys[Int(e)] == k { body(refs[Int(e)]) }
                    e = next[Int(e)]
                }
            }
        }
    }
}
