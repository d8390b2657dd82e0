import Foundation

/// Boxes placed over one region, bucketed in a flat array of square cells (a label placement's
/// collision test).
///
/// Same answers as `CollisionGrid` (whether a box meets one placed before) without hashing:
/// `CollisionGrid` keeps its cells in a dictionary of arrays, and a placement of the two thousand
/// names of a dense street map spent a fifth of its time hashing cell keys and growing the arrays.
/// Here the cells are an array over the region and each cell a linked list of entries. Boxes
/// reaching past the region fall in its border cells (cell indices are clamped): two boxes that
/// meet share at least one clamped cell, so nothing is missed; the border cells only hold more.
struct RegionGrid {
    private let cellSize: Double
    private let originX: Double, originY: Double
    private let columns: Int, rows: Int
    /// First entry of each cell (−1: empty).
    private var heads: [Int32]
    /// Per entry: the box it stands for and the next entry in its cell.
    private var entryBox: [Int32] = []
    private var entryNext: [Int32] = []
    private(set) var boxes: [Box] = []

    /// A grid over the region (`minX`…`maxX`, `minY`…`maxY`) with cells of about `cellSize`
    /// (larger when the region would need more than `maxCellsPerSide` cells across).
    init(cellSize: Double, minX: Double, minY: Double, maxX: Double, maxY: Double, maxCellsPerSide: Int = 256) {
        let w = max(0, maxX - minX), h = max(0, maxY - minY)
        var size = max(cellSize, 1)
        if w / size > Double(maxCellsPerSide) || h / size > Double(maxCellsPerSide) {
            size = max(w, h) / Double(maxCellsPerSide)
        }
        self.cellSize = size
        originX = minX.isFinite ? minX : 0
        originY = minY.isFinite ? minY : 0
        columns = max(1, min(maxCellsPerSide, Int((w / size).rounded(.up)) + 1))
        rows = max(1, min(maxCellsPerSide, Int((h / size).rounded(.up)) + 1))
        heads = Array(repeating: -1, count: columns * rows)
    }

    /// The cell column (or row) of a coordinate, clamped to the grid.
    @inline(__always)
    private func cell(_ v: Double, _ origin: Double, _ count: Int) -> Int {
        let c = ((v - origin) / cellSize).rounded(.down)
        guard c.isFinite else { return c > 0 ? count - 1 : 0 }
        return c <= 0 ? 0 : (c >= Double(count - 1) ? count - 1 : Int(c))
    }

    /// Whether `b` meets a box placed before (touching edges do not meet).
    func hits(_ b: Box) -> Bool {
        let i0 = cell(b.minX, originX, columns), i1 = cell(b.maxX, originX, columns)
        let j0 = cell(b.minY, originY, rows), j1 = cell(b.maxY, originY, rows)
        return heads.withUnsafeBufferPointer { heads in
            entryBox.withUnsafeBufferPointer { entryBox in
                entryNext.withUnsafeBufferPointer { entryNext in
                    boxes.withUnsafeBufferPointer { boxes in
                        for j in j0...j1 {
                            for i in i0...i1 {
                                var e = Int(heads[j * columns + i])
                                while e >= 0 {
                                    if boxes[Int(entryBox[e])].intersects(b) { return true }
                                    e = Int(entryNext[e])
                                }
                            }
                        }
                        return false
                    }
                }
            }
        }
    }

    mutating func insert(_ b: Box) {
        let i0 = cell(b.minX, originX, columns), i1 = cell(b.maxX, originX, columns)
        let j0 = cell(b.minY, originY, rows), j1 = cell(b.maxY, originY, rows)
        let index = Int32(boxes.count)
        boxes.append(b)
        for j in j0...j1 {
            for i in i0...i1 {
                let c = j * columns + i
                entryBox.append(index)
                entryNext.append(heads[c])
                heads[c] = Int32(entryBox.count - 1)
            }
        }
    }
}
