import Dispatch

extension LevelBuilder {
    /// The first band's columns for a subset of prepared points (`slots` made by
    /// `Slots(prepared:chosen:)`), without sorting: the prepared cell order, filtered to the
    /// chosen points, is already the order `sortAlive` would produce — the same cell keys, and
    /// within a cell input order, which is slot order. Nil when the prepared points have no order
    /// (keys too wide). Two threads for big inputs.
    static func sortPrepared(_ slots: Slots, _ subset: PreparedSubset, centres: Bool,
                             scratch: CellIndex.SortScratch) -> (cell: Double, width: UInt64, columns: PairBand.Columns)? {
        let p = subset.points
        let m = slots.n
        guard !p.sorted.isEmpty || m == 0 else { return nil }
        let slotBits = m <= 1 ? 0 : 64 - UInt64(m - 1).leadingZeroBitCount
        scratch.fit(m, centres: centres)
        if !centres { scratch.releaseCentres() }
        // The chosen valid points' bits, and each word's rank (slots before it).
        let words = p.valid.count
        var chosenValid = [UInt64](repeating: 0, count: words)
        var rank = [UInt32](repeating: 0, count: words)
        var total: UInt32 = 0
        for w in 0..<words {
            let bits = (subset.chosen?[w] ?? ~0) & p.valid[w]
            chosenValid[w] = bits
            rank[w] = total
            total &+= UInt32(bits.nonzeroBitCount)
        }
        precondition(Int(total) == m, "chosen count")
        let n = p.sorted.count
        let parts = n >= 131_072 ? 2 : 1
        let inputBits = UInt64(p.inputBits), inputMask = (UInt64(1) << inputBits) &- 1
        let shift = UInt64(slotBits)
        let out = SendablePointer(scratch.sorted)
        chosenValid.withUnsafeBufferPointer { cv in
        rank.withUnsafeBufferPointer { rank in
        p.sorted.withUnsafeBufferPointer { sorted in
            let cv = SendableConstPointer(cv.baseAddress), rank = SendableConstPointer(rank.baseAddress)
            let src = SendableConstPointer(sorted.baseAddress)
            // How many chosen entries each part has, then each part writes from its start.
            let counts = SendablePointer(UnsafeMutablePointer<Int>.allocate(capacity: parts))
            defer { counts.pointer!.deallocate() }
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                guard let cv = cv.pointer, let src = src.pointer else { return }
                var c = 0
                for k in (n * h / parts)..<(n * (h + 1) / parts) {
                    let i = Int(src[k] & inputMask)
                    c &+= Int((cv[i >> 6] >> UInt64(i & 63)) & 1)
                }
                counts.pointer![h] = c
            }
            DispatchQueue.concurrentPerform(iterations: parts) { h in
                guard let cv = cv.pointer, let rank = rank.pointer, let src = src.pointer, let dst = out.pointer else { return }
                var o = 0
                for q in 0..<h { o += counts.pointer![q] }
                for k in (n * h / parts)..<(n * (h + 1) / parts) {
                    let v = src[k]
                    let i = Int(v & inputMask)
                    let word = cv[i >> 6], bit = UInt64(i & 63)
                    guard (word >> bit) & 1 != 0 else { continue }
                    let slot = rank[i >> 6] &+ UInt32((word & ((1 << bit) &- 1)).nonzeroBitCount)
                    dst[o] = (v >> inputBits) << shift | UInt64(slot)
                    o += 1
                }
            }
        }}}
        return gatherSorted(slots, count: m, cell: p.cell, width: p.width, shift: shift, centres: centres, scratch: scratch)
    }
}
