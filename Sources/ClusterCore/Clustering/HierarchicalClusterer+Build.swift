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

    /// One level's items in visiting order, as supercluster's `data` array holds them (columns
    /// of a fixed capacity, reused from level to level).
    struct Working {
        let capacity: Int
        let items: UnsafeMutablePointer<UInt32>
        let x: UnsafeMutablePointer<Double>
        let y: UnsafeMutablePointer<Double>
        let count: UnsafeMutablePointer<UInt32>
        var n = 0

        init(capacity: Int) {
            self.capacity = max(capacity, 1)
            items = .allocate(capacity: self.capacity)
            x = .allocate(capacity: self.capacity)
            y = .allocate(capacity: self.capacity)
            count = .allocate(capacity: self.capacity)
        }

        func deallocate() {
            items.deallocate(); x.deallocate(); y.deallocate(); count.deallocate()
        }

        @inline(__always) mutating func append(_ item: UInt32, _ x: Double, _ y: Double, _ count: UInt32) {
            let k = n
            self.items[k] = item
            self.x[k] = x
            self.y[k] = y
            self.count[k] = count
            n = k + 1
        }

        /// Appends items `from..<to` of `other`.
        @inline(__always) mutating func append(from other: Working, _ from: Int, _ to: Int) {
            let m = to - from
            guard m > 0 else { return }
            (items + n).update(from: other.items + from, count: m)
            (x + n).update(from: other.x + from, count: m)
            (y + n).update(from: other.y + from, count: m)
            (count + n).update(from: other.count + from, count: m)
            n += m
        }

        /// Interleaved Float coordinates for the level's tree.
        func floatCoordinates() -> [Float] {
            var coords = [Float](repeating: 0, count: 2 * n)
            coords.withUnsafeMutableBufferPointer { c in
                for i in 0..<n {
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
    func makeIndex(_ w: Working, clusteredAtZoom z: Int, scratch: CellIndex.SortScratch) -> CellIndex {
        CellIndex(xs: w.x, ys: w.y, count: w.n, cell: NeighborGraph.cellSize(radius: radius(atZoom: z)),
                  scratch: scratch)
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
        var next = Working(capacity: n0)
        defer {
            current.deallocate()
            next.deallocate()
        }
        projected.withUnsafeBufferPointer { pr in
            for r in validIndices {
                current.append(r, Double(pr[2 * Int(r)]), Double(pr[2 * Int(r) + 1]), 1)
            }
        }
        let scratch = CellIndex.SortScratch(capacity: n0)
        var index = makeIndex(current, clusteredAtZoom: maxZoom, scratch: scratch)

        var aggregateBuilder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        var useGraph = true
        var builtLevels: [Level] = []  // maxZoom + 1 first
        builtLevels.reserveCapacity(maxZoom - minZoom + 2)
        let visited = UnsafeMutablePointer<Bool>.allocate(capacity: max(n0, 1))
        defer { visited.deallocate() }
        var neighbors: [UInt32] = []
        var childPositions: [UInt32] = []
        table.childStart.append(0)

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            table.zoomStart.append(table.x.count)
            let n = current.n
            let r = radius(atZoom: z)

            // Exact neighbour lists from a sweep over the cell index when the level is big and
            // not too dense; otherwise a radius query per item.
            var graph: NeighborGraph? = nil
            if useGraph && n >= 2048 {
                graph = NeighborGraph.build(index: index, keys: scratch.sorted, shift: scratch.shift,
                                            centreX: scratch.cx, centreY: scratch.cy, radius: r, budget: 48 * n)
                if graph == nil { useGraph = false }
            }
            var ranks: [UInt32] = []
            if exactOrder {
                let tree = StaticKDTree<Float>(interleaved: current.floatCoordinates(), nodeSize: nodeSize,
                                               parallel: n >= 200_000)
                ranks = NeighborGraph.traversalRanks(tree)
            }

            next.n = 0
            var changed = false
            let minPoints = options.minPoints
            let clusterBase = UInt32(inputCount)
            let items = current.items, xs = current.x, ys = current.y, counts = current.count
            visited.update(repeating: false, count: n)

            @inline(__always) func takeCluster(_ i: Int, numPoints: Int, _ list: UnsafeBufferPointer<UInt32>) {
                let ref = items[i]
                let numPointsOrigin = Int(counts[i])
                let c = table.x.count
                var wx = xs[i] * Double(numPointsOrigin)
                var wy = ys[i] * Double(numPointsOrigin)
                aggregateBuilder?.add(ref, inputCount: inputCount, table: aggregates)
                childPositions.removeAll(keepingCapacity: true)
                childPositions.append(UInt32(i))
                for k in list {
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
            }

            /// Visits item i with the neighbour list `list`; returns whether the level changed.
            @inline(__always) func visit(_ i: Int, _ list: UnsafeBufferPointer<UInt32>) -> Bool {
                let numPointsOrigin = Int(counts[i])
                var numPoints = numPointsOrigin
                for k in list where !visited[Int(k)] { numPoints += Int(counts[Int(k)]) }
                if numPoints > numPointsOrigin && numPoints >= minPoints {
                    takeCluster(i, numPoints: numPoints, list)
                    return true
                }
                next.append(items[i], xs[i], ys[i], counts[i])
                var moved = false
                if numPoints > 1 {
                    for k in list {
                        let j = Int(k)
                        if visited[j] { continue }
                        visited[j] = true
                        next.append(items[j], xs[j], ys[j], counts[j])
                        moved = true
                    }
                }
                return moved
            }

            if let graph, !exactOrder {
                // Runs of items with no neighbour (most of them at high zooms) are copied as a block.
                graph.start.withUnsafeBufferPointer { start in
                graph.targets.withUnsafeBufferPointer { targets in
                    var i = 0
                    while i < n {
                        var e = i
                        while e < n && start[e] == start[e + 1] && !visited[e] {
                            visited[e] = true  // a neighbour list can still name it (the test isn't symmetric)
                            e += 1
                        }
                        next.append(from: current, i, e)
                        if e == n { break }
                        i = e
                        if !visited[i] {
                            visited[i] = true
                            let list = UnsafeBufferPointer(rebasing: targets[Int(start[i])..<Int(start[i + 1])])
                            if visit(i, list) { changed = true }
                        }
                        i += 1
                    }
                }
                }
            } else {
                for i in 0..<n {
                    if visited[i] { continue }
                    visited[i] = true
                    neighbors.removeAll(keepingCapacity: true)
                    if let graph {
                        let s = Int(graph.start[i]), e = Int(graph.start[i + 1])
                        if s == e {
                            next.append(items[i], xs[i], ys[i], counts[i])
                            continue
                        }
                        for k in s..<e { neighbors.append(graph.targets[k]) }
                    } else {
                        index.forEachWithin(qx: xs[i], qy: ys[i], r: r) { p in
                            let j = index.items[p]
                            if Int(j) != i { neighbors.append(j) }
                        }
                    }
                    if exactOrder { NeighborGraph.sortByRank(&neighbors, ranks: ranks) }
                    let moved = neighbors.withUnsafeBufferPointer { visit(i, $0) }
                    if moved { changed = true }
                }
            }

            // Store this level (items as references, in cell order) and index the next one.
            builtLevels.append(Self.finish(index, dataItems: current.items))
            if changed {
                swap(&current, &next)
                index = makeIndex(current, clusteredAtZoom: z - 1, scratch: scratch)
            } else if z > minZoom {
                // Nothing merged or moved: same items, same order; only the cells must fit the
                // next radius.
                index = makeIndex(current, clusteredAtZoom: z - 1, scratch: scratch)
            }
        }
        table.zoomStart.append(table.x.count)
        builtLevels.append(Self.finish(index, dataItems: current.items))
        return builtLevels.reversed()
    }

    /// A finished level: the index with visiting-order positions replaced by item references.
    static func finish(_ index: CellIndex, dataItems d: UnsafePointer<UInt32>) -> Level {
        var index = index
        index.items.withUnsafeMutableBufferPointer { items in
            for p in 0..<items.count { items[p] = d[Int(items[p])] }
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

