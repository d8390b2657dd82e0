/// The items of several consecutive levels of a `HierarchicalClusterer` in one cell index.
///
/// At high zooms a level merges a few items out of a million, yet rebuilding its index (a radix
/// sort and a gather of every item in random order) and storing it in full cost as much as at
/// any other zoom. A band instead sorts the items once, with cells wide enough for the radius of
/// the band's lowest level, and carries them down: an item merged away is marked dead (the level
/// below which it no longer exists), a new cluster is inserted at its cell. Each entry keeps the
/// range of levels it is on, so one set of columns stores every level of the band (14 bytes per
/// entry instead of 12 per item per level).
///
/// Entries are ordered by cell key, then by visiting position; restricted to one level, that is
/// exactly the order of a `CellIndex` built from scratch over that level's items with the same
/// cells (the carried items keep their relative visiting order, and a cluster takes its origin's
/// place), which `LevelBandTests` checks.
struct LevelBand {
    /// Marks a dead entry's position.
    static let dead = UInt32.max

    let cell: Double
    let width: UInt64
    /// The band's first (highest) level and its lowest one so far.
    let topLevel: Int
    private(set) var bottomLevel: Int
    /// Per entry, in cell order.
    private(set) var keys: [UInt64]
    private(set) var x: [Float]
    private(set) var y: [Float]
    /// Visiting position on the band's lowest level, `dead` when the entry is not on it.
    private(set) var positions: [UInt32]
    /// Item references: an input index, or `inputCount + cluster number`.
    private(set) var refs: [UInt32]
    /// The highest and lowest level each entry is on (`lowest` is final once the entry is dead).
    private(set) var highest: [UInt8]
    private(set) var lowest: [UInt8]
    private(set) var deadCount = 0
    /// Whether the sort scratch's `cx/cy` still hold the entries' Double coordinates in entry
    /// order (until the next sort, or an insertion): the sweep then reads them sequentially
    /// instead of looking clusters up in the cluster table.
    private(set) var centresInScratch = true

    var entryCount: Int { keys.count }
    var aliveCount: Int { keys.count - deadCount }

    /// Sorts the `count` items of a level into cells at least `minimumCell` wide.
    /// - Complexity: O(*n*).
    init(items: UnsafePointer<UInt32>, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>, count n: Int,
         level: Int, minimumCell: Double, scratch: CellIndex.SortScratch) {
        let index = CellIndex(xs: xs, ys: ys, count: n, cell: minimumCell, scratch: scratch)
        cell = index.cell
        width = index.width
        topLevel = level
        bottomLevel = level
        x = index.x
        y = index.y
        positions = index.items
        let sorted = scratch.sorted, shift = scratch.shift
        keys = [UInt64](unsafeUninitializedCapacity: n) { b, c in
            for p in 0..<n { b[p] = sorted[p] >> shift }
            c = n
        }
        refs = index.items.withUnsafeBufferPointer { pos in
            [UInt32](unsafeUninitializedCapacity: n) { b, c in
                for p in 0..<n { b[p] = items[Int(pos[p])] }
                c = n
            }
        }
        highest = [UInt8](repeating: UInt8(level), count: n)
        lowest = highest
    }

    /// The band's entries as a `CellIndex` whose items are visiting positions (`dead` for
    /// entries not on the lowest level), for radius queries.
    var positionIndex: CellIndex { CellIndex(cell: cell, width: width, x: x, y: y, items: positions) }

    /// Carries the band down one level on which nothing changed.
    mutating func extend(toLevel level: Int) {
        precondition(level == bottomLevel - 1, "levels are added one at a time, downwards")
        bottomLevel = level
    }

    /// Carries the band down one level: `newPosition[p]` is where the item at visiting position p
    /// went (`dead` when it was merged into a cluster), `clusters` are the new level's clusters.
    /// - Complexity: O(*n* + *m* log *m*) for *m* new clusters.
    mutating func carry(toLevel level: Int, newPosition: UnsafePointer<UInt32>, clusters: [NewCluster]) {
        precondition(level == bottomLevel - 1, "levels are added one at a time, downwards")
        let dyingLevel = UInt8(bottomLevel)
        var died = 0
        positions.withUnsafeMutableBufferPointer { pos in
            lowest.withUnsafeMutableBufferPointer { low in
                for e in 0..<pos.count where pos[e] != Self.dead {
                    let p = newPosition[Int(pos[e])]
                    if p == Self.dead {
                        low[e] = dyingLevel
                        died += 1
                    }
                    pos[e] = p
                }
            }
        }
        deadCount += died
        bottomLevel = level
        if !clusters.isEmpty {
            insert(clusters, level: level)
            centresInScratch = false
        }
    }

