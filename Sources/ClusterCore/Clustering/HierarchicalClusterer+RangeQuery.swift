extension HierarchicalClusterer {
    /// How many item references a box query gathers before it makes their items.
    static let queryBatch = 64

    /// Calls `body` with each item of level `z` in the box, in the level's cell order.
    ///
    /// Items are made a batch at a time, after their table rows (clusters) and coordinates
    /// (points) have been touched in a first pass. Those are loads independent of each other, so
    /// their cache misses overlap; made one by one, each item waited for its own misses behind
    /// the previous item's work. At 10M points the table and the coordinates are far beyond the
    /// cache and this halves a dense view's query (the items and their order are unchanged).
    func rangeQuery(level z: Int, minLng: Double, minLat: Double, maxLng: Double, maxLat: Double,
                    _ body: (ClusterItem) -> Void) {
        let batch = Self.queryBatch
        // On the stack: a query allocates nothing.
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: batch) { buffer in
            let refs = buffer.baseAddress!
            var n = 0
            level(forZoom: z).forEachItem(
                minX: WebMercator.x(longitude: minLng), minY: WebMercator.y(latitude: maxLat),
                maxX: WebMercator.x(longitude: maxLng), maxY: WebMercator.y(latitude: minLat)
            ) { ref in
                refs[n] = ref
                n += 1
                if n == batch {
                    makeItems(refs, count: n, body)
                    n = 0
                }
            }
            makeItems(refs, count: n, body)
        }
    }

    /// Touches the rows and coordinates of `refs[0..<count]`, then calls `body` with their items in order.
    private func makeItems(_ refs: UnsafePointer<UInt32>, count: Int, _ body: (ClusterItem) -> Void) {
        guard count > 0 else { return }
        let inputCount = self.inputCount
        // A sum of what was loaded, compared with an unlikely value, so that the loads stay.
        let touched = coordinates.withUnsafeBufferPointer { coords in
            table.rows.withUnsafeBufferPointer { rows in
                var sum: UInt64 = 0
                for k in 0..<count {
                    let r = Int(refs[k])
                    if r < inputCount {
                        sum &+= coords[r].latitude.bitPattern
                    } else {
                        // Both ends of the 24-byte row: a quarter of the rows straddle two lines.
                        let row = rows.baseAddress! + (r - inputCount)
                        sum &+= row.pointee.x.bitPattern &+ UInt64(row.pointee.origin)
                    }
                }
                return sum
            }
        }
        if touched == 0x7FF8_0000_DEAD_BEEF { touchSink.pointee = touched }
        for k in 0..<count { body(makeItem(refs[k])) }
    }
}

/// Where the touch pass would store its unlikely sum (never, in practice). Memory behind a
/// pointer: a store to a private variable that is never read was optimized away, and the loads
/// with it.
nonisolated(unsafe) private let touchSink = UnsafeMutablePointer<UInt64>.allocate(capacity: 1)
