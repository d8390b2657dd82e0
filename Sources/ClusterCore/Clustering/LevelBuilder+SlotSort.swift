import CIndexSweep
import Dispatch

extension LevelBuilder {
    /// The alive slots' items sorted into cells of side at least `minimumCell`, read straight
    /// from the slots: each alive slot is packed as `key << slotBits | slot` (slot order, so a
    /// stable sort keeps slot order within a cell, as a `CellIndex` over the compacted items
    /// does), radix-sorted, and gathered. With `centres`, leaves the Double centres in cell
    /// order in `scratch.cx/cy` for an exact sweep. Nil when a cell key and a slot don't fit in 64 bits
    /// together (then `CellIndex` sorts whole entries). Two threads for big levels.
    static func sortAlive(_ slots: Slots, count m: Int, cell minimumCell: Double, centres: Bool,
                          scratch: CellIndex.SortScratch) -> (cell: Double, width: UInt64, columns: PairBand.Columns)? {
        let cell = CellIndex.cellSize(minimum: minimumCell)
        let width = UInt64(1 / cell) + 3
        let keyBits = 64 - (width * width).leadingZeroBitCount
        let slotBits = slots.n <= 1 ? 0 : 64 - UInt64(slots.n - 1).leadingZeroBitCount
        guard keyBits + slotBits <= 64 else { return nil }
        scratch.fit(m, centres: centres)
        if !centres { scratch.releaseCentres() }
        let parts = m >= 65_536 ? 2 : 1
        let words = slots.words
        // Where each part's words start among the compacted items.
        var firstItem = [Int](repeating: 0, count: parts + 1)
        for h in 0..<parts {
            var alive = 0
            for w in (words * h / parts)..<(words * (h + 1) / parts) { alive += slots.alive[w].nonzeroBitCount }
            firstItem[h + 1] = firstItem[h] + alive
        }
        precondition(firstItem[parts] == m, "alive count")
        let shift = UInt64(slotBits)
        let packed = SendablePointer(scratch.sorted)
        firstItem.withUnsafeBufferPointer { first in
            let first = SendableConstPointer(first.baseAddress)
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                let out = packed.pointer!
                var k = first.pointer![h]
                for w in (words * h / parts)..<(words * (h + 1) / parts) {
                    var bits = slots.alive[w]
                    while bits != 0 {
                        let s = w << 6 | bits.trailingZeroBitCount
                        bits &= bits &- 1
                        let item = slots.item[s]
                        out[k] = CellIndex.key(Float(item.x), Float(item.y), cell: cell, width: width) << shift | UInt64(s)
                        k += 1
                    }
                }
            }
        }
        CellIndex.radixSortPacked(scratch, count: m, lowBit: slotBits, bits: keyBits)
        return gatherSorted(slots, count: m, cell: cell, width: width, shift: shift, centres: centres, scratch: scratch)
    }

    /// The band's columns from `scratch.sorted`, which holds the `m` alive slots packed as
    /// `key << shift | slot` in ascending order (and the Double centres in cell order in
    /// `scratch.cx/cy` with `centres`).
    static func gatherSorted(_ slots: Slots, count m: Int, cell: Double, width: UInt64, shift: UInt64, centres: Bool,
                             scratch: CellIndex.SortScratch) -> (cell: Double, width: UInt64, columns: PairBand.Columns) {
        scratch.shift = shift
        let parts = m >= 65_536 ? 2 : 1
        // The spare's 8 bytes per item needn't be resident while the band's columns are written.
        scratch.discardSpareContents()

        // Gather in cell order.
        // A band of several levels gets room for the clusters it will append (untouched
        // capacity costs no memory until used).
        let capacity = centres ? m : m + m / 4
        var x: [Float] = [], y: [Float] = [], slotColumn: [UInt32] = [], refs: [UInt32] = []
        let keys = [UInt64](unsafeUninitializedCapacity: capacity) { keys, kc in
            x = [Float](unsafeUninitializedCapacity: capacity) { xs, xc in
                y = [Float](unsafeUninitializedCapacity: capacity) { ys, yc in
                    slotColumn = [UInt32](unsafeUninitializedCapacity: capacity) { ss, sc in
                        refs = [UInt32](unsafeUninitializedCapacity: capacity) { rs, rc in
                            let out = GatherPointers(keys: keys.baseAddress, x: xs.baseAddress, y: ys.baseAddress,
                                                     slots: ss.baseAddress, refs: rs.baseAddress, cx: scratch.cx,
                                                     cy: scratch.cy, sorted: scratch.sorted, capacity: scratch.capacity,
                                                     discards: scratch.pool == nil)
                            DispatchQueue.concurrentPerform(iterations: parts) { h in
                                let end = (m * (h + 1) / parts)
                                for chunk in stride(from: m * h / parts, to: end, by: Self.gatherChunk) {
                                    let chunkEnd = min(chunk + Self.gatherChunk, end)
                                    // Two copies of the loop, with and without centres (a constant each).
                                    if centres {
                                        Self.gather(out, slots, from: chunk, to: chunkEnd, end: end, shift: shift, centres: true)
                                    } else {
                                        Self.gather(out, slots, from: chunk, to: chunkEnd, end: end, shift: shift, centres: false)
                                    }
                                    // Read for the last time: its pages go while the columns fill
                                    // (unless a pool keeps them for the next build).
                                    if out.discards {
                                        LargeBuffer.discardContents(out.sorted, from: chunk, to: chunkEnd, count: out.capacity)
                                    }
                                }
                            }
                            rc = m
                        }
                        sc = m
                    }
                    yc = m
                }
                xc = m
            }
            kc = m
        }
        // The packed keys are in the band's columns now: their ~16 bytes per item needn't stay
        // resident through the sweep and merges (the peak at 10M points; most pages are gone already).
        scratch.discardSortContents()
        return (cell, width, PairBand.Columns(keys: keys, x: x, y: y, slots: slotColumn, refs: refs))
    }

    /// Gathers positions `from..<to` of a part ending at `end`: each packed value's cell key, and
    /// its slot's Float coordinates, slot and reference (and Double centre with `centres`).
    @inline(__always)
    private static func gather(_ out: GatherPointers, _ slots: Slots, from: Int, to: Int, end: Int, shift: UInt64,
                               centres: Bool) {
        guard let keys = out.keys, let xs = out.x, let ys = out.y, let ss = out.slots, let rs = out.refs else { return }
        let mask = (UInt64(1) << shift) - 1
        for p in from..<to {
            // The items are read at random: ask for the one needed a few entries on, so that
            // several misses are under way at once.
            if p + gatherDistance < end {
                cis_prefetch(slots.item + Int(out.sorted[p + gatherDistance] & mask))
            }
            let v = out.sorted[p]
            let s = Int(v & mask)
            let item = slots.item[s]
            keys[p] = v >> shift
            xs[p] = Float(item.x)
            ys[p] = Float(item.y)
            ss[p] = UInt32(truncatingIfNeeded: s)
            rs[p] = item.ref
            if centres {
                out.cx[p] = item.x
                out.cy[p] = item.y
            }
        }
    }

    /// How many entries ahead a gather asks for an item's cache line.
    static let gatherDistance = 16

    /// Entries a gather reads before it gives back the pages of the packed keys it has read (1 MB).
    static let gatherChunk = 1 << 17

    /// The buffers `sortAlive`'s gather threads write (disjoint parts).
    private struct GatherPointers: @unchecked Sendable {
        let keys: UnsafeMutablePointer<UInt64>?
        let x: UnsafeMutablePointer<Float>?
        let y: UnsafeMutablePointer<Float>?
        let slots: UnsafeMutablePointer<UInt32>?
        let refs: UnsafeMutablePointer<UInt32>?
        let cx: UnsafeMutablePointer<Double>
        let cy: UnsafeMutablePointer<Double>
        let sorted: UnsafeMutablePointer<UInt64>
        /// `sorted`'s allocated count.
        let capacity: Int
        /// Whether the pages of `sorted` go back as they are read (not when they come from a pool).
        let discards: Bool
    }
}
