import Dispatch

/// The items of consecutive levels of a `HierarchicalClusterer` in one cell-sorted store, with
/// the candidate neighbour pairs of all those levels found by one sweep (the slot builder's
/// counterpart of `LevelBand`).
///
/// Items are identified by *slot*: a point's position among the valid inputs, which a cluster
/// inherits from its origin. Slot order is every level's visiting order, so nothing in the band
/// is renumbered when items merge: a merged item's entry gets the last level it is on, a new
/// cluster is appended as an overflow entry (found by a small per-cell table), and the stored
/// levels are merged into cell order once, by `finish`.
///
/// The pairs: the band's cells fit the radius of its lowest zoom `lastZoom`, and one sweep
/// lists every pair of entries within that zoom's search distance on both axes, with the
/// highest zoom whose search distance still covers it. Listed by that zoom, highest first, the
/// candidates of zoom z are a prefix: a level costs its candidates, not its items.
struct PairBand {
    /// `lowest` of an entry still on the band's lowest level.
    static let onBottom = UInt8.max

    let cell: Double
    let width: UInt64
    /// The band's first (highest) level and its lowest one so far.
    let topLevel: Int
    private(set) var bottomLevel: Int
    /// The lowest zoom whose neighbours the pairs cover (the band serves zooms topLevel − 1…lastZoom).
    let lastZoom: Int
    /// Per entry: cell key, Float coordinates, slot, item reference, highest and lowest level
    /// (`onBottom` while on the band's lowest level). Entries `0..<sortedCount` are in cell order.
    private(set) var keys: [UInt64]
    private(set) var x: [Float]
    private(set) var y: [Float]
    private(set) var slots: [UInt32]
    private(set) var refs: [UInt32]
    private(set) var highest: [UInt8]
    private(set) var lowest: [UInt8]
    let sortedCount: Int
    private(set) var deadCount = 0
    /// Candidate pairs (entry, entry) and the highest zoom each serves, highest zoom first.
    private var pairA: [UInt32] = [], pairB: [UInt32] = [], pairZoom: [UInt8] = []
    /// How many pairs serve the zoom being built.
    private var pairEnd = 0
    /// Pairs with an overflow entry, unordered.
    private var extraA: [UInt32] = [], extraB: [UInt32] = [], extraZoom: [UInt8] = []
    /// Overflow entries by cell key.
    private var overflowCells: [UInt64: [UInt32]] = [:]
    /// Search distance per zoom, indexed by `zoom - lastZoom`.
    private let eps: [Double]
    /// Candidate checks of the sweep (for choosing band lengths).
    private(set) var sweepWork = 0

    var entryCount: Int { keys.count }
    var aliveCount: Int { keys.count - deadCount }

    /// Entries from a sorted `CellIndex` whose items index `slotOf`/`refOf` (the compacted items
    /// of level `level`); `scratch` holds the sort's keys. Pairs are not listed yet (`sweepPairs`).
    init(index: CellIndex, scratch: CellIndex.SortScratch, slotOf: UnsafePointer<UInt32>, refOf: UnsafePointer<UInt32>,
         level: Int, lastZoom: Int, searchDistance: (Int) -> Double) {
        let n = index.count
        cell = index.cell
        width = index.width
        topLevel = level
        bottomLevel = level
        self.lastZoom = lastZoom
        x = index.x
        y = index.y
        let sorted = scratch.sorted, shift = scratch.shift
        keys = [UInt64](unsafeUninitializedCapacity: n) { b, c in
            for p in 0..<n { b[p] = sorted[p] >> shift }
            c = n
        }
        (slots, refs) = index.items.withUnsafeBufferPointer { items in
            let s = [UInt32](unsafeUninitializedCapacity: n) { b, c in
                for p in 0..<n { b[p] = slotOf[Int(items[p])] }
                c = n
            }
            let r = [UInt32](unsafeUninitializedCapacity: n) { b, c in
                for p in 0..<n { b[p] = refOf[Int(items[p])] }
                c = n
            }
            return (s, r)
        }
        highest = [UInt8](repeating: UInt8(level), count: n)
        lowest = [UInt8](repeating: Self.onBottom, count: n)
        sortedCount = n
        eps = (lastZoom..<max(level, lastZoom + 1)).map(searchDistance)
    }

    /// The entries as a `CellIndex` whose items are slots (for radius queries; dead entries
    /// included: callers check the slot is still alive).
    var slotIndex: CellIndex { CellIndex(cell: cell, width: width, x: x, y: y, items: slots) }

    /// The highest zoom in `lastZoom…topLevel − 1` whose search distance covers `d`, nil for none.
    @inline(__always) private func pairZoom(_ d: Double) -> UInt8? {
        if d > eps[0] { return nil }
        var z = eps.count - 1
        while eps[z] < d { z -= 1 }
        return UInt8(lastZoom + z)
    }

