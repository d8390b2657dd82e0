/// Where each grid row of a level's `CellIndex` starts, so a small query (a neighbour search
/// in a live index's repair) goes straight to its rows instead of binary-searching the whole
/// level for each: on a sparse deep level those searches are a dozen cache misses per row, which
/// made an empty neighbour query cost microseconds.
struct LevelRows: Sendable {
    /// `start[row] ..< start[row + 1]` are the row's positions (cell order).
    let start: [UInt32]

    /// Rows of an index, or nil when its grid is too fine to be worth a table (> 4M rows).
    init?(_ index: CellIndex) {
        let rows = Int(index.width)
        guard rows <= 4 << 20 else { return nil }
        var start = [UInt32](repeating: 0, count: rows + 1)
        var row = 0
        for p in 0..<index.count {
            let r = Int(index.key(at: p) / index.width)
            while row < r { row += 1; start[row] = UInt32(p) }
        }
        while row < rows { row += 1; start[row] = UInt32(index.count) }
        self.start = start
    }

    /// Calls `body(position)` for each item of `index` inside the box (as `CellIndex.forEachInRange`).
    func forEachInRange(_ index: CellIndex, minX: Double, minY: Double, maxX: Double, maxY: Double,
                        _ body: (Int) -> Void) {
        guard index.count > 0, minX <= maxX, minY <= maxY, maxX >= 0, maxY >= 0, minX <= 1, minY <= 1 else { return }
        let cell = index.cell, width = index.width
        let r0 = CellIndex.column(minY, cell: cell), r1 = min(CellIndex.column(min(maxY, 1), cell: cell), width - 1)
        let c0 = CellIndex.column(minX, cell: cell), c1 = CellIndex.column(min(maxX, 1), cell: cell)
        guard r0 <= r1 else { return }
        index.x.withUnsafeBufferPointer { xs in
            index.y.withUnsafeBufferPointer { ys in
                start.withUnsafeBufferPointer { start in
                    for row in r0...r1 {
                        var lo = Int(start[Int(row)])
                        let hi = Int(start[Int(row) + 1])
                        let loKey = row * width + c0, hiKey = row * width + c1
                        var h = hi
                        while lo < h {
                            let mid = (lo + h) >> 1
                            if CellIndex.key(xs[mid], ys[mid], cell: cell, width: width) < loKey { lo = mid + 1 } else { h = mid }
                        }
                        var p = lo
                        while p < hi && CellIndex.key(xs[p], ys[p], cell: cell, width: width) <= hiKey {
                            let px = Double(xs[p]), py = Double(ys[p])
                            if px >= minX && px <= maxX && py >= minY && py <= maxY { body(p) }
                            p += 1
                        }
                    }
                }
            }
        }
    }
}
