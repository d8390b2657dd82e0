extension CellIndex {
    /// Reusable buffers for building indexes, and by-products of the last build that the
    /// neighbour sweep reads: `sorted[p] >> shift` is the key of position p (cell order),
    /// `cx/cy[p]` its Double coordinates. The centre buffers are allocated only when asked for
    /// (`reserve(_:centres:)`): a band that is not swept exactly doesn't need them.
    final class SortScratch {
        private(set) var capacity = 0
        private(set) var centreCapacity = 0
        var sorted: UnsafeMutablePointer<UInt64>
        var spare: UnsafeMutablePointer<UInt64>
        private(set) var cx: UnsafeMutablePointer<Double>
        private(set) var cy: UnsafeMutablePointer<Double>
        var counts: [Int] = []
        var shift: UInt64 = 0
        /// Where the large buffers come from and go back to (nil: the system; see `LargeBuffer`).
        let pool: BuildScratchPool?

        init(capacity: Int = 0, pool: BuildScratchPool? = nil) {
            self.pool = pool
            self.capacity = max(capacity, 1)
            centreCapacity = 1
            sorted = LargeBuffer.allocate(UInt64.self, count: self.capacity, pool: pool)
            spare = LargeBuffer.allocate(UInt64.self, count: self.capacity, pool: pool)
            cx = .allocate(capacity: 1)
            cy = .allocate(capacity: 1)
        }

        /// Room for sorting `n` values, and their centres too when `centres`.
        func reserve(_ n: Int, centres: Bool = true) {
            if n > capacity {
                LargeBuffer.free(sorted, count: capacity, pool: pool); LargeBuffer.free(spare, count: capacity, pool: pool)
                capacity = n
                sorted = LargeBuffer.allocate(UInt64.self, count: n, pool: pool)
                spare = LargeBuffer.allocate(UInt64.self, count: n, pool: pool)
            }
            if centres && n > centreCapacity {
                LargeBuffer.free(cx, count: centreCapacity, pool: pool); LargeBuffer.free(cy, count: centreCapacity, pool: pool)
                centreCapacity = n
                cx = LargeBuffer.allocate(Double.self, count: n, pool: pool)
                cy = LargeBuffer.allocate(Double.self, count: n, pool: pool)
            }
        }

        /// Room for exactly `n` values (and centres when `centres`) when the buffers are over
        /// twice that: levels shrink as they merge, and the buffers needn't stay at their peak.
        func fit(_ n: Int, centres: Bool) {
            if capacity > 2 * max(n, 1) {
                LargeBuffer.free(sorted, count: capacity, pool: pool); LargeBuffer.free(spare, count: capacity, pool: pool)
                capacity = max(n, 1)
                sorted = LargeBuffer.allocate(UInt64.self, count: capacity, pool: pool)
                spare = LargeBuffer.allocate(UInt64.self, count: capacity, pool: pool)
            }
            if centres && centreCapacity > 2 * max(n, 1) { releaseCentres() }
            reserve(n, centres: centres)
        }

        /// Gives the centre buffers back (until the next `reserve` asking for them).
        func releaseCentres() {
            guard centreCapacity > 1 else { return }
            LargeBuffer.free(cx, count: centreCapacity, pool: pool); LargeBuffer.free(cy, count: centreCapacity, pool: pool)
            centreCapacity = 1
            cx = .allocate(capacity: 1)
            cy = .allocate(capacity: 1)
        }

        /// Discards the sort buffers' contents (their pages go back; see `LargeBuffer`), once a
        /// build has gathered its result and nothing reads `sorted` until the next sort.
        func discardSortContents() {
            LargeBuffer.discardContents(sorted, count: capacity, pool: pool)
            LargeBuffer.discardContents(spare, count: capacity, pool: pool)
        }

        /// Discards the spare sort buffer's contents, once a sort has left its result in `sorted`
        /// (the gather that follows then runs without it resident).
        func discardSpareContents() {
            LargeBuffer.discardContents(spare, count: capacity, pool: pool)
        }

        /// Discards the centre buffers' contents, once the sweep that reads them is done.
        func discardCentreContents() {
            LargeBuffer.discardContents(cx, count: centreCapacity, pool: pool)
            LargeBuffer.discardContents(cy, count: centreCapacity, pool: pool)
        }

        deinit {
            LargeBuffer.free(sorted, count: capacity, pool: pool); LargeBuffer.free(spare, count: capacity, pool: pool)
            LargeBuffer.free(cx, count: centreCapacity, pool: pool); LargeBuffer.free(cy, count: centreCapacity, pool: pool)
        }
    }
}