    /// Lists the candidate pairs of the sorted entries with a sweep in `parts` parts, on two
    /// threads for big bands (the list doesn't depend on the parts: tests compare); false when
    /// the candidate checks would exceed `budget`.
    mutating func sweepPairs(budget: Int, parts: Int? = nil) -> Bool {
        let n = sortedCount
        let halves = parts ?? (n >= 65_536 ? 2 : 1)
        final class Results: @unchecked Sendable {
            var parts: [([UInt32], [UInt32], [UInt8], Int)?]
            init(_ n: Int) { parts = Array(repeating: nil, count: n) }
        }
        let results = Results(halves)
        let band = self
        DispatchQueue.concurrentPerform(iterations: halves) { h in
            results.parts[h] = band.sweep(from: n * h / halves, to: n * (h + 1) / halves, budget: budget / halves)
        }
        var a: [UInt32] = [], b: [UInt32] = [], z: [UInt8] = []
        for h in 0..<halves {
            guard let part = results.parts[h] else { return false }
            a += part.0
            b += part.1
            z += part.2
            sweepWork += part.3
        }
        // Highest zoom first (a stable counting sort over the band's few zooms).
        var counts = [Int](repeating: 0, count: eps.count + 1)
        for v in z { counts[eps.count - 1 - (Int(v) - lastZoom) + 1] += 1 }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        pairA = [UInt32](repeating: 0, count: a.count)
        pairB = pairA
        pairZoom = [UInt8](repeating: 0, count: a.count)
        for k in 0..<a.count {
            let bucket = eps.count - 1 - (Int(z[k]) - lastZoom)
            let at = counts[bucket]
            counts[bucket] += 1
            pairA[at] = a[k]
            pairB[at] = b[k]
            pairZoom[at] = z[k]
        }
        return true
    }

