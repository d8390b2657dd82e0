/// Every item's neighbours within a radius, for one level, computed at once.
///
/// `targets[start[i]..<start[i + 1]]` are the items (by visiting-order position) that a radius
/// query centred on item `i` would report, other than `i` itself. The test is the tree query's
/// own: the neighbour's Float coordinates against the centre's Double coordinates,
/// `dx·dx + dy·dy <= r·r`, so the sets are identical; only the order differs, and
/// `sortByRank` restores the query's order.
import Dispatch

/// Per-thread results of the sweep.
private final class SweepResults: @unchecked Sendable {
    var edges: [(edges: [UInt64], work: Int)?]
    init(_ n: Int) { edges = Array(repeating: nil, count: n) }
}

struct NeighborGraph {
    var start: [UInt32]
    var targets: [UInt32]
    /// Candidate pairs the sweep looked at (for choosing cell sizes: see `LevelBuilder`).
    var candidates = 0

    /// What the sweep reads, by cell-order position: Float coordinates, the item (a visiting
    /// position, or `LevelBand.dead` for an entry to skip), the cell key (`keys[p] >> shift`),
    /// and the Double centre: `cx/cy[p]` when given, else by item reference — a point's Double
    /// coordinates are its Float ones, a cluster's are in the cluster table.
    struct SweepInput: @unchecked Sendable {
        var entries: Int
        var xs: UnsafePointer<Float>
        var ys: UnsafePointer<Float>
        var item: UnsafePointer<UInt32>
        var keys: UnsafePointer<UInt64>
        var shift: UInt64
        var width: UInt64
        var cell: Double
        var cx: UnsafePointer<Double>? = nil
        var cy: UnsafePointer<Double>? = nil
        var refs: UnsafePointer<UInt32>? = nil
        var inputCount = 0
        var tableRows: UnsafePointer<HierarchicalClusterer.ClusterTable.Row>? = nil
        /// Only the edge from the lower item to the higher one (all the slot builder's greedy
        /// pass reads: an origin only takes items after it); both directions otherwise.
        var forwardOnly = false

        @inline(__always) func centre(_ p: Int) -> (Double, Double) {
            if let cx, let cy { return (cx[p], cy[p]) }
            let r = Int(refs![p])
            if r < inputCount { return (Double(xs[p]), Double(ys[p])) }
            let row = tableRows![r - inputCount]
            return (row.x, row.y)
        }
    }

    /// The grid cell needed to find neighbours within `r` (see `build`).
    static func cellSize(radius r: Double) -> Double { searchDistance(radius: r) * 1.0001 }

    /// A neighbour's Float coordinates are within r of the centre, and the centre is within
    /// half a Float ulp (< 3e-8 on 0…1) of its own Float coordinates: candidates are the pairs
    /// whose Float coordinates are this close on both axes.
    static func searchDistance(radius r: Double) -> Double { r * (1 + 1e-9) + 1e-7 }

    /// Builds the lists with a sweep over `index` (cells at least `cellSize(radius:)` wide, items
    /// being visiting-order positions; `centreX/Y` are the Double positions by visiting order);
    /// nil when the candidate pairs would exceed `budget` (very dense data), in which case
    /// per-item radius queries are the better tool.
    static func build(index: CellIndex, centreX: [Double], centreY: [Double], radius r: Double,
                      budget: Int) -> NeighborGraph? {
        let n = index.count
        var keys = [UInt64](repeating: 0, count: n)
        var cx = [Double](repeating: 0, count: n), cy = [Double](repeating: 0, count: n)
        for p in 0..<n {
            keys[p] = index.key(at: p)
            cx[p] = centreX[Int(index.items[p])]
            cy[p] = centreY[Int(index.items[p])]
        }
        let centreX = cx, centreY = cy
        return keys.withUnsafeBufferPointer { k in
            centreX.withUnsafeBufferPointer { cx in
                centreY.withUnsafeBufferPointer { cy in
                    build(index: index, keys: k.baseAddress, shift: 0, centreX: cx.baseAddress, centreY: cy.baseAddress,
                          radius: r, budget: budget)
                }
            }
        }
    }

