import Dispatch

/// A static index of points in the unit square, sorted by the row-major number of a square grid
/// cell (`row · width + column`), with `Float` coordinates.
///
/// It is built with a linear-time radix sort, and answers box and radius queries by
/// binary-searching each grid row the query touches. The hierarchical clusterer keeps one per
/// zoom level: building it costs a few sequential passes, where a kd-tree costs a branchy
/// O(n log n) sort, and the neighbour sweep (`NeighborGraph`) runs on the same sorted order.
struct CellIndex: Sendable {
    /// Side of a grid cell.
    let cell: Double
    /// Cells per row (columns past the unit square included, so a row never spills over).
    let width: UInt64
    /// Coordinates in cell order.
    private(set) var x: [Float]
    private(set) var y: [Float]
    /// Per position: an item reference (or, while a level is being built, a visiting-order index).
    var items: [UInt32]
    /// For a stored level's queries (`buildDirectory`): `directory[b]` is the first position whose
    /// key is at least `b << directoryShift`; empty when not built.
    var directory: [UInt32] = []
    var directoryShift: UInt64 = 0

    var count: Int { items.count }

    struct Entry {
        var key: UInt64 = 0
        var x: Float = 0
        var y: Float = 0
        var item: UInt32 = 0
    }

    /// Cell side for coordinates in 0…1: at least `minimumCell`, and fine enough that keys fit.
    static func cellSize(minimum: Double) -> Double {
        max(minimum, 1.0 / Double(1 << 25))
    }

    /// Indexes `Float(xs[i]), Float(ys[i])` with `items[position] = i`.
    /// - Complexity: O(*n*).
    init(xs: [Double], ys: [Double], cell minimumCell: Double) {
        precondition(xs.count == ys.count, "x and y must have the same length")
        let scratch = SortScratch()
        self = xs.withUnsafeBufferPointer { xp in
            ys.withUnsafeBufferPointer { yp in
                CellIndex(xs: xp.baseAddress, ys: yp.baseAddress, count: xs.count, cell: minimumCell, scratch: scratch)
            }
        }
    }

    /// An index over coordinates already in cell order (keys non-decreasing for this cell size),
    /// e.g. a `LevelBand`'s.
    init(cell: Double, width: UInt64, x: [Float], y: [Float], items: [UInt32]) {
        precondition(x.count == items.count && y.count == items.count, "columns must have the same length")
        self.cell = cell
        self.width = width
        self.x = x
        self.y = y
        self.items = items
    }

    /// Indexes `Float(xs[i]), Float(ys[i])` for i in 0..<count with `items[position] = i`, using
    /// (and leaving the by-products in) `scratch`. Same order as a stable sort by key.
    /// - Complexity: O(*n*).
    init(xs: UnsafePointer<Double>?, ys: UnsafePointer<Double>?, count n: Int, cell minimumCell: Double,
         scratch: SortScratch) {
        let cell = Self.cellSize(minimum: minimumCell)
        let width = UInt64(1 / cell) + 3
        self.cell = cell
        self.width = width
        let maxKey = width * width
        let keyBits = 64 - maxKey.leadingZeroBitCount
        let itemBits = n <= 1 ? 0 : 64 - UInt64(n - 1).leadingZeroBitCount
        scratch.reserve(n)
        guard n > 0, let xs, let ys else {
            self.x = []
            self.y = []
            self.items = []
            return
        }
        let parts = n >= 65_536 ? 2 : 1
        let sp = SendablePointer(scratch.sorted)
        let xsp = SendableConstPointer(xs), ysp = SendableConstPointer(ys)
        if keyBits + itemBits > 64 {
            // Keys too wide to pack the position with them: sort whole entries.
            var entries = [Entry](repeating: Entry(), count: n)
            entries.withUnsafeMutableBufferPointer { out in
                for i in 0..<n {
                    let fx = Float(xs[i]), fy = Float(ys[i])
                    out[i] = Entry(key: Self.key(fx, fy, cell: cell, width: width), x: 0, y: 0, item: UInt32(i))
                }
            }
            Self.radixSort(&entries, maxKey: maxKey)
            entries.withUnsafeBufferPointer { e in
                for i in 0..<n { scratch.sorted[i] = e[i].key }
            }
            scratch.shift = 0
            let ip = [UInt32](unsafeUninitializedCapacity: n) { b, c in
                for i in 0..<n { b[i] = entries[i].item }
                c = n
            }
            (x, y, items) = Self.gather(n: n, parts: parts, xs: xs, ys: ys, scratch: scratch) { p in Int(ip[p]) }
            return
        }
        // Packed values `key << itemBits | i`, created in order of i: a stable LSD radix sort on
        // the key bits leaves them ordered by key, then i.
        let shift = UInt64(itemBits)
        scratch.shift = shift
        DispatchQueue.concurrentPerform(iterations: parts) { h in
            let out = sp.pointer!, xs = xsp.pointer!, ys = ysp.pointer!
            for i in (n * h / parts)..<(n * (h + 1) / parts) {
                out[i] = Self.key(Float(xs[i]), Float(ys[i]), cell: cell, width: width) << shift | UInt64(i)
            }
        }
        Self.radixSortPacked(scratch, count: n, lowBit: itemBits, bits: keyBits)
        let mask = (UInt64(1) << shift) - 1
        let sorted = SendableConstPointer(UnsafePointer(scratch.sorted))
        (x, y, items) = Self.gather(n: n, parts: parts, xs: xs, ys: ys, scratch: scratch) { p in
            Int(sorted.pointer![p] & mask)
        }
    }