    /// Pairs (a, b), a in `from..<to`, b after a in the same cell or the next one in the row, or
    /// in the three cells below, within the search distance of `lastZoom` on both axes.
    private func sweep(from: Int, to: Int, budget: Int) -> ([UInt32], [UInt32], [UInt8], Int)? {
        let n = sortedCount
        var outA: [UInt32] = [], outB: [UInt32] = [], outZ: [UInt8] = []
        var work = 0
        guard from < to else { return (outA, outB, outZ, 0) }
        return keys.withUnsafeBufferPointer { k in
        x.withUnsafeBufferPointer { xs in
        y.withUnsafeBufferPointer { ys in
            @inline(__always) func check(_ a: Int, _ b: Int) {
                let d = max(abs(Double(xs[a]) - Double(xs[b])), abs(Double(ys[a]) - Double(ys[b])))
                if let z = pairZoom(d) {
                    outA.append(UInt32(a))
                    outB.append(UInt32(b))
                    outZ.append(z)
                }
            }
            var p: Int = {
                let target = k[from] + width - 1
                var lo = 0, hi = n
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if k[mid] < target { lo = mid + 1 } else { hi = mid }
                }
                return lo
            }()
            for a in from..<to {
                let ka = k[a]
                var b = a + 1
                while b < n && k[b] <= ka + 1 {
                    check(a, b)
                    b += 1
                }
                let lo = ka + width - 1, hi = ka + width + 1
                while p < n && k[p] < lo { p += 1 }
                var q = p
                while q < n && k[q] <= hi {
                    check(a, q)
                    q += 1
                }
                work += (b - a - 1) + (q - p)
                if work + (a - from + 1) > budget { return nil }
            }
            return (outA, outB, outZ, work)
        }}}
    }

    /// The candidate pairs (entry, entry, highest zoom served) in the order levels use them.
    var candidatePairs: [(UInt32, UInt32, UInt8)] {
        (0..<pairA.count).map { (pairA[$0], pairB[$0], pairZoom[$0]) } + (0..<extraA.count).map { (extraA[$0], extraB[$0], extraZoom[$0]) }
    }

    /// Calls `body(slotA, slotB, xa, ya, xb, yb)` (Float coordinates as Double) for each
    /// candidate pair of zoom `zoom` whose entries are both on the band's lowest level.
    mutating func forEachCandidate(zoom: Int, _ body: (Int, Int, Double, Double, Double, Double) -> Void) {
        let z = UInt8(zoom)
        while pairEnd < pairZoom.count && pairZoom[pairEnd] >= z { pairEnd += 1 }
        @inline(__always) func visit(_ a: Int, _ b: Int) {
            if lowest[a] == Self.onBottom && lowest[b] == Self.onBottom {
                body(Int(slots[a]), Int(slots[b]), Double(x[a]), Double(y[a]), Double(x[b]), Double(y[b]))
            }
        }
        for k in 0..<pairEnd { visit(Int(pairA[k]), Int(pairB[k])) }
        for k in 0..<extraZoom.count where extraZoom[k] >= z { visit(Int(extraA[k]), Int(extraB[k])) }
    }

    /// Marks the entry as last on the band's lowest level (its item merged, or became a cluster).
    mutating func retire(_ e: Int) {
        lowest[e] = UInt8(bottomLevel)
        deadCount += 1
    }

    /// Moves the band's lowest level down by one (call `retire` for the level's merged items first).
    mutating func extend(toLevel level: Int) {
        precondition(level == bottomLevel - 1, "levels are added one at a time, downwards")
        bottomLevel = level
    }

    /// Appends a cluster of the band's lowest level and lists its candidate pairs (against
    /// the entries on that level); returns its entry.
    mutating func append(slot: UInt32, ref: UInt32, x cx: Double, y cy: Double) -> UInt32 {
        let fx = Float(cx), fy = Float(cy)
        let key = CellIndex.key(fx, fy, cell: cell, width: width)
        let e = UInt32(keys.count)
        keys.append(key)
        x.append(fx)
        y.append(fy)
        slots.append(slot)
        refs.append(ref)
        highest.append(UInt8(bottomLevel))
        lowest.append(Self.onBottom)
        guard bottomLevel - 1 >= lastZoom else { return e }
        @inline(__always) func consider(_ o: Int) {
            guard lowest[o] == Self.onBottom, o != Int(e) else { return }
            let d = max(abs(Double(fx) - Double(x[o])), abs(Double(fy) - Double(y[o])))
            if let z = pairZoom(d) {
                extraA.append(e)
                extraB.append(UInt32(o))
                extraZoom.append(z)
            }
        }
        let row = key / width, column = key % width
        for r in (row > 0 ? row - 1 : 0)...(row + 1) {
            let c0 = column > 0 ? column - 1 : 0
            let loKey = r * width + c0, hiKey = r * width + column + 1
            var lo = 0, hi = sortedCount
            while lo < hi {
                let mid = (lo + hi) >> 1
                if keys[mid] < loKey { lo = mid + 1 } else { hi = mid }
            }
            while lo < sortedCount && keys[lo] <= hiKey {
                consider(lo)
                lo += 1
            }
            for k in loKey...hiKey {
                if let list = overflowCells[k] { for o in list { consider(Int(o)) } }
            }
        }
        overflowCells[key, default: []].append(e)
        return e
    }

    /// The stored levels, highest first: the entries merged into cell order (overflow entries
    /// after the sorted ones of their cell), each level with the entries on it.
    func finish() -> [HierarchicalClusterer.Level] {
        let top = topLevel, bottom = bottomLevel
        if top == bottom && keys.count == sortedCount {
            // One level holding every entry, already in cell order.
            return [HierarchicalClusterer.Level(index: CellIndex(cell: cell, width: width, x: x, y: y, items: refs),
                                                level: UInt8(top))]
        }
        // Overflow entries by key (then slot), merged into the sorted ones.
        let extra = (sortedCount..<keys.count).sorted { keys[$0] != keys[$1] ? keys[$0] < keys[$1] : slots[$0] < slots[$1] }
        let total = keys.count
        var order = [Int](repeating: 0, count: total)
        var i = 0, j = 0
        for k in 0..<total {
            if j < extra.count && (i == sortedCount || keys[extra[j]] < keys[i]) {
                order[k] = extra[j]
                j += 1
            } else {
                order[k] = i
                i += 1
            }
        }
        let filtered = top != bottom
        var counts = [Int](repeating: 0, count: top - bottom + 2)
        var stored = 0
        var ox = [Float](repeating: 0, count: total), oy = ox
        var orefs = [UInt32](repeating: 0, count: total)
        var ohigh = [UInt8](repeating: 0, count: filtered ? total : 0), olow = ohigh
        ox.withUnsafeMutableBufferPointer { ox in
        oy.withUnsafeMutableBufferPointer { oy in
        orefs.withUnsafeMutableBufferPointer { orefs in
        ohigh.withUnsafeMutableBufferPointer { ohigh in
        olow.withUnsafeMutableBufferPointer { olow in
        x.withUnsafeBufferPointer { x in
        y.withUnsafeBufferPointer { y in
        refs.withUnsafeBufferPointer { refs in
        highest.withUnsafeBufferPointer { highest in
        lowest.withUnsafeBufferPointer { lowest in
            for e in order {
                let high = Int(highest[e]), low = lowest[e] == Self.onBottom ? bottom : Int(lowest[e])
                guard low <= high else { continue }  // a cluster of a level this band does not store
                ox[stored] = x[e]
                oy[stored] = y[e]
                orefs[stored] = refs[e]
                if filtered {
                    ohigh[stored] = UInt8(high)
                    olow[stored] = UInt8(low)
                }
                stored += 1
                counts[top - high] += 1
                counts[top - low + 1] -= 1
            }
        }}}}}}}}}}
        if stored < total {
            ox.removeLast(total - stored); oy.removeLast(total - stored); orefs.removeLast(total - stored)
            if filtered {
                ohigh.removeLast(total - stored)
                olow.removeLast(total - stored)
            }
        }
        let index = CellIndex(cell: cell, width: width, x: ox, y: oy, items: orefs)
        return HierarchicalClusterer.Level.stack(index: index, top: top, bottom: bottom, counts: counts,
                                                 highest: ohigh, lowest: olow)
    }
}
