import Foundation

/// Grid clustering: at each zoom, points fall into square cells of `cellSize(forZoom:)` screen
/// pixels, anchored to the world's pixel grid (so panning never reshuffles them); a cell with at
/// least `minCountForClustering` clusterable points is one cluster, other points stand alone.
///
/// Cell size is in logical pixels of the 256-pixel convention. When it is the same at every
/// zoom (the default) each cell splits into exactly 2 × 2 cells one zoom deeper, so children,
/// leaves and expansion zooms nest like the hierarchical clusterer's. (With cell sizes that
/// don't nest, children are the items one zoom deeper holding any of the cluster's points.)
public final class GridClusterer: PointClusterer {
    /// Where a cluster is drawn.
    public enum Position: String, Sendable, CaseIterable {
        /// The mean of its points (in Web Mercator).
        case average
        /// The centre of its cell.
        case cellCenter
        /// The point nearest to the mean (ties: the lowest input index).
        case nearestToAverage
        /// The point that comes first in the input.
        case first
    }

    public struct Options: Sendable {
        /// The lowest zoom with its own clusters.
        public var minZoom: Int
        /// The highest zoom at which anything clusters (at most 30).
        public var maxZoom: Int
        /// The fewest clusterable points in a cell that make a cluster.
        public var minCountForClustering: Int
        /// Where clusters are drawn.
        public var position: Position
        /// Cell side in screen pixels for a zoom.
        public var cellSize: @Sendable (Int) -> Double
        /// Whether an input point (by index) may join a cluster; nil: all may.
        public var shouldCluster: (@Sendable (Int) -> Bool)?

        public init(minZoom: Int = 0, maxZoom: Int = 16, minCountForClustering: Int = 2,
                    position: Position = .average, cellSize: @escaping @Sendable (Int) -> Double = { _ in 64 },
                    shouldCluster: (@Sendable (Int) -> Bool)? = nil) {
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.minCountForClustering = minCountForClustering
            self.position = position
            self.cellSize = cellSize
            self.shouldCluster = shouldCluster
        }

        /// Cells of one size at every zoom.
        public init(cellSize: Double, minZoom: Int = 0, maxZoom: Int = 16, minCountForClustering: Int = 2,
                    position: Position = .average, shouldCluster: (@Sendable (Int) -> Bool)? = nil) {
            self.init(minZoom: minZoom, maxZoom: maxZoom, minCountForClustering: minCountForClustering,
                      position: position, cellSize: { _ in cellSize }, shouldCluster: shouldCluster)
        }
    }

    /// One zoom: its items and its clusters' cells.
    struct Level: Sendable {
        var index: CellIndex
        /// Cell side in unit coordinates.
        var cellUnit: Double
        /// Cells per row of the key.
        var width: UInt64
        /// The clusters of the zoom, by ascending cell key: their keys and first cluster number.
        var clusterKeys: [UInt64]
        var firstCluster: Int
    }

    public let minZoom: Int
    public let maxZoom: Int
    public let inputCount: Int
    public let skippedCount: Int
    public let minCountForClustering: Int
    public let position: Position

    let coordinates: [GeoCoordinate]
    let projectedX: [Double]
    let projectedY: [Double]
    let clusterable: [Bool]
    let levels: [Level]  // minZoom…maxZoom + 1
    let clusterCoordinate: [GeoCoordinate]
    let clusterCount: [UInt32]
    let clusterZoom: [UInt8]
    let clusterKey: [UInt64]
    let attributes: PointAttributes
    let aggregateTable: AggregateTable

    /// Groups `points` into cells at every zoom.
    /// - Complexity: O(*n*) per zoom.
    public convenience init(points: [GeoCoordinate], options: Options = Options()) {
        self.init(points: points, categories: [], values: [], options: options)
    }

