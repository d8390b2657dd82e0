import CIndexSweep
import Dispatch

/// The slot builder's greedy pass, in two steps: which origins take which slots is decided
/// from the edges and the alive bits alone, in slot order (`resolve`, serial but reading only
/// bits that stay in cache); then the clusters are written (`commit`): reading every member's
/// centre and count is the costly, cache-missing part, and clusters don't depend on each other
/// any more, so two threads share it.
extension LevelBuilder {
    /// One level's merges: `origins[k]` took `taken[takenEnd[k − 1]..<takenEnd[k]]` (slots, ascending).
    struct LevelMerges {
        var origins: [UInt32] = []
        var takenEnd: [UInt32] = []
        var taken: [UInt32] = []

        var count: Int { origins.count }

        mutating func removeAll() {
            origins.removeAll(keepingCapacity: true)
            takenEnd.removeAll(keepingCapacity: true)
            taken.removeAll(keepingCapacity: true)
        }

        func takenRange(_ k: Int) -> Range<Int> { (k == 0 ? 0 : Int(takenEnd[k - 1]))..<Int(takenEnd[k]) }
    }

    /// Decides the level's merges from its edges (`origin << 32 | neighbour`, origin < neighbour):
    /// in slot order, each origin still alive takes every neighbour still alive. Kills the taken
    /// slots. `spare` is a reusable sort buffer.
    ///
    /// The walk is serial (an origin's fate depends on every origin before it), so it is written
    /// without a branch per edge: each target is written and counted only if it was alive, and
    /// its bit cleared either way (whether a neighbour is still alive is hard to predict on
    /// dense levels; the walk took ~18 % less CPU at 1M points this way).
    static func resolve(_ edges: inout [UInt64], spare: inout [UInt64], slots: Slots, into merges: inout LevelMerges) {
        merges.removeAll()
        sortByOrigin(&edges, spare: &spare, slots: slots.n)
        let m = edges.count
        guard m > 0 else { return }
        let alive = slots.alive
        edges.withUnsafeBufferPointer { ed in
            var k = 0
            while k < m {
                // A chunk of whole groups; the arrays get room for the most it can add (every
                // edge taking its target, an origin per edge) and are trimmed after it, so that
                // they stay near their real size (and keep their capacity from level to level).
                var end = min(m, k + Self.resolveChunk)
                while end < m && ed[end] >> 32 == ed[end - 1] >> 32 { end += 1 }
                var taken = merges.taken.count, origins = merges.origins.count
                merges.taken.append(contentsOf: repeatElement(0, count: end - k))
                merges.origins.append(contentsOf: repeatElement(0, count: end - k))
                merges.takenEnd.append(contentsOf: repeatElement(0, count: end - k))
                merges.taken.withUnsafeMutableBufferPointer { out in
                merges.origins.withUnsafeMutableBufferPointer { originOut in
                merges.takenEnd.withUnsafeMutableBufferPointer { endOut in
                    while k < end {
                        let i = Int(ed[k] >> 32)
                        var g = k + 1
                        while g < end && Int(ed[g] >> 32) == i { g += 1 }
                        if alive[i >> 6] & (1 << UInt64(i & 63)) != 0 {
                            let start = taken
                            for e in k..<g {
                                let j = Int(ed[e] & 0xFFFF_FFFF)
                                let w = j >> 6, bit = UInt64(j & 63)
                                let word = alive[w]
                                out[taken] = UInt32(truncatingIfNeeded: j)
                                taken &+= Int(truncatingIfNeeded: (word >> bit) & 1)
                                alive[w] = word & ~(1 << bit)
                            }
                            if taken > start {
                                if taken - start > 1 {
                                    // Members in visiting order (an origin's edges come in sweep order).
                                    for a in (start + 1)..<taken {
                                        let v = out[a]
                                        var b = a - 1
                                        while b >= start && out[b] > v {
                                            out[b + 1] = out[b]
                                            b -= 1
                                        }
                                        out[b + 1] = v
                                    }
                                }
                                originOut[origins] = UInt32(truncatingIfNeeded: i)
                                endOut[origins] = UInt32(truncatingIfNeeded: taken)
                                origins += 1
                            }
                        }
                        k = g
                    }
                }}}
                merges.taken.removeLast(merges.taken.count - taken)
                merges.origins.removeLast(merges.origins.count - origins)
                merges.takenEnd.removeLast(merges.takenEnd.count - origins)
            }
        }
    }

    /// Edges per chunk of `resolve`'s walk.
    static let resolveChunk = 1 << 16

