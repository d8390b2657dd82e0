/// Base-map label candidates in priority order, bucketed on a grid for viewport queries.
///
/// Built once (in the background) from the label sources; a query returns the candidates whose
/// anchor lies in a box and whose zoom range includes a zoom, in priority order, so placement
/// never depends on where the query box happens to start.
public struct MapLabelIndex: Sendable {
    /// Candidates, most important first; `candidates[i].id == i`.
    public let candidates: [MapLabelCandidate]
    /// Cells per side of the bucket grid over the unit square.
    let gridSize: Int
    /// Candidate indices of each cell, from the one that shows first when zooming in (lowest
    /// `minZoom`, then priority): a query stops in each cell at the first that doesn't show yet.
    private let cellStarts: [Int32]
    private let cellItems: [Int32]
    /// What a query tests of each of `cellItems`, side by side (no candidate, with its strings, is
    /// copied per test).
    private let cellPoints: [QueryPoint]

    private struct QueryPoint {
        var x: Double, y: Double
        /// `minZoom - fadeZooms`: the label shows above this zoom …
        var showsAbove: Double
        /// … and below `maxZoom`.
        var maxZoom: Double
    }

    /// Builds the index; `candidates` must already be in priority order (their ids are reassigned
    /// to their positions).
    /// - Complexity: O(n).
    public init(candidates: [MapLabelCandidate], gridSize: Int = 128) {
        var list = candidates
        for i in list.indices { list[i].id = i }
        self.candidates = list
        self.gridSize = gridSize
        var counts = [Int32](repeating: 0, count: gridSize * gridSize + 1)
        let cells = list.map { MapLabelIndex.cell(x: $0.x, y: $0.y, gridSize: gridSize) }
        for c in cells { counts[c + 1] += 1 }
        for k in 1..<counts.count { counts[k] += counts[k - 1] }
        var fill = counts
        var items = [Int32](repeating: 0, count: list.count)
        for (i, c) in cells.enumerated() {
            items[Int(fill[c])] = Int32(i)
            fill[c] += 1
        }
        for c in 0..<(counts.count - 1) where counts[c + 1] - counts[c] > 1 {
            items[Int(counts[c])..<Int(counts[c + 1])].sort {
                list[Int($0)].minZoom != list[Int($1)].minZoom ? list[Int($0)].minZoom < list[Int($1)].minZoom : $0 < $1
            }
        }
        cellStarts = counts
        cellItems = items
        cellPoints = items.map {
            let c = list[Int($0)]
            return QueryPoint(x: c.x, y: c.y, showsAbove: c.minZoom - MapLabelCandidate.fadeZooms, maxZoom: c.maxZoom)
        }
    }

    /// An empty index.
    public static let empty = MapLabelIndex(candidates: [])

    /// Number of candidates.
    public var count: Int { candidates.count }

    private static func cell(x: Double, y: Double, gridSize: Int) -> Int {
        let n = Double(gridSize)
        let i = min(gridSize - 1, max(0, Int(x * n))), j = min(gridSize - 1, max(0, Int(y * n)))
        return j * gridSize + i
    }

    /// Indices of the candidates anchored in the unit box (which must lie within one world copy,
    /// 0…1 on both axes after clamping) that show at `zoom`, in priority order.
    /// - Complexity: O(cells in the box + candidates in them).
    public func candidates(inUnitBox minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                           zoom: Double) -> [Int] {
        guard !candidates.isEmpty, minX <= maxX, minY <= maxY else { return [] }
        let n = Double(gridSize)
        let i0 = max(0, Int(minX * n)), i1 = min(gridSize - 1, Int(maxX * n))
        let j0 = max(0, Int(minY * n)), j1 = min(gridSize - 1, Int(maxY * n))
        guard i0 <= i1, j0 <= j1 else { return [] }
        var out: [Int] = []
        cellPoints.withUnsafeBufferPointer { points in
            cellItems.withUnsafeBufferPointer { items in
                for j in j0...j1 {
                    for i in i0...i1 {
                        let c = j * gridSize + i
                        for k in Int(cellStarts[c])..<Int(cellStarts[c + 1]) {
                            let p = points[k]
                            // The rest of the cell shows only further in (sorted by `minZoom`).
                            guard zoom > p.showsAbove else { break }
                            guard p.x >= minX, p.x <= maxX, p.y >= minY, p.y <= maxY, zoom < p.maxZoom else { continue }
                            out.append(Int(items[k]))
                        }
                    }
                }
            }
        }
        out.sort()
        return out
    }
}
