/// Where each block of a grid row of a level's `CellIndex` starts (a block: 2^k consecutive
/// cells of one row), so a small query (a neighbour search in a live index's repair) reads the
/// positions of its blocks from a table and scans just those entries.
///
/// The index is sorted by cell (`row · width + column`), so the entries of one block are
/// contiguous and blocks follow each other in order. Before this, a query binary-searched each
/// row it touched: a dozen scattered reads of Float coordinates per row, each turned into a
/// cell key with two divisions — most of a repair's time at deep zooms, where a query finds
/// nothing.
struct LevelBlocks: Sendable {
    /// `start[row · blocksPerRow + block] ..< start[… + 1]` are the block's positions.
    let start: [UInt32]
    /// Cells per block, as a power of two.
    let blockShift: UInt64
    let blocksPerRow: UInt64

    /// Blocks of an index, or nil when its grid is too fine to be worth a table (> 4M rows).
    /// Blocks are as narrow as keep the table within about one slot per entry (and one per row).
    init?(_ index: CellIndex) {
        let rows = index.width
        guard rows <= 4 << 20 else { return nil }
        var shift: UInt64 = 0
        while rows * ((rows + (1 << shift) - 1) >> shift) > UInt64(max(index.count, 1) * 2) && shift < 62 { shift += 1 }
        blockShift = shift
        blocksPerRow = (rows + (1 << shift) - 1) >> shift
        let slots = Int(rows * blocksPerRow)
        var start = [UInt32](repeating: 0, count: slots + 1)
        var slot = 0
        for p in 0..<index.count {
            let key = index.key(at: p)
            let s = Int((key / rows) * blocksPerRow + ((key % rows) >> shift))
            while slot < s { slot += 1; start[slot] = UInt32(p) }
        }
        while slot < slots { slot += 1; start[slot] = UInt32(index.count) }
        self.start = start
    }

    /// Calls `body(position)` for each item of `index` inside the box (as `CellIndex.forEachInRange`).
    @inline(__always)
    func forEachInRange(_ index: CellIndex, minX: Double, minY: Double, maxX: Double, maxY: Double,
                        _ body: (Int) -> Void) {
        guard index.count > 0, minX <= maxX, minY <= maxY, maxX >= 0, maxY >= 0, minX <= 1, minY <= 1 else { return }
        let cell = index.cell, width = index.width
        let r0 = CellIndex.column(minY, cell: cell), r1 = min(CellIndex.column(min(maxY, 1), cell: cell), width - 1)
        let b0 = CellIndex.column(minX, cell: cell) >> blockShift
        let b1 = min(CellIndex.column(min(maxX, 1), cell: cell), width - 1) >> blockShift
        guard r0 <= r1, b0 <= b1 else { return }
        index.x.withUnsafeBufferPointer { xs in
            index.y.withUnsafeBufferPointer { ys in
                start.withUnsafeBufferPointer { start in
                    for row in r0...r1 {
                        let s = Int(row * blocksPerRow)
                        for p in Int(start[s + Int(b0)])..<Int(start[s + Int(b1) + 1]) {
                            let px = Double(xs[p]), py = Double(ys[p])
                            if px >= minX && px <= maxX && py >= minY && py <= maxY { body(p) }
                        }
                    }
                }
            }
        }
    }
}
