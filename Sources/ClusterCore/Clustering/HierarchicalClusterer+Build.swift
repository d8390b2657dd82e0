import Dispatch
import Foundation

/// Builds the levels of a `HierarchicalClusterer`, from `maxZoom + 1` down to `minZoom`.
///
/// This is supercluster's `load`/`_cluster` step by step. While a level is being clustered its
/// tree's ids are positions in the level's stored (visiting) order, `dataItems[i]` is the item
/// at position `i`, and parents are recorded per position; when the level is done, ids and
/// parents are rewritten to item references in tree order, which is all queries need.
///
/// One shortcut, which changes no result: on a big level the radius queries are replaced by
/// neighbour lists computed all at once with a grid sweep (`NeighborGraph`), using the very
/// predicate of the tree's radius query, and each list is put in the order the query would
/// have reported it. A million scattered cache-missing tree descents become a few sequential
/// passes, and the items with no neighbour (nearly all of them at high zooms) cost nothing.
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

    mutating func build(validIndices: [UInt32]) -> [Level] {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        let nodeSize = options.nodeSize
        let n0 = validIndices.count

        var current = Working(capacity: n0)
        for r in validIndices {
            current.append(r, Double(projected[2 * Int(r)]), Double(projected[2 * Int(r) + 1]), 1)
        }
        var tree = StaticKDTree<Float>(interleaved: current.floatCoordinates(), nodeSize: nodeSize,
                                       parallel: n0 >= 200_000)

        var aggregateBuilder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        var useGraph = true
        var builtLevels: [Level] = []  // maxZoom + 1 first
        builtLevels.reserveCapacity(maxZoom - minZoom + 2)
        var visited = [Bool](repeating: false, count: n0)
        var pendingGraph: NeighborGraph? = nil
        var neighbors: [UInt32] = []

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            table.zoomStart.append(table.x.count)
            if traceEnabled { traceTime("start z\(z)") }
            let n = current.items.count
            let r = options.radius / (options.extent * pow(2, Double(z)))

            // Exact neighbour lists from a grid sweep, when the level is big and not too dense;
            // otherwise radius queries on the tree, as supercluster does. (Built while the
            // level's tree was being sorted, below.)
            var graph = pendingGraph
            pendingGraph = nil
            if graph == nil && useGraph && n >= 4096 {
                graph = NeighborGraph.build(x: current.x, y: current.y, radius: r, budget: 48 * n)
            }
            if graph == nil { useGraph = false }
            var ranks: [UInt32] = []

            var parents = [UInt32](repeating: .max, count: n)
            var next = Working(capacity: n)
            var changed = false
            let minPoints = options.minPoints
            let clusterBase = UInt32(inputCount)

            visited.withUnsafeMutableBufferPointer { visited in
            current.items.withUnsafeBufferPointer { items in
            current.x.withUnsafeBufferPointer { xs in
            current.y.withUnsafeBufferPointer { ys in
            current.count.withUnsafeBufferPointer { counts in
            parents.withUnsafeMutableBufferPointer { parents in
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
                        // Put the neighbours in the order the radius query would report them.
                        if ranks.isEmpty { ranks = NeighborGraph.traversalRanks(tree) }
                        for k in s..<e { neighbors.append(graph.targets[k]) }
                        NeighborGraph.sortByRank(&neighbors, ranks: ranks)
                    } else {
                        tree.within(x: x, y: y, radius: r, into: &neighbors)
                    }

                    let numPointsOrigin = Int(counts[i])
                    var numPoints = numPointsOrigin
                    for k in neighbors where !visited[Int(k)] { numPoints += Int(counts[Int(k)]) }

                    if numPoints > numPointsOrigin && numPoints >= minPoints {
                        let c = table.x.count
                        var wx = x * Double(numPointsOrigin)
                        var wy = y * Double(numPointsOrigin)
                        aggregateBuilder?.add(ref, inputCount: inputCount, table: aggregates)
                        for k in neighbors {
                            let j = Int(k)
                            if visited[j] { continue }
                            visited[j] = true
                            let numPoints2 = Double(counts[j])
                            wx += xs[j] * numPoints2
                            wy += ys[j] * numPoints2
                            parents[j] = UInt32(c)
                            aggregateBuilder?.add(items[j], inputCount: inputCount, table: aggregates)
                        }
                        parents[i] = UInt32(c)
                        let cx = wx / Double(numPoints), cy = wy / Double(numPoints)
                        table.x.append(cx)
                        table.y.append(cy)
                        table.count.append(UInt32(numPoints))
                        table.origin.append(UInt32(i))
                        table.originItem.append(ref)
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
            }

            if traceEnabled {
                traceTime("z\(z) n=\(n) graph=\(graph.map { $0.targets.count } ?? -1) next=\(next.items.count)")
            }
            if changed {
                // Sort the next level's tree and find its neighbours at the same time; finish
                // this level meanwhile too. The three only read what they share.
                let nextCount = next.items.count
                let nextR = z > minZoom ? options.radius / (options.extent * pow(2, Double(z - 1))) : 0
                let wantGraph = z > minZoom && useGraph && nextCount >= 4096
                let box = BuildBox()
                let coords = next.floatCoordinates()
                let nx = next.x, ny = next.y
                let finishedTree = tree
                let items = current.items
                let parentsCopy = parents
                tree = StaticKDTree<Float>(interleaved: [], nodeSize: nodeSize)
                DispatchQueue.concurrentPerform(iterations: 2) { task in
                    if task == 0 {
                        box.tree = StaticKDTree<Float>(interleaved: coords, nodeSize: nodeSize,
                                                       parallel: nextCount >= 200_000)
                    } else {
                        if wantGraph {
                            box.graph = NeighborGraph.build(x: nx, y: ny, radius: nextR, budget: 48 * nextCount)
                            box.graphTried = true
                        }
                        var t = finishedTree
                        box.level = Self.finish(&t, dataItems: items, parents: parentsCopy)
                    }
                }
                tree = box.tree!
                builtLevels.append(box.level!)
                pendingGraph = box.graph
                if box.graphTried && box.graph == nil { useGraph = false }
                current = next
            } else {
                // Nothing merged and nothing moved: the next level is this one again (same
                // items, same order, so the same tree); only the coordinates are shared.
                var copy = tree
                builtLevels.append(Self.finish(&copy, dataItems: current.items, parents: []))
                pendingGraph = nil
            }
        }
        table.zoomStart.append(table.x.count)
        builtLevels.append(Self.finish(&tree, dataItems: current.items, parents: []))
        return builtLevels.reversed()
    }

    /// Rewrites a finished level from visiting-order positions to item references in tree order.
    static func finish(_ tree: inout StaticKDTree<Float>, dataItems: [UInt32], parents: [UInt32]) -> Level {
        var byPosition: [UInt32] = []
        if !parents.isEmpty {
            byPosition = [UInt32](repeating: .max, count: tree.count)
            for p in 0..<tree.count { byPosition[p] = parents[Int(tree.ids[p])] }
        }
        for p in 0..<tree.count { tree.ids[p] = dataItems[Int(tree.ids[p])] }
        return Level(tree: tree, parents: byPosition)
    }

}

/// Results handed back from the concurrent steps of one level (each slot written by one task).
private final class BuildBox: @unchecked Sendable {
    var tree: StaticKDTree<Float>?
    var graph: NeighborGraph?
    var graphTried = false
    var level: HierarchicalClusterer.Level?
}

extension AggregateTable.Builder {
    @inline(__always) mutating func add(_ ref: UInt32, inputCount: Int, table: AggregateTable) {
        let r = Int(ref)
        if r < inputCount { addPoint(r) } else { addRow(r - inputCount, of: table) }
    }
}

let traceEnabled = getenv("CLUSTERCORE_TRACE") != nil
nonisolated(unsafe) var traceLast = 0.0
func traceTime(_ what: String) {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    let now = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    print("\(what) +\(Int((now - traceLast) * 1000)) ms")
    traceLast = now
}
