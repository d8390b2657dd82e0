/// Every item's neighbours within a radius, for one level, computed at once.
///
/// `targets[start[p]..<start[p + 1]]` are the items (by visiting-order index) that a radius
/// query centred on the item at cell-order position `p` would report, other than itself, in
/// cell order (the order of the cell index's own radius query). The test is the tree query's
/// own: the neighbour's Float coordinates against the centre's Double coordinates,
/// `dx·dx + dy·dy <= r·r`, so the sets are identical; `sortByRank` restores a kd-tree's order.
import Dispatch

/// Per-thread results of the sweep.
private final class SweepResults: @unchecked Sendable {
    var targets: [[UInt32]?]
    init(_ n: Int) { targets = Array(repeating: nil, count: n) }
}

struct NeighborGraph {
    /// By cell-order position: where its list starts in `targets`.
    var start: [UInt32]
    /// Neighbour lists, as visiting-order item indices.
    var targets: [UInt32]
    /// By visiting-order item index: whether its list is not empty.
    var hasNeighbors: [Bool]

    /// The grid cell needed to find neighbours within `r` (see `build`).
    static func cellSize(radius r: Double) -> Double { searchDistance(radius: r) * 1.0001 }

    /// A neighbour's Float coordinates are within r of the centre, and the centre is within
    /// half a Float ulp (< 3e-8 on 0…1) of its own Float coordinates: candidates are the pairs
    /// whose Float coordinates are this close on both axes.
    static func searchDistance(radius r: Double) -> Double { r * (1 + 1e-9) + 1e-7 }

    /// The neighbour list of the item at a cell-order position.
    @inline(__always) func neighbors(atPosition p: Int) -> ArraySlice<UInt32> {
        targets[Int(start[p])..<Int(start[p + 1])]
    }

