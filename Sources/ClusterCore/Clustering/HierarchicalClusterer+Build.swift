import Foundation

/// Builds the levels of a `HierarchicalClusterer`, from `maxZoom + 1` down to `minZoom`.
///
/// This is supercluster's `load`/`_cluster` step by step. While a level is being clustered its
/// tree's ids are positions in the level's stored (visiting) order, `dataItems[i]` is the item
/// at position `i`, and parents are recorded per position; when the level is done, ids and
/// parents are rewritten to item references in tree order, which is all queries need.
///
/// One shortcut, which changes no result: before clustering a big level, a grid sweep marks the
/// items that have another item within the radius (plus a margin covering Float rounding). An
/// unmarked item can only be carried to the next level unchanged, so its radius query is
/// skipped. At high zooms that is nearly every item.
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

    @inline(__always) private func position(_ ref: UInt32) -> (Double, Double) {
        let r = Int(ref)
        if r < inputCount { return (Double(projected[2 * r]), Double(projected[2 * r + 1])) }
        return (table.x[r - inputCount], table.y[r - inputCount])
    }

    @inline(__always) private func count(_ ref: UInt32) -> Int {
        let r = Int(ref)
        return r < inputCount ? 1 : Int(table.count[r - inputCount])
    }

    mutating func build(validIndices: [UInt32]) -> [Level] {
        let minZoom = options.minZoom, maxZoom = options.maxZoom
        let nodeSize = options.nodeSize
        let n0 = validIndices.count
        var levels: [Level] = []
        levels.reserveCapacity(maxZoom - minZoom + 2)

        var dataItems = validIndices
        var coords = [Float](repeating: 0, count: 2 * n0)
        for i in 0..<n0 {
            let r = Int(validIndices[i])
            coords[2 * i] = projected[2 * r]
            coords[2 * i + 1] = projected[2 * r + 1]
        }
        var tree = StaticKDTree<Float>(interleaved: coords, nodeSize: nodeSize, parallel: n0 >= 200_000)
        coords = []

        let visited = UnsafeMutableBufferPointer<Bool>.allocate(capacity: max(n0, 1))
        let crowded = UnsafeMutableBufferPointer<Bool>.allocate(capacity: max(n0, 1))
        defer {
            visited.deallocate()
            crowded.deallocate()
        }
        var neighbors: [UInt32] = []
        var aggregateBuilder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        var usePrefilter = true
        var builtLevels: [Level] = []  // maxZoom + 1 first

        for z in stride(from: maxZoom, through: minZoom, by: -1) {
            table.zoomStart.append(table.x.count)
            let n = dataItems.count
            let r = options.radius / (options.extent * pow(2, Double(z)))

            // Which items might have a neighbour (all, when the sweep is not worth it).
            var prefiltered = false
            if usePrefilter && n >= 4096 {
                for i in 0..<n { crowded[i] = false }
                if Self.markCrowded(tree: tree, eps: r * (1 + 1e-9) + 1e-7, crowded: crowded.baseAddress!) {
                    prefiltered = true
                    var crowdedCount = 0
                    for i in 0..<n where crowded[i] { crowdedCount += 1 }
                    if crowdedCount * 2 > n { usePrefilter = false }
                } else {
                    usePrefilter = false
                }
            }
            if !prefiltered { for i in 0..<n { crowded[i] = true } }
            for i in 0..<n { visited[i] = false }

            var parents = [UInt32](repeating: .max, count: n)
            var nextItems: [UInt32] = []
            nextItems.reserveCapacity(n)
            var nextCoords: [Float] = []
            nextCoords.reserveCapacity(2 * n)
            var changed = false
            let minPoints = options.minPoints
            let clusterBase = UInt32(inputCount)

            for i in 0..<n {
                if visited[i] { continue }
                visited[i] = true
                let ref = dataItems[i]
                let (x, y) = position(ref)
                if !crowded[i] {
                    nextItems.append(ref)
                    nextCoords.append(Float(x))
                    nextCoords.append(Float(y))
                    continue
                }
                neighbors.removeAll(keepingCapacity: true)
                tree.within(x: x, y: y, radius: r, into: &neighbors)

                let numPointsOrigin = count(ref)
                var numPoints = numPointsOrigin
                for k in neighbors where !visited[Int(k)] { numPoints += count(dataItems[Int(k)]) }

                if numPoints > numPointsOrigin && numPoints >= minPoints {
                    let c = table.x.count
                    var wx = x * Double(numPointsOrigin)
                    var wy = y * Double(numPointsOrigin)
                    aggregateBuilder?.add(ref, inputCount: inputCount, table: aggregates)
                    for k in neighbors {
                        let j = Int(k)
                        if visited[j] { continue }
                        visited[j] = true
                        let nref = dataItems[j]
                        let (nx, ny) = position(nref)
                        let numPoints2 = Double(count(nref))
                        wx += nx * numPoints2
                        wy += ny * numPoints2
                        parents[j] = UInt32(c)
                        aggregateBuilder?.add(nref, inputCount: inputCount, table: aggregates)
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
                    nextItems.append(clusterBase + UInt32(c))
                    nextCoords.append(Float(cx))
                    nextCoords.append(Float(cy))
                    changed = true
                } else {
                    nextItems.append(ref)
                    nextCoords.append(Float(x))
                    nextCoords.append(Float(y))
                    if numPoints > 1 {
                        for k in neighbors {
                            let j = Int(k)
                            if visited[j] { continue }
                            visited[j] = true
                            let nref = dataItems[j]
                            let (nx, ny) = position(nref)
                            nextItems.append(nref)
                            nextCoords.append(Float(nx))
                            nextCoords.append(Float(ny))
                            changed = true
                        }
                    }
                }
            }

            let anyParent = changed
            if changed {
                var next = StaticKDTree<Float>(interleaved: nextCoords, nodeSize: nodeSize,
                                               parallel: nextItems.count >= 200_000)
                nextCoords = []
                swap(&tree, &next)
                builtLevels.append(Self.finish(&next, dataItems: dataItems, parents: anyParent ? parents : []))
                dataItems = nextItems
            } else {
                // Nothing merged and nothing moved: the next level is this one again (same
                // items, same order, so the same tree); only the coordinates are shared.
                var copy = tree
                builtLevels.append(Self.finish(&copy, dataItems: dataItems, parents: []))
            }
        }
        table.zoomStart.append(table.x.count)
        builtLevels.append(Self.finish(&tree, dataItems: dataItems, parents: []))
        levels = builtLevels.reversed()
        return levels
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

    /// Marks (by visiting-order position) every item that has another item within `eps` on both
    /// axes. Returns false, with `crowded` unusable, when the sweep would cost too much.
    static func markCrowded(tree: StaticKDTree<Float>, eps: Double, crowded: UnsafeMutablePointer<Bool>) -> Bool {
        let n = tree.count
        let cell = eps * 1.0001
        guard cell > 0, 1 / cell < Double(1 << 25) else { return false }
        let width = UInt64(1 / cell) + 3
        var keys = [UInt64](repeating: 0, count: n)
        var vals = [UInt32](repeating: 0, count: n)
        tree.coords.withUnsafeBufferPointer { c in
            for p in 0..<n {
                let ix = UInt64(max(0, Double(c[2 * p]) / cell))
                let iy = UInt64(max(0, Double(c[2 * p + 1]) / cell))
                keys[p] = iy * width + ix
                vals[p] = UInt32(p)
            }
        }
        radixSort(keys: &keys, values: &vals, maxKey: width * width)

        var sx = [Float](repeating: 0, count: n), sy = [Float](repeating: 0, count: n)
        tree.coords.withUnsafeBufferPointer { c in
            for a in 0..<n {
                let p = Int(vals[a])
                sx[a] = c[2 * p]
                sy[a] = c[2 * p + 1]
            }
        }
        let budget = 32 * n
        var work = 0
        let ok: Bool = keys.withUnsafeBufferPointer { k in
            sx.withUnsafeBufferPointer { sx in
                sy.withUnsafeBufferPointer { sy in
                    tree.ids.withUnsafeBufferPointer { ids in
                        @inline(__always) func check(_ a: Int, _ b: Int) {
                            if abs(Double(sx[a]) - Double(sx[b])) <= eps && abs(Double(sy[a]) - Double(sy[b])) <= eps {
                                crowded[Int(ids[Int(vals[a])])] = true
                                crowded[Int(ids[Int(vals[b])])] = true
                            }
                        }
                        var p = 0
                        for a in 0..<n {
                            let ka = k[a]
                            var b = a + 1
                            while b < n && k[b] <= ka + 1 {
                                check(a, b)
                                b += 1
                            }
                            let lo = ka + width - 1, hi = ka + width + 1
                            while p < n && k[p] < lo { p += 1 }
                            var q = p
                            while q < n && k[q] <= hi {
                                check(a, q)
                                q += 1
                            }
                            work += (b - a) + (q - p)
                            if work > budget { return false }
                        }
                        return true
                    }
                }
            }
        }
        return ok
    }

    /// LSD radix sort of `keys` (all ≤ `maxKey`), carrying `values` along; stable.
    static func radixSort(keys: inout [UInt64], values: inout [UInt32], maxKey: UInt64) {
        let n = keys.count
        let bits = 64 - maxKey.leadingZeroBitCount
        var k2 = [UInt64](repeating: 0, count: n)
        var v2 = [UInt32](repeating: 0, count: n)
        var shift = 0
        var counts = [Int](repeating: 0, count: 2048)
        while shift < bits {
            for i in 0..<2048 { counts[i] = 0 }
            keys.withUnsafeBufferPointer { k in
                for i in 0..<n { counts[Int((k[i] >> UInt64(shift)) & 2047)] += 1 }
            }
            var sum = 0
            for i in 0..<2048 {
                let c = counts[i]
                counts[i] = sum
                sum += c
            }
            keys.withUnsafeBufferPointer { k in
                values.withUnsafeBufferPointer { v in
                    k2.withUnsafeMutableBufferPointer { k2 in
                        v2.withUnsafeMutableBufferPointer { v2 in
                            for i in 0..<n {
                                let d = Int((k[i] >> UInt64(shift)) & 2047)
                                let dst = counts[d]
                                counts[d] = dst + 1
                                k2[dst] = k[i]
                                v2[dst] = v[i]
                            }
                        }
                    }
                }
            }
            swap(&keys, &k2)
            swap(&values, &v2)
            shift += 11
        }
    }
}

extension AggregateTable.Builder {
    @inline(__always) mutating func add(_ ref: UInt32, inputCount: Int, table: AggregateTable) {
        let r = Int(ref)
        if r < inputCount { addPoint(r) } else { addRow(r - inputCount, of: table) }
    }
}
