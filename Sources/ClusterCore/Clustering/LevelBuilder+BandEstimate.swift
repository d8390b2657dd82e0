extension LevelBuilder {
    /// Whether a band of several zooms with cells of side at least `minimumCell` would likely
    /// pass `PairBand.sweepPairs`'s budget (candidate checks ≤ 3 per alive item), judged from a
    /// sample before anything is sorted.
    ///
    /// Clustered data (cities) makes the first band's sweep fail after its sort and most of its
    /// sweep: at 170k GeoNames cities the failed band 17–9 cost ~50 ms of a ~370 ms build.
    /// The alive ones of every `step`-th slot (at most about 4,096) are sorted into the band's
    /// cells and swept as `sweepPairs` sweeps (counting only). Pairs of sampled items are sampled with
    /// probability 1/step², so the count times step² estimates the band's candidate checks.
    /// Only the band's length depends on it, never a cluster (levels are the same whatever the
    /// bands: `LevelBandTests`, `SlotBuilderTests`).
    static func sweepLikelyFits(_ slots: Slots, count m: Int, cell minimumCell: Double) -> Bool {
        sweepLikelyFits(slots: slots.n, count: m, cell: minimumCell) { step, add in
            for s in stride(from: 0, to: slots.n, by: step) where slots.isAlive(s) {
                let item = slots.item[s]
                add(Float(item.x), Float(item.y))
            }
        }
    }

    /// As above for `n` slots whose sample `sample(step, add)` gives: the Float position of
    /// every alive one of every `step`-th slot, in slot order (`PreparedPoints` samples its
    /// own columns, with no `Slots`).
    static func sweepLikelyFits(slots n: Int, count m: Int, cell minimumCell: Double,
                                sample: (Int, (Float, Float) -> Void) -> Void) -> Bool {
        let cell = CellIndex.cellSize(minimum: minimumCell)
        let width = UInt64(1 / cell) + 3
        let step = max(1, n / 4096)
        // Two thirds of the budget: the estimate is rough, and a failed sweep costs a sort.
        let limit = 2 * m
        var keys: [UInt64] = []
        keys.reserveCapacity(n / step + 1)
        sample(step) { keys.append(CellIndex.key($0, $1, cell: cell, width: width)) }
        keys.sort()
        let n = keys.count, scale = step * step
        var work = 0, p = 0
        return keys.withUnsafeBufferPointer { keys in
            for a in 0..<n {
                let ka = keys[a]
                var b = a + 1
                while b < n && keys[b] <= ka + 1 { b += 1 }  // same cell and the next one in the row
                let lo = ka + width - 1, hi = ka + width + 1  // the three cells below
                while p < n && keys[p] < lo { p += 1 }
                var q = p
                while q < n && keys[q] <= hi { q += 1 }
                work += (b - a - 1) + (q - p)
                if work * scale > limit { return false }
            }
            return true
        }
    }
}