    /// Coordinates and items in cell order, given the item at each position; fills the
    /// scratch's `cx` and `cy`.
    @inline(__always)
    private static func gather(n: Int, parts: Int, xs: UnsafePointer<Double>, ys: UnsafePointer<Double>,
                               scratch: SortScratch, item: @escaping @Sendable (Int) -> Int)
        -> ([Float], [Float], [UInt32]) {
        var items: [UInt32] = [], y: [Float] = []
        let xsp = SendableConstPointer(xs), ysp = SendableConstPointer(ys)
        let cxp = SendablePointer(scratch.cx), cyp = SendablePointer(scratch.cy)
        let x = [Float](unsafeUninitializedCapacity: n) { xb, xc in
            y = [Float](unsafeUninitializedCapacity: n) { yb, yc in
                items = [UInt32](unsafeUninitializedCapacity: n) { ib, ic in
                    let xo = SendablePointer(xb.baseAddress), yo = SendablePointer(yb.baseAddress)
                    let io = SendablePointer(ib.baseAddress)
                    DispatchQueue.concurrentPerform(iterations: parts) { h in
                        let xs = xsp.pointer!, ys = ysp.pointer!, cx = cxp.pointer!, cy = cyp.pointer!
                        let xo = xo.pointer!, yo = yo.pointer!, io = io.pointer!
                        for p in (n * h / parts)..<(n * (h + 1) / parts) {
                            let i = item(p)
                            let dx = xs[i], dy = ys[i]
                            cx[p] = dx
                            cy[p] = dy
                            xo[p] = Float(dx)
                            yo[p] = Float(dy)
                            io[p] = UInt32(truncatingIfNeeded: i)
                        }
                    }
                    ic = n
                }
                yc = n
            }
            xc = n
        }
        return (x, y, items)
    }

    /// Stable LSD radix sort of `scratch.sorted[0..<n]` on bits `lowBit..<lowBit + bits`; the
    /// result is left in `scratch.sorted`.
    static func radixSortPacked(_ scratch: SortScratch, count n: Int, lowBit: Int, bits: Int) {
        if radixSort(scratch.sorted, spare: scratch.spare, count: n, lowBit: lowBit, bits: bits, counts: &scratch.counts) {
            swap(&scratch.sorted, &scratch.spare)
        }
    }

