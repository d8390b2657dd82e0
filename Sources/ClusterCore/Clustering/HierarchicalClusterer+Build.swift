import Dispatch
import Foundation

/// Builds the levels of a `HierarchicalClusterer`, from `maxZoom + 1` down to `minZoom`.
///
/// This is supercluster's `load`/`_cluster` step by step: the level's items are visited in
/// their stored order (`Working`, supercluster's `data`), each unvisited one takes all unvisited
/// neighbours within the radius, and clusters, carried items and their order come out the same.
///
/// Three shortcuts, which change no membership, count, id or expansion zoom:
/// - Levels are sorted into cells once per `LevelBand` and carried down while few items merge
///   (at high zooms, where a level merges a few items in a million); a cluster's neighbours are
///   summed in visiting order, so no result depends on which cells found them.
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
    /// The input points (projected by the build).
    let points: [GeoCoordinate]
    let attributes: PointAttributes
    var table = HierarchicalClusterer.ClusterTable()
    var aggregates = AggregateTable()
    /// The most zooms one band may serve (1: every level sorted from scratch, as tests compare).
    var maxBandLength = 8
    /// Whether `minPoints ≤ 2` builds use `buildBySlots` (tests compare it with the older path).
    var bySlots = true
    /// How many input points are valid (known after `build`).
    var validCount = 0
    /// The prepared points whose chosen ones `points` are (`buildBySlots` then neither projects
    /// them nor sorts its first band).
    var prepared: PreparedSubset?

    init(options: HierarchicalClusterer.Options, points: [GeoCoordinate], attributes: PointAttributes) {
        self.options = options
        self.inputCount = points.count
        self.points = points
        self.attributes = attributes
    }

    /// The radius at zoom z.
    func radius(atZoom z: Int) -> Double { options.radius / (options.extent * pow(2, Double(z))) }

    /// A band of levels sorted from the items of `w` (level `level`), with cells fit for the
    /// radius at zoom `cellZoom`.
    func makeBand(_ w: Working, level: Int, cellZoom: Int, scratch: CellIndex.SortScratch) -> LevelBand {
        LevelBand(items: w.items, xs: w.x, ys: w.y, count: w.n, level: level,
                  minimumCell: NeighborGraph.cellSize(radius: radius(atZoom: cellZoom)), scratch: scratch)
    }

    /// How many zooms, from `z` down, one band's cells should serve: as many as keep the sweep
    /// cheap — the candidate pairs grow with the cell's area, and `candidatesPerItem` were seen
    /// with cells of side `seenCell` — up to 8.
    func bandLength(from z: Int, candidatesPerItem: Double, seenCell: Double) -> Int {
        var k = 1
        while k < maxBandLength && z - k >= options.minZoom {
            let cell = NeighborGraph.cellSize(radius: radius(atZoom: z - k))
            let ratio = cell / seenCell
            if candidatesPerItem * ratio * ratio > 0.5 { break }
            k += 1
        }
        return k
    }

    /// The sweep's view of a band's entries.
    /// `scratch` is the sort scratch of the band's build, whose centres it may still hold.
    func withSweepInput<R>(_ band: LevelBand, _ table: HierarchicalClusterer.ClusterTable, scratch: CellIndex.SortScratch,
                           _ body: (NeighborGraph.SweepInput) -> R) -> R {
        band.x.withUnsafeBufferPointer { xs in
        band.y.withUnsafeBufferPointer { ys in
        band.positions.withUnsafeBufferPointer { pos in
        band.keys.withUnsafeBufferPointer { keys in
        band.refs.withUnsafeBufferPointer { refs in
        table.rows.withUnsafeBufferPointer { rows in
            var input = NeighborGraph.SweepInput(entries: band.entryCount, xs: xs.baseAddress!, ys: ys.baseAddress!,
                                                 item: pos.baseAddress!, keys: keys.baseAddress!, shift: 0,
                                                 width: band.width, cell: band.cell, refs: refs.baseAddress!,
                                                 inputCount: inputCount, tableRows: rows.baseAddress)
            if band.centresInScratch {
                input.cx = UnsafePointer(scratch.cx)
                input.cy = UnsafePointer(scratch.cy)
            }
            return body(input)
        }}}}}}
    }

    mutating func build() -> [Level] {
        if bySlots && options.minPoints <= 2 { return buildBySlots() }
        let (projected, validIndices) = HierarchicalClusterer.project(points)
        validCount = validIndices.count
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        let nodeSize = options.nodeSize
        let n0 = validIndices.count
        // With minPoints > 2, items that don't make a cluster are carried to the next level in the
        // order the radius query reports them, which decides later visiting orders: then the
        // order of supercluster's kd-tree is needed. Otherwise it only orders floating-point sums.
        let exactOrder = options.minPoints > 2
        // Local copies while building: the nested functions below then touch locals, which need
        // no run-time exclusivity checks (stored properties of `self` do).
        var table = self.table, aggregates = self.aggregates
        defer {
            self.table = table
            self.aggregates = aggregates
        }

        var current = Working(capacity: n0)
        var next = Working(capacity: n0)
        let newPosition = UnsafeMutablePointer<UInt32>.allocate(capacity: max(n0, 1))
        defer {
            current.deallocate()
            next.deallocate()
            newPosition.deallocate()
        }
        projected.withUnsafeBufferPointer { pr in
            for r in validIndices {
                current.append(r, Double(pr[2 * Int(r)]), Double(pr[2 * Int(r) + 1]), 1, from: 0)
            }
        }
        let scratch = CellIndex.SortScratch(capacity: n0)
        // The band holding the levels from `maxZoom + 1` down; its cells serve zooms down to `bandEnd`.
        var band = makeBand(current, level: maxZoom + 1, cellZoom: maxZoom, scratch: scratch)
        var bandEnd = maxZoom

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
            table.zoomStart.append(table.rows.count)
            let n = current.n
            let r = radius(atZoom: z)

            // Exact neighbour lists from a sweep over the band when the level is big and not too
            // dense; otherwise a radius query per item. A band whose wide cells (or dead entries)
            // make the sweep too costly gets a fresh index with this zoom's cells for this level.
            var graph: NeighborGraph? = nil
            var query = band
            var candidatesCell = band.cell
            var keepBand = true
            if useGraph && n >= 2048 {
                graph = withSweepInput(band, table, scratch: scratch) { NeighborGraph.build($0, positions: n, radius: r, budget: 48 * n) }
                if graph == nil && (bandEnd < z || band.deadCount > 0) {
                    keepBand = false
                    query = makeBand(current, level: z + 1, cellZoom: z, scratch: scratch)
                    candidatesCell = query.cell
                    graph = withSweepInput(query, table, scratch: scratch) { NeighborGraph.build($0, positions: n, radius: r, budget: 48 * n) }
                }
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
            let dead = LevelBand.dead
            visited.update(repeating: false, count: n)

            @inline(__always) func takeCluster(_ i: Int, numPoints: Int, _ list: UnsafeBufferPointer<UInt32>) {
                let ref = items[i]
                let numPointsOrigin = Int(counts[i])
                let c = table.rows.count
                childPositions.removeAll(keepingCapacity: true)
                childPositions.append(UInt32(i))
                for k in list where !visited[Int(k)] {
                    visited[Int(k)] = true
                    childPositions.append(k)
                }
                // The neighbours in visiting order, whatever order the index found them in, so
                // that centres (floating-point sums) and children don't depend on the cells.
                // With exact order the list already is in the radius query's order.
                if !exactOrder { Self.sortTail(&childPositions) }
                var wx = xs[i] * Double(numPointsOrigin)
                var wy = ys[i] * Double(numPointsOrigin)
                aggregateBuilder?.add(ref, inputCount: inputCount, table: aggregates)
                for k in childPositions.dropFirst() {
                    let j = Int(k)
                    let numPoints2 = Double(counts[j])
                    wx += xs[j] * numPoints2
                    wy += ys[j] * numPoints2
                    aggregateBuilder?.add(items[j], inputCount: inputCount, table: aggregates)
                }
                // Children in the order a radius query reports them (known with exact
                // order only; otherwise the origin first, then its neighbours).
                if exactOrder { NeighborGraph.sortByRank(&childPositions, ranks: ranks) }
                for k in childPositions { table.childItems.append(items[Int(k)]) }
                table.childStart.append(UInt32(table.childItems.count))
                let cx = wx / Double(numPoints), cy = wy / Double(numPoints)
                table.rows.append(.init(x: cx, y: cy, count: UInt32(numPoints), origin: UInt32(i)))
                table.zoom.append(UInt8(z))
                aggregateBuilder?.commit(to: &aggregates)
                next.append(clusterBase + UInt32(c), cx, cy, UInt32(numPoints), from: dead)
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
                next.append(items[i], xs[i], ys[i], counts[i], from: UInt32(i))
                var moved = false
                if numPoints > 1 {
                    for k in list {
                        let j = Int(k)
                        if visited[j] { continue }
                        visited[j] = true
                        next.append(items[j], xs[j], ys[j], counts[j], from: k)
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
                let index = graph == nil ? query.positionIndex : nil
                for i in 0..<n {
                    if visited[i] { continue }
                    visited[i] = true
                    neighbors.removeAll(keepingCapacity: true)
                    if let graph {
                        let s = Int(graph.start[i]), e = Int(graph.start[i + 1])
                        if s == e {
                            next.append(items[i], xs[i], ys[i], counts[i], from: UInt32(i))
                            continue
                        }
                        for k in s..<e { neighbors.append(graph.targets[k]) }
                    } else if let index {
                        index.forEachWithin(qx: xs[i], qy: ys[i], r: r) { p in
                            let j = index.items[p]
                            if Int(j) != i && j != dead { neighbors.append(j) }
                        }
                    }
                    if exactOrder { NeighborGraph.sortByRank(&neighbors, ranks: ranks) }
                    let moved = neighbors.withUnsafeBufferPointer { visit(i, $0) }
                    if moved { changed = true }
                }
            }

            // Carry the band down to the new level while its cells serve the next zoom and few of
            // its entries are dead; otherwise store it and sort the new level into a new band.
            var died = 0
            if changed {
                newPosition.update(repeating: dead, count: n)
                var clusters: [LevelBand.NewCluster] = []
                for k in 0..<next.n {
                    let f = next.from[k]
                    if f == dead {
                        clusters.append(.init(position: UInt32(k), x: next.x[k], y: next.y[k], ref: next.items[k]))
                    } else {
                        newPosition[Int(f)] = UInt32(k)
                    }
                }
                died = n - (next.n - clusters.count)
                keepBand = keepBand && !exactOrder && (z == minZoom || z - 1 >= bandEnd)
                    && band.deadCount + died <= next.n / 4
                if keepBand { band.carry(toLevel: z, newPosition: newPosition, clusters: clusters) }
            } else {
                keepBand = keepBand && (z == minZoom || z - 1 >= bandEnd)
                if keepBand { band.extend(toLevel: z) }
            }
            if changed { swap(&current, &next) }
            if !keepBand {
                builtLevels += band.finish()
                if z > minZoom, let graph, !exactOrder, current.n >= 2048 {
                    let k = bandLength(from: z - 1, candidatesPerItem: Double(graph.candidates) / Double(max(n, 1)),
                                       seenCell: candidatesCell)
                    bandEnd = z - k
                } else {
                    bandEnd = z - 1
                }
                band = makeBand(current, level: z, cellZoom: bandEnd, scratch: scratch)
            }
        }
        table.zoomStart.append(table.rows.count)
        builtLevels += band.finish()
        return builtLevels.reversed()
    }

    /// Sorts all but the first element ascending (insertion sort for the usual short lists).
    @inline(__always) static func sortTail(_ list: inout [UInt32]) {
        let n = list.count
        if n < 3 { return }
        if n > 32 {
            list[1...].sort()
            return
        }
        list.withUnsafeMutableBufferPointer { l in
            for i in 2..<n {
                let v = l[i]
                var j = i - 1
                while j >= 1 && l[j] > v {
                    l[j + 1] = l[j]
                    j -= 1
                }
                l[j + 1] = v
            }
        }
    }
}

extension AggregateTable.Builder {
    @inline(__always) mutating func add(_ ref: UInt32, inputCount: Int, table: AggregateTable) {
        let r = Int(ref)
        if r < inputCount { addPoint(r) } else { addRow(r - inputCount, of: table) }
    }
}

