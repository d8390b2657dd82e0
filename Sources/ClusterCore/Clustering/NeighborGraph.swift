/// Every item's neighbours within a radius, for one level, computed at once.
///
/// `targets[start[i]..<start[i + 1]]` are the items (by visiting-order position) that a radius
/// query centred on item `i` would report, other than `i` itself. The test is the tree query's
/// own: the neighbour's Float coordinates against the centre's Double coordinates,
/// `dx·dx + dy·dy <= r·r`, so the sets are identical; only the order differs, and
/// `sortByRank` restores the query's order.
struct NeighborGraph {
    var start: [UInt32]
    var targets: [UInt32]

    /// Builds the lists with a grid sweep over cells a little wider than the radius; nil when
    /// the candidate pairs would exceed `budget` (very dense data), in which case per-item
    /// radius queries are the better tool.
    static func build(x centreX: [Double], y centreY: [Double], radius r: Double,
                      budget: Int) -> NeighborGraph? {
        let n = centreX.count
        // A neighbour's Float coordinates are within r of the centre, and the centre is within
        // half a Float ulp (< 3e-8 on 0…1) of its own Float coordinates.
        let eps = r * (1 + 1e-9) + 1e-7
        let cell = eps * 1.0001
        guard n > 0, cell > 0, 1 / cell < Double(1 << 25) else { return nil }
        let width = UInt64(1 / cell) + 3
        // Items with their Float coordinates (as the tree stores them), sorted by grid cell.
        var cells = [GridEntry](repeating: GridEntry(), count: n)
        centreX.withUnsafeBufferPointer { xs in
            centreY.withUnsafeBufferPointer { ys in
                cells.withUnsafeMutableBufferPointer { out in
                    for i in 0..<n {
                        let fx = Float(xs[i]), fy = Float(ys[i])
                        let ix = UInt64(max(0, Double(fx) / cell))
                        let iy = UInt64(max(0, Double(fy) / cell))
                        out[i] = GridEntry(key: iy * width + ix, x: fx, y: fy, item: UInt32(i))
                    }
                }
            }
        }
        radixSort(&cells, maxKey: width * width)

        let r2 = r * r
        var edges: [UInt64] = []
        var work = 0
        let ok: Bool = cells.withUnsafeBufferPointer { g in
            centreX.withUnsafeBufferPointer { cx in
                centreY.withUnsafeBufferPointer { cy in
                    @inline(__always) func check(_ a: Int, _ b: Int) {
                        let fxa = Double(g[a].x), fya = Double(g[a].y), fxb = Double(g[b].x), fyb = Double(g[b].y)
                        guard abs(fxa - fxb) <= eps && abs(fya - fyb) <= eps else { return }
                        let ia = Int(g[a].item), ib = Int(g[b].item)
                        var dx = fxb - cx[ia], dy = fyb - cy[ia]
                        if dx * dx + dy * dy <= r2 { edges.append(UInt64(ia) << 32 | UInt64(ib)) }
                        dx = fxa - cx[ib]
                        dy = fya - cy[ib]
                        if dx * dx + dy * dy <= r2 { edges.append(UInt64(ib) << 32 | UInt64(ia)) }
                    }
                    var p = 0
                    for a in 0..<n {
                        let ka = g[a].key
                        var b = a + 1
                        while b < n && g[b].key <= ka + 1 {  // same cell and the next one in the row
                            check(a, b)
                            b += 1
                        }
                        let lo = ka + width - 1, hi = ka + width + 1  // the three cells below
                        while p < n && g[p].key < lo { p += 1 }
                        var q = p
                        while q < n && g[q].key <= hi {
                            check(a, q)
                            q += 1
                        }
                        work += (b - a) + (q - p)
                        if work > budget { return false }
                    }
                    return true
                }
            }
        }
        guard ok else { return nil }

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
        return NeighborGraph(start: start, targets: targets)
    }

    struct GridEntry {
        var key: UInt64 = 0
        var x: Float = 0
        var y: Float = 0
        var item: UInt32 = 0
    }

    /// LSD radix sort by key (all ≤ `maxKey`), 11 bits a pass; stable.
    static func radixSort(_ a: inout [GridEntry], maxKey: UInt64) {
        let n = a.count
        let bits = 64 - maxKey.leadingZeroBitCount
        var b = [GridEntry](repeating: GridEntry(), count: n)
        var counts = [Int](repeating: 0, count: 2048)
        var shift: UInt64 = 0
        while shift < UInt64(bits) {
            a.withUnsafeBufferPointer { src in
                b.withUnsafeMutableBufferPointer { dst in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in 0..<2048 { counts[i] = 0 }
                        for i in 0..<n { counts[Int((src[i].key >> shift) & 2047)] += 1 }
                        var sum = 0
                        for i in 0..<2048 {
                            let c = counts[i]
                            counts[i] = sum
                            sum += c
                        }
                        for i in 0..<n {
                            let d = Int((src[i].key >> shift) & 2047)
                            dst[counts[d]] = src[i]
                            counts[d] += 1
                        }
                    }
                }
            }
            swap(&a, &b)
            shift += 11
        }
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