    /// Stable LSD radix sort of `values[0..<n]` on bits `lowBit..<lowBit + bits`, passing the
    /// values back and forth with `spare`; returns whether the result ended in `spare`.
    /// Counting and scattering run on two threads for big inputs (the result doesn't depend on
    /// them). `counts` is reusable scratch.
    static func radixSort(_ values: UnsafeMutablePointer<UInt64>, spare: UnsafeMutablePointer<UInt64>, count n: Int,
                          lowBit: Int, bits: Int, counts: inout [Int]) -> Bool {
        guard n > 1, bits > 0 else { return false }
        // Digits of up to 13 bits: two passes for the keys of a level's cells (up to 26 bits).
        let passes = (bits + 12) / 13
        let digitBits = (bits + passes - 1) / passes
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        let halves = n >= 65_536 ? 2 : 1
        if counts.count < 2 * buckets { counts = [Int](repeating: 0, count: 2 * buckets) }
        var from = values, to = spare
        for pass in 0..<passes {
            let shift = UInt64(lowBit + pass * digitBits)
            let s = SendableConstPointer(UnsafePointer(from)), d = SendablePointer(to)
            counts.withUnsafeMutableBufferPointer { counts in
                let c = SendablePointer(counts.baseAddress)
                DispatchQueue.concurrentPerform(iterations: halves) { h in
                    let src = s.pointer!, cnt = c.pointer! + h * buckets
                    for i in 0..<buckets { cnt[i] = 0 }
                    for i in (n * h / halves)..<(n * (h + 1) / halves) {
                        cnt[Int(truncatingIfNeeded: (src[i] >> shift) & mask)] &+= 1
                    }
                }
                CellIndex.turnCountsIntoOffsets(counts, buckets: buckets, halves: halves)
                DispatchQueue.concurrentPerform(iterations: halves) { h in
                    let src = s.pointer!, dst = d.pointer!, off = c.pointer! + h * buckets
                    for i in (n * h / halves)..<(n * (h + 1) / halves) {
                        let v = src[i]
                        let digit = Int(truncatingIfNeeded: (v >> shift) & mask)
                        dst[off[digit]] = v
                        off[digit] &+= 1
                    }
                }
            }
            swap(&from, &to)
        }
        return passes % 2 == 1
    }

