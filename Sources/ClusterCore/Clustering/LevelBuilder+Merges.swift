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
    static func resolve(_ edges: inout [UInt64], spare: inout [UInt64], slots: Slots, into merges: inout LevelMerges) {
        merges.removeAll()
        forEachOrigin(&edges, spare: &spare, slots: slots.n) { i, targets in
            guard slots.isAlive(i) else { return }
            let start = merges.taken.count
            for t in targets {
                let j = Int(t & 0xFFFF_FFFF)
                if slots.isAlive(j) {
                    slots.kill(j)
                    merges.taken.append(UInt32(j))
                }
            }
            let end = merges.taken.count
            guard end > start else { return }
            if end - start > 1 {
                // Members in visiting order (the edges of one origin come in sweep order).
                merges.taken.withUnsafeMutableBufferPointer { t in
                    for a in (start + 1)..<end {
                        let v = t[a]
                        var b = a - 1
                        while b >= start && t[b] > v {
                            t[b + 1] = t[b]
                            b -= 1
                        }
                        t[b + 1] = v
                    }
                }
            }
            merges.origins.append(UInt32(i))
            merges.takenEnd.append(UInt32(end))
        }
    }

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

    /// Calls `body(origin, edges)` for each slot with edges (`slot << 32 | neighbour`), in slot
    /// order; a group's neighbours come in any order. Few edges are sorted; many get an LSD
    /// radix sort on the origin's bits (`spare`: a reusable buffer).
    static func forEachOrigin(_ edges: inout [UInt64], spare: inout [UInt64], slots n: Int,
                              _ body: (Int, UnsafeBufferPointer<UInt64>) -> Void) {
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
        edges.withUnsafeBufferPointer { ed in
            var k = 0
            while k < m {
                let i = ed[k] >> 32
                var g = k + 1
                while g < m && ed[g] >> 32 == i { g += 1 }
                body(Int(i), UnsafeBufferPointer(rebasing: ed[k..<g]))
                k = g
            }
        }
    }
}