    /// Groups `points`, aggregating a category (−1: none) and a value (NaN: none) per point.
    /// - Complexity: O(*n*) per zoom.
    public init(points: [GeoCoordinate], categories: [Int32], values: [Double], options: Options = Options()) {
        let maxZoom = min(max(options.maxZoom, 0), 30)
        let minZoom = min(max(options.minZoom, 0), maxZoom)
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.minCountForClustering = max(1, options.minCountForClustering)
        self.position = options.position
        self.inputCount = points.count
        self.coordinates = points
        let attributes = PointAttributes(count: points.count, categories: categories, values: values)
        self.attributes = attributes

        let n = points.count
        var px = [Double](repeating: .nan, count: n), py = [Double](repeating: .nan, count: n)
        var valid: [Int] = []
        var clusterable = [Bool](repeating: false, count: n)
        for i in 0..<n where points[i].isValid {
            px[i] = WebMercator.x(longitude: points[i].longitude)
            py[i] = WebMercator.y(latitude: points[i].latitude)
            valid.append(i)
            clusterable[i] = options.shouldCluster?(i) ?? true
        }
        self.projectedX = px
        self.projectedY = py
        self.clusterable = clusterable
        self.skippedCount = n - valid.count

        var levels: [Level] = []
        var cCoord: [GeoCoordinate] = [], cCount: [UInt32] = [], cZoom: [UInt8] = [], cKey: [UInt64] = []
        var aggregates = AggregateTable()
        var builder = attributes.isEmpty ? nil : AggregateTable.Builder(attributes: attributes)
        let minCount = self.minCountForClustering

        for z in minZoom...(maxZoom + 1) {
            let worldPixels = 256 * pow(2, Double(z))
            var cellUnit = options.cellSize(min(z, maxZoom)) / worldPixels
            if !(cellUnit > 0) || !cellUnit.isFinite { cellUnit = 64 / worldPixels }
            cellUnit = max(cellUnit, 1.0 / Double(1 << 26))
            let width = UInt64(1 / cellUnit) + 2
            var itemX: [Double] = [], itemY: [Double] = [], itemRef: [UInt32] = []
            var keys: [UInt64] = []
            let firstCluster = cCount.count
            if z > maxZoom {
                for i in valid {
                    itemX.append(px[i]); itemY.append(py[i]); itemRef.append(UInt32(i))
                }
            } else {
                // Clusterable points sorted by cell (stable: input order within a cell).
                var entries: [CellIndex.Entry] = []
                entries.reserveCapacity(valid.count)
                for i in valid {
                    if !clusterable[i] {
                        itemX.append(px[i]); itemY.append(py[i]); itemRef.append(UInt32(i))
                        continue
                    }
                    let key = Self.cellKey(px[i], py[i], cellUnit: cellUnit, width: width)
                    entries.append(CellIndex.Entry(key: key, x: 0, y: 0, item: UInt32(i)))
                }
                CellIndex.radixSort(&entries, maxKey: width * width)
                var a = 0
                while a < entries.count {
                    var b = a + 1
                    while b < entries.count && entries[b].key == entries[a].key { b += 1 }
                    if b - a >= minCount {
                        let key = entries[a].key
                        var sx = 0.0, sy = 0.0
                        for k in a..<b {
                            let i = Int(entries[k].item)
                            sx += px[i]
                            sy += py[i]
                            builder?.addPoint(i)
                        }
                        let mx = sx / Double(b - a), my = sy / Double(b - a)
                        let coordinate: GeoCoordinate
                        var cx = mx, cy = my
                        switch options.position {
                        case .average:
                            coordinate = WebMercator.unproject(x: mx, y: my)
                        case .cellCenter:
                            cx = (Double(key % width) + 0.5) * cellUnit
                            cy = min(1, (Double(key / width) + 0.5) * cellUnit)
                            coordinate = WebMercator.unproject(x: cx, y: cy)
                        case .nearestToAverage:
                            var best = Int(entries[a].item), bestD = Double.infinity
                            for k in a..<b {
                                let i = Int(entries[k].item)
                                let d = (px[i] - mx) * (px[i] - mx) + (py[i] - my) * (py[i] - my)
                                if d < bestD { best = i; bestD = d }
                            }
                            cx = px[best]; cy = py[best]
                            coordinate = points[best]
                        case .first:
                            let i = Int(entries[a].item)
                            cx = px[i]; cy = py[i]
                            coordinate = points[i]
                        }
                        let c = cCount.count
                        cCoord.append(coordinate)
                        cCount.append(UInt32(b - a))
                        cZoom.append(UInt8(z))
                        cKey.append(key)
                        keys.append(key)
                        builder?.commit(to: &aggregates)
                        itemX.append(cx); itemY.append(cy); itemRef.append(UInt32(n + c))
                    } else {
                        for k in a..<b {
                            let i = Int(entries[k].item)
                            itemX.append(px[i]); itemY.append(py[i]); itemRef.append(UInt32(i))
                        }
                    }
                    a = b
                }
            }
            var index = CellIndex(xs: itemX, ys: itemY, cell: cellUnit)
            index.items = index.items.map { itemRef[Int($0)] }
            levels.append(Level(index: index, cellUnit: cellUnit, width: width, clusterKeys: keys,
                                firstCluster: firstCluster))
        }
        self.levels = levels
        self.clusterCoordinate = cCoord
        self.clusterCount = cCount
        self.clusterZoom = cZoom
        self.clusterKey = cKey
        self.aggregateTable = aggregates
    }

