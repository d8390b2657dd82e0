import Dispatch
import Foundation

/// Builds the levels of a `HierarchicalClusterer`, from `maxZoom + 1` down to `minZoom`.
///
/// This is supercluster's `load`/`_cluster` step by step: the level's items are visited in
/// their stored order (`Working`, supercluster's `data`), each unvisited one takes all unvisited
/// neighbours within the radius, and clusters, carried items and their order come out the same.
///
/// Two shortcuts, which change no membership, count, id or expansion zoom:
/// - Neighbours come from a grid sweep over the level's `CellIndex` (`NeighborGraph`) using the
///   very predicate of supercluster's kd-tree radius query (Float coordinates of the neighbour
///   against the Double centre), all at once: a million scattered, cache-missing tree descents
///   become a few sequential passes, and items with no neighbour (nearly all of them at high
///   zooms) cost nothing. Dense levels fall back to one radius query per item.
/// - No kd-tree is sorted per level. The kd-tree's order only decides the order of the
///   floating-point sums of a cluster centre (last-bit differences) and, with `minPoints > 2`,
///   the order in which items that don't make a cluster are carried down, which decides later
///   visiting orders. In that case (`exactOrder`) each level's tree is built to rank the
///   neighbours in supercluster's order.
struct LevelBuilder {
    typealias Level = HierarchicalClusterer.Level

    let options: HierarchicalClusterer.Options
    let inputCount: Int
    let projected: [Float]
    let attributes: PointAttributes
    var table = HierarchicalClusterer.ClusterTable()
    var aggregates = AggregateTable()

    init(options: HierarchicalClusterer.Options, inputCount: Int, projected: [Float], attributes: PointAttributes) {
        self.options = options
        self.inputCount = inputCount
        self.projected = projected
        self.attributes = attributes
    }

    /// One level's items in visiting order, as supercluster's `data` array holds them.
    struct Working {
        var items: [UInt32] = []
        var x: [Double] = []
        var y: [Double] = []
        var count: [UInt32] = []

        init() {}

        init(capacity n: Int) {
            items.reserveCapacity(n)
            x.reserveCapacity(n)
            y.reserveCapacity(n)
            count.reserveCapacity(n)
        }

        @inline(__always) mutating func append(_ item: UInt32, _ x: Double, _ y: Double, _ count: UInt32) {
            items.append(item)
            self.x.append(x)
            self.y.append(y)
            self.count.append(count)
        }

        /// Interleaved Float coordinates for the level's tree.
        func floatCoordinates() -> [Float] {
            var coords = [Float](repeating: 0, count: 2 * items.count)
            coords.withUnsafeMutableBufferPointer { c in
                for i in 0..<items.count {
                    c[2 * i] = Float(x[i])
                    c[2 * i + 1] = Float(y[i])
                }
            }
            return coords
        }
    }

    /// The radius at zoom z.
    func radius(atZoom z: Int) -> Double { options.radius / (options.extent * pow(2, Double(z))) }

    /// The cell index of a level whose items are clustered at zoom `z` (cells fit that radius).
    func makeIndex(_ w: Working, clusteredAtZoom z: Int) -> CellIndex {
        CellIndex(xs: w.x, ys: w.y, cell: NeighborGraph.cellSize(radius: radius(atZoom: z)))
    }