    /// The first position whose key is at least `target` in `keys[0..<n]` (ascending), by
    /// bisection (where a sweep part starts its pointer to the rows below).
    static func firstPosition(_ keys: UnsafePointer<UInt64>, count n: Int, atLeast target: UInt64) -> Int {
        var lo = 0, hi = n
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    @inline(__always) static func column(_ v: Double, cell: Double) -> UInt64 {
        // Through Int: the same value (v / cell is far below 2^63 for coordinates in 0…1 and
        // cells of at least 2^-25, see `cellSize`), and a signed conversion is one instruction
        // where an unsigned one is a branchy sequence (every key of every build comes here).
        v > 0 ? UInt64(truncatingIfNeeded: Int(v / cell)) : 0
    }

    @inline(__always) static func key(_ fx: Float, _ fy: Float, cell: Double, width: UInt64) -> UInt64 {
        column(Double(fy), cell: cell) * width + column(Double(fx), cell: cell)
    }

    @inline(__always) func key(at p: Int) -> UInt64 {
        Self.key(x[p], y[p], cell: cell, width: width)
    }

    /// The first position whose key is at least `k`; every position before `start` must have a
    /// smaller key.
    @inline(__always) func lowerBound(_ k: UInt64, from start: Int = 0) -> Int {
        // Galloping from `start`: a box's next grid row usually begins a few cells on, so a few
        // nearby probes replace a search over the whole index (sparse levels of a band).
        Self.gallop({ key(at: $0) }, from: start, end: count, k)
    }

    /// The first position in `from..<end` whose key is at least `target` (keys ascending, all
    /// before `from` smaller), probing forward from `from` in doubling steps, then bisecting.
    @inline(__always)
    static func gallop(_ key: (Int) -> UInt64, from: Int, end: Int, _ target: UInt64) -> Int {
        var lo = from, hi = end
        if from > 0 {
            var step = 1, probe = from
            while probe < end && key(probe) < target {
                lo = probe + 1
                probe = from + step
                step <<= 1
            }
            hi = min(probe, end)
        }
        while lo < hi {
            let mid = (lo + hi) >> 1
            if key(mid) < target { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Calls `body(position)` for each item with `minX ≤ x ≤ maxX` and `minY ≤ y ≤ maxY`
    /// (coordinates as stored, compared in Double), in cell order.
    /// - Complexity: O(*rows* · log *n* + *k*).
    func forEachInRange(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (Int) -> Void) {
        let n = count
        guard n > 0, minX <= maxX, minY <= maxY, maxX >= 0, maxY >= 0, minX <= 1, minY <= 1 else { return }
        let r0 = Self.column(minY, cell: cell), r1 = Self.column(min(maxY, 1), cell: cell)
        let c0 = Self.column(minX, cell: cell), c1 = Self.column(min(maxX, 1), cell: cell)
        x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                @inline(__always) func test(_ p: Int) {
                    let px = Double(xs[p]), py = Double(ys[p])
                    if px >= minX && px <= maxX && py >= minY && py <= maxY { body(p) }
                }
                let rows = Int(r1 - r0 + 1)
                if rows * 24 > n {
                    // Tall boxes on fine grids: a plain scan is cheaper than a search per row.
                    let lo = lowerBound(r0 * width), hi = lowerBound((r1 + 1) * width, from: lo)
                    for p in lo..<hi { test(p) }
                    return
                }
                if !directory.isEmpty {
                    directory.withUnsafeBufferPointer { dir in
                        for row in r0...r1 {
                            let hiKey = row * width + c1
                            var p = Self.directoryLowerBound(row * width + c0, dir, shift: directoryShift) { key(at: $0) }
                            while p < n && key(at: p) <= hiKey {
                                test(p)
                                p += 1
                            }
                        }
                    }
                    return
                }
                var start = 0
                for row in r0...r1 {
                    let loKey = row * width + c0, hiKey = row * width + c1
                    var p = lowerBound(loKey, from: start)
                    while p < n && key(at: p) <= hiKey {
                        test(p)
                        p += 1
                    }
                    start = p
                }
            }
        }
    }

    /// Calls `body(position)` for each item whose stored coordinates satisfy
    /// `dx·dx + dy·dy <= r·r` against (qx, qy) — the kd-tree radius query's own test — in cell
    /// order.
    func forEachWithin(qx: Double, qy: Double, r: Double, _ body: (Int) -> Void) {
        let r2 = r * r
        x.withUnsafeBufferPointer { xs in
            y.withUnsafeBufferPointer { ys in
                forEachInRange(minX: qx - r, minY: qy - r, maxX: qx + r, maxY: qy + r) { p in
                    let dx = Double(xs[p]) - qx, dy = Double(ys[p]) - qy
                    if dx * dx + dy * dy <= r2 { body(p) }
                }
            }
        }
    }

    /// Radix-sort step shared by both sorts: per-half digit counts (laid out half by half)
    /// become scatter offsets, digit by digit with the first half's items before the second's,
    /// so the sort stays stable.
    @inline(__always)
    static func turnCountsIntoOffsets(_ counts: UnsafeMutableBufferPointer<Int>, buckets: Int, halves: Int) {
        var sum = 0
        for digit in 0..<buckets {
            for h in 0..<halves {
                let k = h * buckets + digit
                let v = counts[k]
                counts[k] = sum
                sum += v
            }
        }
    }

    /// LSD radix sort by key (all ≤ `maxKey`); stable. Each pass counts and scatters the two
    /// halves of the input on two threads; the result doesn't depend on the threads.
    static func radixSort(_ a: inout [Entry], maxKey: UInt64) {
        let n = a.count
        let bits = 64 - maxKey.leadingZeroBitCount
        guard n > 1, bits > 0 else { return }
        let passes = (bits + 13) / 14
        let digitBits = (bits + passes - 1) / passes
        let buckets = 1 << digitBits
        let mask = UInt64(buckets - 1)
        let halves = n >= 65_536 ? 2 : 1
        var b = [Entry](repeating: Entry(), count: n)
        var counts = [Int](repeating: 0, count: 2 * buckets)
        for pass in 0..<passes {
            let shift = UInt64(pass * digitBits)
            a.withUnsafeBufferPointer { src in
                b.withUnsafeMutableBufferPointer { dst in
                    counts.withUnsafeMutableBufferPointer { counts in
                        let s = SendableConstPointer(src.baseAddress), d = SendablePointer(dst.baseAddress)
                        let c = SendablePointer(counts.baseAddress)
                        DispatchQueue.concurrentPerform(iterations: halves) { h in
                            let src = s.pointer!, cnt = c.pointer! + h * buckets
                            for i in 0..<buckets { cnt[i] = 0 }
                            for i in (n * h / halves)..<(n * (h + 1) / halves) {
                                cnt[Int(truncatingIfNeeded: (src[i].key >> shift) & mask)] &+= 1
                            }
                        }
                        CellIndex.turnCountsIntoOffsets(counts, buckets: buckets, halves: halves)
                        DispatchQueue.concurrentPerform(iterations: halves) { h in
                            let src = s.pointer!, dst = d.pointer!, off = c.pointer! + h * buckets
                            for i in (n * h / halves)..<(n * (h + 1) / halves) {
                                let digit = Int(truncatingIfNeeded: (src[i].key >> shift) & mask)
                                dst[off[digit]] = src[i]
                                off[digit] &+= 1
                            }
                        }
                    }
                }
            }
            swap(&a, &b)
        }
    }
}