    /// Builds the lists for `index` (cells at least `cellSize(radius:)` wide, items being
    /// visiting-order indices; `centreX/Y` are the Double positions by visiting order);
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
        return keys.withUnsafeBufferPointer { k in
            cx.withUnsafeBufferPointer { cx in
                cy.withUnsafeBufferPointer { cy in
                    build(index: index, keys: k.baseAddress, shift: 0, centreX: cx.baseAddress, centreY: cy.baseAddress,
                          radius: r, budget: budget)
                }
            }
        }
    }

    /// As above, with the index's by-products given by cell-order position: `keys[p] >> shift`
    /// is the key of position p, `centreX/Y[p]` its Double coordinates.
    static func build(index: CellIndex, keys: UnsafePointer<UInt64>?, shift: UInt64, centreX: UnsafePointer<Double>?,
                      centreY: UnsafePointer<Double>?, radius r: Double, budget: Int) -> NeighborGraph? {
        let n = index.count
        guard n > 0, let keys, let centreX, let centreY else {
            return NeighborGraph(start: [0], targets: [], hasNeighbors: [])
        }
        let eps = searchDistance(radius: r)
        precondition(index.cell >= eps, "grid cells too small for the radius")
        let width = index.width
        let r2 = r * r
        // Two halves on two threads, each for the items at its positions; lists concatenate.
        let halves = n >= 65_536 ? 2 : 1
        let results = SweepResults(halves)
        let perHalfBudget = budget / halves
        var start = [UInt32](unsafeUninitializedCapacity: n + 1) { _, c in c = n + 1 }
        var hasNeighbors = [Bool](repeating: false, count: n)
        index.x.withUnsafeBufferPointer { xs in
          index.y.withUnsafeBufferPointer { ys in
            index.items.withUnsafeBufferPointer { item in
              start.withUnsafeMutableBufferPointer { st in
                hasNeighbors.withUnsafeMutableBufferPointer { hn in
                    let xs = SendableConstPointer(xs.baseAddress), ys = SendableConstPointer(ys.baseAddress)
                    let item = SendableConstPointer(item.baseAddress), k = SendableConstPointer(keys)
                    let cx = SendableConstPointer(centreX), cy = SendableConstPointer(centreY)
                    let st = SendablePointer(st.baseAddress), hn = SendablePointer(hn.baseAddress)
                    DispatchQueue.concurrentPerform(iterations: halves) { h in
                        results.targets[h] = sweep(from: n * h / halves, to: n * (h + 1) / halves, count: n,
                                                   xs: xs.pointer!, ys: ys.pointer!, item: item.pointer!, k: k.pointer!,
                                                   shift: shift, cx: cx.pointer!, cy: cy.pointer!, eps: eps, r2: r2,
                                                   width: width, budget: perHalfBudget, start: st.pointer!,
                                                   hasNeighbors: hn.pointer!)
                    }
                }
              }
            }
          }
        }
        guard let first = results.targets[0] else { return nil }
        var targets = first
        for h in 1..<halves {
            guard let more = results.targets[h] else { return nil }
            let offset = UInt32(targets.count)
            start.withUnsafeMutableBufferPointer { st in
                for p in (n * h / halves)..<(n * (h + 1) / halves) { st[p] &+= offset }
            }
            targets += more
        }
        start[n] = UInt32(targets.count)
        return NeighborGraph(start: start, targets: targets, hasNeighbors: hasNeighbors)
    }

    /// The lists of positions `from..<to`: for each, the items in the 3×3 cells around its
    /// own, in cell order (row above, own row, row below; keys ascending), that pass the test.
    /// Writes `start[p]` (offsets into the returned array); nil past the budget.
    static func sweep(from: Int, to: Int, count n: Int, xs: UnsafePointer<Float>, ys: UnsafePointer<Float>,
                      item: UnsafePointer<UInt32>, k: UnsafePointer<UInt64>, shift: UInt64, cx: UnsafePointer<Double>,
                      cy: UnsafePointer<Double>, eps: Double, r2: Double, width: UInt64, budget: Int,
                      start: UnsafeMutablePointer<UInt32>, hasNeighbors: UnsafeMutablePointer<Bool>) -> [UInt32]? {
        var targets: [UInt32] = []
        var work = 0
        guard from < to else { return targets }
        @inline(__always) func lowerBound(_ target: UInt64) -> Int {
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) >> 1
                if k[mid] >> shift < target { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        @inline(__always) func below(_ key: UInt64, _ d: UInt64) -> UInt64 { key >= d ? key - d : 0 }
        let k0 = k[from] >> shift
        var pAbove = lowerBound(below(k0, width + 1))
        var pSame = lowerBound(below(k0, 1))
        var pBelow = lowerBound(k0 + width - 1)
        for a in from..<to {
            start[a] = UInt32(truncatingIfNeeded: targets.count)
            let ka = k[a] >> shift
            let fxa = Double(xs[a]), fya = Double(ys[a]), cxa = cx[a], cya = cy[a]
            var found = false
            @inline(__always) func scan(_ p: inout Int, _ lo: UInt64, _ hi: UInt64) {
                while p < n && k[p] >> shift < lo { p += 1 }
                var q = p
                while q < n && k[q] >> shift <= hi {
                    if q != a {
                        let fxb = Double(xs[q]), fyb = Double(ys[q])
                        if abs(fxa - fxb) <= eps && abs(fya - fyb) <= eps {
                            let dx = fxb - cxa, dy = fyb - cya
                            if dx * dx + dy * dy <= r2 {
                                targets.append(item[q])
                                found = true
                            }
                        }
                    }
                    q += 1
                }
                work += q - p + 1
            }
            if ka + 1 >= width {  // a row above
                scan(&pAbove, below(ka, width + 1), ka - width + 1)
            }
            scan(&pSame, below(ka, 1), ka + 1)
            scan(&pBelow, ka + width - 1, ka + width + 1)
            if found { hasNeighbors[Int(item[a])] = true }
            if work > budget { return nil }
        }
        return targets
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