    /// As above, with the index's by-products given by cell-order position: `keys[p] >> shift`
    /// is the key of position p, `centreX/Y[p]` its Double coordinates (sequential reads).
    static func build(index: CellIndex, keys: UnsafePointer<UInt64>?, shift: UInt64, centreX: UnsafePointer<Double>?,
                      centreY: UnsafePointer<Double>?, radius r: Double, budget: Int) -> NeighborGraph? {
        let n = index.count
        guard n > 0, let keys, let centreX, let centreY else { return NeighborGraph(start: [UInt32](repeating: 0, count: n + 1), targets: []) }
        return index.x.withUnsafeBufferPointer { xs in
            index.y.withUnsafeBufferPointer { ys in
                index.items.withUnsafeBufferPointer { item in
                    let input = SweepInput(entries: n, xs: xs.baseAddress!, ys: ys.baseAddress!, item: item.baseAddress!,
                                           keys: keys, shift: shift, width: index.width, cell: index.cell,
                                           cx: centreX, cy: centreY)
                    return build(input, positions: n, radius: r, budget: budget)
                }
            }
        }
    }

    /// Builds the lists for `positions` visiting positions from a sweep over `input`'s entries
    /// (entries marked `LevelBand.dead` are skipped); nil past the budget.
    static func build(_ input: SweepInput, positions n: Int, radius r: Double, budget: Int) -> NeighborGraph? {
        guard input.entries > 0 else { return NeighborGraph(start: [UInt32](repeating: 0, count: n + 1), targets: []) }
        guard let (edges, candidates) = sweepEdges(input, radius: r, budget: budget) else { return nil }

        var start = [UInt32](repeating: 0, count: n + 1)
        for e in edges { start[Int(e >> 32) + 1] &+= 1 }
        for i in 0..<n { start[i + 1] &+= start[i] }
        var fill = start
        var targets = [UInt32](repeating: 0, count: edges.count)
        for e in edges {
            let s = Int(e >> 32)
            targets[Int(fill[s])] = UInt32(truncatingIfNeeded: e)
            fill[s] &+= 1
        }
        return NeighborGraph(start: start, targets: targets, candidates: candidates)
    }

    /// The directed edges `item << 32 | neighbour` of `input`'s entries (the pairs within `r`
    /// by the radius query's test), in a fixed order, and the candidate pairs looked at; nil
    /// past the budget. `afterSweep` runs once the sweep has read the input, before the edges are
    /// gathered (a caller can give back memory there).
    static func sweepEdges(_ input: SweepInput, radius r: Double, budget: Int,
                           afterSweep: () -> Void = {}) -> (edges: [UInt64], candidates: Int)? {
        let entries = input.entries
        guard entries > 0 else { return ([], 0) }
        let eps = searchDistance(radius: r)
        precondition(input.cell >= eps, "grid cells too small for the radius")
        let r2 = r * r
        // Two halves of the sweep on two threads; each finds the pairs whose first item is in
        // its half, so together they find each pair once, and the edge order is fixed.
        let halves = entries >= 65_536 ? 2 : 1
        if input.forwardOnly && input.shift == 0 && input.cx != nil && input.cy != nil {
            return sweepEdgesForward(input, halves: halves, eps: eps, r2: r2, budget: budget, afterSweep: afterSweep)
        }
        let results = SweepResults(halves)
        let perHalfBudget = budget / halves
        DispatchQueue.concurrentPerform(iterations: halves) { h in
            results.edges[h] = sweep(input, from: entries * h / halves, to: entries * (h + 1) / halves,
                                     eps: eps, r2: r2, budget: perHalfBudget)
        }
        afterSweep()
        var edges: [UInt64] = []
        var candidates = 0
        for h in 0..<halves {
            guard let e = results.edges[h] else { return nil }
            edges += e.edges
            candidates += e.work
        }
        return (edges, candidates)
    }