    mutating func build(validIndices: [UInt32]) -> [Level] {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        let nodeSize = options.nodeSize
        let n0 = validIndices.count
        // With minPoints > 2, items that don't make a cluster are carried to the next level in the
        // order the radius query reports them, which decides later visiting orders: then the
        // order of supercluster's kd-tree is needed. Otherwise it only orders floating-point sums.
        let exactOrder = options.minPoints > 2

        var current = Working(capacity: n0)
        for r in validIndices {
            current.append(r, Double(projected[2 * Int(r)]), Double(projected[2 * Int(r) + 1]), 1)
        }
        var index = makeIndex(current, clusteredAtZoom: maxZoom)

        var aggregateBuilder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        var useGraph = true
        var builtLevels: [Level] = []  // maxZoom + 1 first
        builtLevels.reserveCapacity(maxZoom - minZoom + 2)
        var visited = [Bool](repeating: false, count: n0)
        var neighbors: [UInt32] = []
        var childPositions: [UInt32] = []
        table.childStart.append(0)

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            table.zoomStart.append(table.x.count)
            let n = current.items.count
            let r = radius(atZoom: z)

            // Exact neighbour lists from a sweep over the cell index when the level is big and
            // not too dense; otherwise a radius query per item.
            var graph: NeighborGraph? = nil
            if useGraph && n >= 2048 {
                graph = NeighborGraph.build(index: index, centreX: current.x, centreY: current.y, radius: r,
                                            budget: 48 * n)
                if graph == nil { useGraph = false }
            }
            var ranks: [UInt32] = []
            if exactOrder {
                let tree = StaticKDTree<Float>(interleaved: current.floatCoordinates(), nodeSize: nodeSize,
                                               parallel: n >= 200_000)
                ranks = NeighborGraph.traversalRanks(tree)
            }

            var next = Working(capacity: n)
            var changed = false
            let minPoints = options.minPoints
            let clusterBase = UInt32(inputCount)

            visited.withUnsafeMutableBufferPointer { visited in
            current.items.withUnsafeBufferPointer { items in
            current.x.withUnsafeBufferPointer { xs in
            current.y.withUnsafeBufferPointer { ys in
            current.count.withUnsafeBufferPointer { counts in
                for i in 0..<n { visited[i] = false }
                for i in 0..<n {
                    if visited[i] { continue }
                    visited[i] = true
                    let ref = items[i]
                    let x = xs[i], y = ys[i]
                    neighbors.removeAll(keepingCapacity: true)
                    if let graph {
                        let s = Int(graph.start[i]), e = Int(graph.start[i + 1])
                        if s == e {
                            next.append(ref, x, y, counts[i])
                            continue
                        }
                        for k in s..<e { neighbors.append(graph.targets[k]) }
                    } else {
                        index.forEachWithin(qx: x, qy: y, r: r) { p in
                            let j = index.items[p]
                            if Int(j) != i { neighbors.append(j) }
                        }
                    }
                    if exactOrder { NeighborGraph.sortByRank(&neighbors, ranks: ranks) }

                    let numPointsOrigin = Int(counts[i])
                    var numPoints = numPointsOrigin
                    for k in neighbors where !visited[Int(k)] { numPoints += Int(counts[Int(k)]) }

                    if numPoints > numPointsOrigin && numPoints >= minPoints {
                        let c = table.x.count
                        var wx = x * Double(numPointsOrigin)
                        var wy = y * Double(numPointsOrigin)
                        aggregateBuilder?.add(ref, inputCount: inputCount, table: aggregates)
                        childPositions.removeAll(keepingCapacity: true)
                        childPositions.append(UInt32(i))
                        for k in neighbors {
                            let j = Int(k)
                            if visited[j] { continue }
                            visited[j] = true
                            let numPoints2 = Double(counts[j])
                            wx += xs[j] * numPoints2
                            wy += ys[j] * numPoints2
                            childPositions.append(k)
                            aggregateBuilder?.add(items[j], inputCount: inputCount, table: aggregates)
                        }
                        // Children in the order a radius query reports them (known with exact
                        // order only; otherwise the origin first, then its neighbours).
                        if exactOrder { NeighborGraph.sortByRank(&childPositions, ranks: ranks) }
                        for k in childPositions { table.childItems.append(items[Int(k)]) }
                        table.childStart.append(UInt32(table.childItems.count))
                        let cx = wx / Double(numPoints), cy = wy / Double(numPoints)
                        table.x.append(cx)
                        table.y.append(cy)
                        table.count.append(UInt32(numPoints))
                        table.origin.append(UInt32(i))
                        table.zoom.append(UInt8(z))
                        aggregateBuilder?.commit(to: &aggregates)
                        next.append(clusterBase + UInt32(c), cx, cy, UInt32(numPoints))
                        changed = true
                    } else {
                        next.append(ref, x, y, counts[i])
                        if numPoints > 1 {
                            for k in neighbors {
                                let j = Int(k)
                                if visited[j] { continue }
                                visited[j] = true
                                next.append(items[j], xs[j], ys[j], counts[j])
                                changed = true
                            }
                        }
                    }
                }
            }
            }
            }
            }
            }

            // Store this level (items as references, in cell order) and index the next one.
            builtLevels.append(Self.finish(index, dataItems: current.items))
            if changed {
                current = next
                index = makeIndex(current, clusteredAtZoom: z - 1)
            } else if z > minZoom {
                // Nothing merged or moved: same items, same order; only the cells must fit the
                // next radius.
                index = makeIndex(current, clusteredAtZoom: z - 1)
            }
        }
        table.zoomStart.append(table.x.count)
        builtLevels.append(Self.finish(index, dataItems: current.items))
        return builtLevels.reversed()
    }

    /// A finished level: the index with visiting-order positions replaced by item references.
    static func finish(_ index: CellIndex, dataItems: [UInt32]) -> Level {
        var index = index
        dataItems.withUnsafeBufferPointer { d in
            index.items.withUnsafeMutableBufferPointer { items in
                for p in 0..<items.count { items[p] = d[Int(items[p])] }
            }
        }
        return Level(index: index)
    }
}

extension AggregateTable.Builder {
    @inline(__always) mutating func add(_ ref: UInt32, inputCount: Int, table: AggregateTable) {
        let r = Int(ref)
        if r < inputCount { addPoint(r) } else { addRow(r - inputCount, of: table) }
    }
}
