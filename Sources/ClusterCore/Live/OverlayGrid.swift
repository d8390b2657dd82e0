/// A small hash grid of item references for one zoom level of a `LiveClusterIndex`: the items
/// that level holds beyond (or instead of) what its base build holds. Entries may go stale
/// (an item that left the level); readers filter them by the index's node state.
struct OverlayGrid: Sendable {
    /// Side of a grid cell in unit coordinates (the level's neighbour radius).
    let cell: Double
    private(set) var cells: [UInt64: [UInt32]] = [:]
    private(set) var members: Set<UInt32> = []

    init(cell: Double) { self.cell = cell }

    var isEmpty: Bool { members.isEmpty }

    @inline(__always) func key(_ x: Double, _ y: Double) -> UInt64 {
        let ix = UInt64(max(0, min(x, 1)) / cell), iy = UInt64(max(0, min(y, 1)) / cell)
        return (iy << 32) | ix
    }

    /// Adds `ref` at (x, y) unless it is already in the grid.
    mutating func insert(_ ref: UInt32, x: Double, y: Double) {
        guard members.insert(ref).inserted else { return }
        cells[key(x, y), default: []].append(ref)
    }

    /// Removes `ref`, which was inserted at (x, y).
    mutating func remove(_ ref: UInt32, x: Double, y: Double) {
        guard members.remove(ref) != nil else { return }
        let k = key(x, y)
        guard var list = cells[k], let i = list.firstIndex(of: ref) else { return }
        list.swapAt(i, list.count - 1)
        list.removeLast()
        cells[k] = list.isEmpty ? nil : list
    }

    /// Calls `body` for every entry whose cell touches the box (callers test positions).
    func forEachCandidate(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UInt32) -> Void) {
        guard !members.isEmpty, minX <= maxX, minY <= maxY else { return }
        let a = key(minX, minY), b = key(maxX, maxY)
        let x0 = a & 0xFFFF_FFFF, y0 = a >> 32, x1 = b & 0xFFFF_FFFF, y1 = b >> 32
        // A wide box over a sparse grid: scan the entries instead of the cells.
        if (x1 - x0 + 1) * (y1 - y0 + 1) > UInt64(cells.count) {
            for (k, list) in cells {
                let x = k & 0xFFFF_FFFF, y = k >> 32
                if x >= x0 && x <= x1 && y >= y0 && y <= y1 { for r in list { body(r) } }
            }
            return
        }
        for y in y0...y1 {
            for x in x0...x1 {
                if let list = cells[(y << 32) | x] { for r in list { body(r) } }
            }
        }
    }
}