    /// Candidate pairs (a, b) with `from ≤ a < to` and b after a in the same cell or the next one
    /// in the row, or in the three cells below, and how many were looked at; nil past the budget.
    static func sweep(_ input: SweepInput, from: Int, to: Int, eps: Double, r2: Double,
                      budget: Int) -> (edges: [UInt64], work: Int)? {
        let n = input.entries, k = input.keys
        let shift = input.shift, width = input.width
        var edges: [UInt64] = []
        var work = 0
        guard from < to else { return (edges, 0) }
        // First position of the rows below, found by binary search for this half's start.
        var p: Int = {
            let target = (k[from] >> shift) + width - 1
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) >> 1
                if k[mid] >> shift < target { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }()
        for a in from..<to {
            let ka = k[a] >> shift
            var b = a + 1
            while b < n && k[b] >> shift <= ka + 1 {  // same cell and the next one in the row
                check(input, a, b, eps: eps, r2: r2, into: &edges)
                b += 1
            }
            let lo = ka + width - 1, hi = ka + width + 1  // the three cells below
            while p < n && k[p] >> shift < lo { p += 1 }
            var q = p
            while q < n && k[q] >> shift <= hi {
                check(input, a, q, eps: eps, r2: r2, into: &edges)
                q += 1
            }
            work += (b - a - 1) + (q - p)
            if work + (a - from + 1) > budget { return nil }  // the budget counts each item once too
        }
        return (edges, work)
    }

    /// Appends the edges between entries a and b (see `SweepInput.forwardOnly`) whose
    /// Float positions are within `eps` on both axes and within the radius of the other's
    /// centre (a function with the edges passed in, not a closure capturing them: no run-time
    /// exclusivity checks per candidate).
    @inline(__always)
    private static func check(_ input: SweepInput, _ a: Int, _ b: Int, eps: Double, r2: Double,
                              into edges: inout [UInt64]) {
        let xs = input.xs, ys = input.ys
        let fxa = Double(xs[a]), fya = Double(ys[a]), fxb = Double(xs[b]), fyb = Double(ys[b])
        guard abs(fxa - fxb) <= eps && abs(fya - fyb) <= eps else { return }
        let ia = input.item[a], ib = input.item[b]
        guard ia != LevelBand.dead && ib != LevelBand.dead else { return }
        if input.forwardOnly {
            // The test from the lower item's centre to the higher item's Float position.
            let (cx, cy) = input.centre(ia < ib ? a : b)
            let dx = (ia < ib ? fxb : fxa) - cx, dy = (ia < ib ? fyb : fya) - cy
            if dx * dx + dy * dy <= r2 { edges.append(UInt64(min(ia, ib)) << 32 | UInt64(max(ia, ib))) }
            return
        }
        let (cxa, cya) = input.centre(a), (cxb, cyb) = input.centre(b)
        var dx = fxb - cxa, dy = fyb - cya
        if dx * dx + dy * dy <= r2 { edges.append(UInt64(ia) << 32 | UInt64(ib)) }
        dx = fxa - cxb
        dy = fya - cyb
        if dx * dx + dy * dy <= r2 { edges.append(UInt64(ib) << 32 | UInt64(ia)) }
    }

    /// For each visiting-order position, the rank of its item in the order a radius or range
    /// query on `tree` reports items: a node's middle item, then its right half, then its left
    /// half; leaves in stored order. Any query reports its hits in this order.
    static func traversalRanks(_ tree: StaticKDTree<Float>) -> [UInt32] {
        let n = tree.count
        var ranks = [UInt32](repeating: 0, count: n)
        guard n > 0 else { return ranks }
        let nodeSize = tree.nodeSize
        var rank: UInt32 = 0
        tree.ids.withUnsafeBufferPointer { ids in
            ranks.withUnsafeMutableBufferPointer { out in
                var stack: [(Int, Int)] = [(0, n - 1)]
                while let (left, right) = stack.popLast() {
                    if right < left { continue }
                    if right - left <= nodeSize {
                        for i in left...right {
                            out[Int(ids[i])] = rank
                            rank += 1
                        }
                        continue
                    }
                    let m = (left + right) >> 1
                    out[Int(ids[m])] = rank
                    rank += 1
                    stack.append((left, m - 1))
                    stack.append((m + 1, right))
                }
            }
        }
        return ranks
    }

    /// Sorts (insertion sort: lists are short) by traversal rank.
    @inline(__always) static func sortByRank(_ list: inout [UInt32], ranks: [UInt32]) {
        if list.count < 2 { return }
        list.withUnsafeMutableBufferPointer { l in
            for i in 1..<l.count {
                let v = l[i], rv = ranks[Int(v)]
                var j = i - 1
                while j >= 0 && ranks[Int(l[j])] > rv {
                    l[j + 1] = l[j]
                    j -= 1
                }
                l[j + 1] = v
            }
        }
    }
}