    @inline(__always) static func cellKey(_ x: Double, _ y: Double, cellUnit: Double, width: UInt64) -> UInt64 {
        let ix = x > 0 ? UInt64(x / cellUnit) : 0
        let iy = y > 0 ? UInt64(y / cellUnit) : 0
        return iy * width + min(ix, width - 1)
    }

    func level(_ z: Int) -> Level { levels[z - minZoom] }

    /// Cluster number for an id: `((index within its zoom) << 5) + (zoom + 1) + inputCount`.
    func clusterNumber(for id: ClusterID) -> Int? {
        guard let z = id.zoom(inputCount: inputCount), let k = id.originIndex(inputCount: inputCount),
              z >= minZoom, z <= maxZoom else { return nil }
        let level = self.level(z)
        guard k < level.clusterKeys.count else { return nil }
        return level.firstCluster + k
    }

    func clusterID(ofCluster c: Int) -> ClusterID {
        let z = Int(clusterZoom[c])
        return ClusterID(originIndex: c - level(z).firstCluster, zoom: z, inputCount: inputCount)
    }

    func makeItem(_ ref: UInt32) -> ClusterItem {
        let r = Int(ref)
        if r < inputCount { return ClusterItem(kind: .point(r), coordinate: coordinates[r], count: 1) }
        let c = r - inputCount
        return ClusterItem(kind: .cluster(clusterID(ofCluster: c)), coordinate: clusterCoordinate[c],
                           count: Int(clusterCount[c]), aggregateSlot: Int32(truncatingIfNeeded: c))
    }

    /// The item holding input point `i` at zoom `z` (a cluster reference or the point).
    func holder(ofPoint i: Int, atZoom z: Int) -> UInt32 {
        guard z <= maxZoom, clusterable[i] else { return UInt32(i) }
        let level = self.level(z)
        let key = Self.cellKey(projectedX[i], projectedY[i], cellUnit: level.cellUnit, width: level.width)
        var lo = 0, hi = level.clusterKeys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if level.clusterKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        if lo < level.clusterKeys.count && level.clusterKeys[lo] == key {
            return UInt32(inputCount + level.firstCluster + lo)
        }
        return UInt32(i)
    }