    /// A cluster made on the band's lowest level.
    struct NewCluster {
        var position: UInt32
        var x: Double
        var y: Double
        var ref: UInt32
    }

    /// Inserts clusters at their cells, after the entries of the level that come before them in
    /// visiting order (dead entries don't count: they are never on a level with the cluster).
    private mutating func insert(_ clusters: [NewCluster], level: Int) {
        var new = clusters.map { c -> (key: UInt64, x: Float, y: Float, position: UInt32, ref: UInt32) in
            let fx = Float(c.x), fy = Float(c.y)
            return (CellIndex.key(fx, fy, cell: cell, width: width), fx, fy, c.position, c.ref)
        }
        new.sort { $0.key != $1.key ? $0.key < $1.key : $0.position < $1.position }
        // Insertion points, ascending.
        var at: [Int] = []
        at.reserveCapacity(new.count)
        keys.withUnsafeBufferPointer { k in
            positions.withUnsafeBufferPointer { pos in
                var from = 0
                for c in new {
                    var lo = from, hi = k.count
                    while lo < hi {
                        let mid = (lo + hi) >> 1
                        if k[mid] < c.key { lo = mid + 1 } else { hi = mid }
                    }
                    while lo < k.count && k[lo] == c.key && (pos[lo] == Self.dead || pos[lo] < c.position) { lo += 1 }
                    at.append(lo)
                    from = lo
                }
            }
        }
        keys = Self.inserting(keys, at: at, new.map(\.key))
        x = Self.inserting(x, at: at, new.map(\.x))
        y = Self.inserting(y, at: at, new.map(\.y))
        positions = Self.inserting(positions, at: at, new.map(\.position))
        refs = Self.inserting(refs, at: at, new.map(\.ref))
        highest = Self.inserting(highest, at: at, [UInt8](repeating: UInt8(level), count: new.count))
        lowest = Self.inserting(lowest, at: at, [UInt8](repeating: UInt8(level), count: new.count))
    }

    /// `a` with `values[k]` inserted before `a[at[k]]` (`at` ascending), by block copies.
    private static func inserting<T>(_ a: [T], at: [Int], _ values: [T]) -> [T] {
        let n = a.count, m = values.count
        return a.withUnsafeBufferPointer { src in
            [T](unsafeUninitializedCapacity: n + m) { dst, c in
                var read = 0, write = 0
                for k in 0..<m {
                    let run = at[k] - read
                    if run > 0 {
                        (dst.baseAddress! + write).initialize(from: src.baseAddress! + read, count: run)
                        write += run
                        read += run
                    }
                    (dst.baseAddress! + write).initialize(to: values[k])
                    write += 1
                }
                if n > read { (dst.baseAddress! + write).initialize(from: src.baseAddress! + read, count: n - read) }
                c = n + m
            }
        }
    }

    /// The stored levels, highest first: one shared set of columns, each level with the
    /// entries on it.
    func finish() -> [HierarchicalClusterer.Level] {
        let top = topLevel, bottom = bottomLevel
        var low = lowest
        var counts = [Int](repeating: 0, count: top - bottom + 2)
        low.withUnsafeMutableBufferPointer { low in
            positions.withUnsafeBufferPointer { pos in
                highest.withUnsafeBufferPointer { high in
                    for e in 0..<low.count {
                        if pos[e] != Self.dead { low[e] = UInt8(bottom) }
                        // Entry e is on levels low...high: +1 at high, −1 below low (difference array).
                        counts[top - Int(high[e])] += 1
                        counts[top - Int(low[e]) + 1] -= 1
                    }
                }
            }
        }
        let index = CellIndex(cell: cell, width: width, x: x, y: y, items: refs)
        // A single level with no dead entries needs no per-entry filter.
        let filtered = top != bottom || deadCount > 0
        return HierarchicalClusterer.Level.stack(index: index, top: top, bottom: bottom, counts: counts,
                                                 highest: filtered ? highest : [], lowest: filtered ? low : [])
    }
}