    /// Appends the level's clusters to `table` (zoom `zoom`, numbered from `table.rows.count` in
    /// origin order) and puts each in its origin's slot: centres summed origin first, then in
    /// visiting order; children likewise. Two threads for many clusters (the result doesn't
    /// depend on them).
    static func commit(_ merges: LevelMerges, slots: Slots, zoom: Int, inputCount: Int,
                       table: inout HierarchicalClusterer.ClusterTable) {
        let k = merges.count
        guard k > 0 else { return }
        let c0 = table.rows.count, child0 = table.childItems.count
        table.rows.append(contentsOf: repeatElement(.init(x: 0, y: 0, count: 0, origin: 0), count: k))
        table.zoom.append(contentsOf: repeatElement(UInt8(zoom), count: k))
        table.childItems.append(contentsOf: repeatElement(0, count: k + merges.taken.count))
        for c in 0..<k { table.childStart.append(UInt32(child0 + c + 1) + merges.takenEnd[c]) }

        let parts = k >= 16_384 ? 2 : 1
        let clusterBase = UInt32(inputCount + c0)
        merges.origins.withUnsafeBufferPointer { origins in
        merges.takenEnd.withUnsafeBufferPointer { takenEnd in
        merges.taken.withUnsafeBufferPointer { taken in
        table.rows.withUnsafeMutableBufferPointer { rows in
        table.childItems.withUnsafeMutableBufferPointer { children in
            let p = CommitPointers(origins: origins.baseAddress!, takenEnd: takenEnd.baseAddress!, taken: taken.baseAddress,
                                   rows: rows.baseAddress! + c0, children: children.baseAddress! + child0)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                let cEnd = k * (h + 1) / parts
                // Members and origins are read at random: their cache lines are asked for a few
                // ahead, so that several misses are under way at once.
                let takenEnd = cEnd == 0 ? 0 : Int(p.takenEnd[cEnd - 1]), ahead = Self.commitDistance
                for c in (k * h / parts)..<cEnd {
                    if c + ahead < cEnd { cis_prefetch(slots.item + Int(p.origins[c + ahead])) }
                    let i = Int(p.origins[c])
                    let origin = slots.item[i]
                    var numPoints = origin.count
                    var wx = origin.x * Double(origin.count), wy = origin.y * Double(origin.count)
                    let first = c == 0 ? 0 : Int(p.takenEnd[c - 1]), end = Int(p.takenEnd[c])
                    var out = p.children + c + first
                    out.pointee = origin.ref
                    for m in first..<end {
                        if m + ahead < takenEnd { cis_prefetch(slots.item + Int(p.taken![m + ahead])) }
                        let other = slots.item[Int(p.taken![m])]
                        numPoints += other.count
                        wx += other.x * Double(other.count)
                        wy += other.y * Double(other.count)
                        out += 1
                        out.pointee = other.ref
                    }
                    let cx = wx / Double(numPoints), cy = wy / Double(numPoints)
                    p.rows[c] = .init(x: cx, y: cy, count: numPoints, origin: slots.rank(i))
                    slots.item[i] = Slots.Item(x: cx, y: cy, ref: clusterBase + UInt32(c), count: numPoints)
                }
            }
        }}}}}
    }

    /// How many clusters (and members) ahead `commit` asks for an item's cache line.
    static let commitDistance = 8

    /// The buffers `commit`'s threads read and write (disjoint parts).
    private struct CommitPointers: @unchecked Sendable {
        let origins: UnsafePointer<UInt32>
        let takenEnd: UnsafePointer<UInt32>
        let taken: UnsafePointer<UInt32>?
        let rows: UnsafeMutablePointer<HierarchicalClusterer.ClusterTable.Row>
        let children: UnsafeMutablePointer<UInt32>
    }

    /// Sorts the edges (`slot << 32 | neighbour`) by slot; a slot's neighbours come in any order.
    /// Few edges are sorted; many get an LSD radix sort on the origin's bits (`spare`: a reusable
    /// buffer).
    static func sortByOrigin(_ edges: inout [UInt64], spare: inout [UInt64], slots n: Int) {
        let m = edges.count
        if m == 0 { return }
        if m < 4096 {
            edges.sort()
        } else {
            let slotBits = 64 - (max(n, 2) - 1).leadingZeroBitCount
            // The spare takes the edges' length (keeping its capacity): the two swap.
            if spare.count < m {
                spare.append(contentsOf: repeatElement(0, count: m - spare.count))
            } else if spare.count > m {
                spare.removeLast(spare.count - m)
            }
            var counts: [Int] = []
            let inSpare = edges.withUnsafeMutableBufferPointer { e in
                spare.withUnsafeMutableBufferPointer { s in
                    CellIndex.radixSort(e.baseAddress!, spare: s.baseAddress!, count: m, lowBit: 32, bits: slotBits,
                                        counts: &counts)
                }
            }
            if inSpare { swap(&edges, &spare) }
        }
        buildTrace("edges sorted \(m)")
    }
}