    /// The input indices in cluster number `c`, ascending.
    func members(ofCluster c: Int) -> [Int] {
        let z = Int(clusterZoom[c])
        let level = self.level(z)
        let key = clusterKey[c]
        let ix = Double(key % level.width), iy = Double(key / level.width)
        let cu = level.cellUnit
        // All points sit on the top level; look in the cell's box (edges included), then keep
        // the points whose cell is this one.
        let top = self.level(maxZoom + 1).index
        var result: [Int] = []
        let margin = 2e-7  // the index keeps Float coordinates
        top.forEachInRange(minX: ix * cu - margin, minY: iy * cu - margin,
                           maxX: (ix + 1) * cu + margin, maxY: (iy + 1) * cu + margin) { p in
            let i = Int(top.items[p])
            if clusterable[i] && Self.cellKey(projectedX[i], projectedY[i], cellUnit: cu, width: level.width) == key {
                result.append(i)
            }
        }
        // Points whose Float position in the index rounded out of the box (cells a Float ulp
        // wide never happen below zoom 30, but stay exact): fall back to a scan.
        if result.count != Int(clusterCount[c]) {
            result = (0..<inputCount).filter {
                clusterable[$0] && projectedX[$0].isFinite
                    && Self.cellKey(projectedX[$0], projectedY[$0], cellUnit: cu, width: level.width) == key
            }
        }
        return result.sorted()
    }

    // MARK: - PointClusterer

    /// Like `clusters(in:zoom:)`, replacing the contents of `buffer`.
    /// - Complexity: O(*rows* · log *n* + *k*).
    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        buffer.removeAll(keepingCapacity: true)
        guard !zoom.isNaN else { return }
        let z = zoom <= Double(minZoom) ? minZoom : (zoom >= Double(maxZoom + 1) ? maxZoom + 1 : Int(zoom.rounded(.down)))
        let index = level(z).index
        bounds.forEachQueryBox { west, south, east, north in
            index.forEachInRange(minX: WebMercator.x(longitude: west), minY: WebMercator.y(latitude: north),
                                 maxX: WebMercator.x(longitude: east), maxY: WebMercator.y(latitude: south)) {
                buffer.append(makeItem(index.items[$0]))
            }
        }
    }

    /// The items one zoom deeper holding the cluster's points (first appearance in input order).
    public func children(of cluster: ClusterID) -> [ClusterItem] {
        guard let c = clusterNumber(for: cluster) else { return [] }
        return childRefs(ofCluster: c).map(makeItem)
    }

    func childRefs(ofCluster c: Int) -> [UInt32] {
        let z = Int(clusterZoom[c])
        var seen = Set<UInt32>()
        var result: [UInt32] = []
        for i in members(ofCluster: c) {
            let h = holder(ofPoint: i, atZoom: z + 1)
            if seen.insert(h).inserted { result.append(h) }
        }
        return result
    }

    /// The cluster's input indices, ascending, after skipping `offset`, at most `limit` (all by default).
    public func leaves(of cluster: ClusterID, limit: Int = .max, offset: Int = 0) -> [Int] {
        guard let c = clusterNumber(for: cluster), limit > 0 else { return [] }
        let all = members(ofCluster: c)
        let start = min(max(0, offset), all.count)
        return Array(all[start..<min(all.count, start + min(limit, all.count))])
    }

    /// The first zoom at which the cluster's points are in more than one item.
    public func expansionZoom(of cluster: ClusterID) -> Int? {
        guard var c = clusterNumber(for: cluster) else { return nil }
        var z = Int(clusterZoom[c])
        while z <= maxZoom {
            let kids = childRefs(ofCluster: c)
            z += 1
            guard kids.count == 1, Int(kids[0]) >= inputCount else { break }
            c = Int(kids[0]) - inputCount
        }
        return z
    }

    public func item(for cluster: ClusterID) -> ClusterItem? {
        clusterNumber(for: cluster).map { makeItem(UInt32(inputCount + $0)) }
    }

    public func aggregates(of item: ClusterItem) -> ClusterAggregates {
        switch item.kind {
        case .point(let i):
            guard i >= 0 && i < inputCount else { return ClusterAggregates(count: 0) }
            return attributes.aggregates(ofPoint: i)
        case .cluster(let id):
            guard let c = clusterNumber(for: id) else { return ClusterAggregates(count: 0) }
            return aggregateTable.aggregates(ofRow: c, count: Int(clusterCount[c]), attributes: attributes)
        }
    }
}
