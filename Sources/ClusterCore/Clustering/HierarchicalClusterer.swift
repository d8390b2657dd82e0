import Foundation

/// Hierarchical greedy clustering with the same results as Mapbox `supercluster` (v8).
///
/// Points are projected to the unit Web Mercator square. Level `maxZoom + 1` holds every
/// point; each lower level `z` is built from level `z + 1` by visiting its items in their stored
/// order and merging each unassigned item with all unassigned items within
/// `radius / (extent · 2^z)`, when together they hold at least `minPoints` points. A cluster
/// sits at the point-count-weighted mean of its parts. Coordinates are indexed as `Float`, as in
/// supercluster's kd-trees, and neighbours are found with the same distance test.
///
/// Results match supercluster v8's: the items at every zoom, members, counts, cluster ids and
/// expansion zooms are identical, and centres agree to floating-point rounding (~1e-13°).
/// The order of `clusters(in:zoom:)`, `children(of:)` and `leaves(of:limit:offset:)` is
/// deterministic but, except with `minPoints > 2`, not supercluster's (which follows its
/// kd-trees): children come origin first, then the neighbours it took in visiting order.
/// Invalid input points (NaN, |lat| > 90, |lon| > 180) are skipped, like features without a
/// geometry in supercluster: they keep their index, they are just never returned.
public final class HierarchicalClusterer: PointClusterer {
    /// Clustering options; the defaults are supercluster's.
    public struct Options: Hashable, Sendable {
        /// The lowest zoom with its own clusters.
        public var minZoom: Int
        /// The highest zoom that is clustered (at most 30); above it every point stands alone.
        public var maxZoom: Int
        /// The fewest points that form a cluster.
        public var minPoints: Int
        /// Cluster radius, in pixels of a tile `extent` pixels wide.
        public var radius: Double
        /// Tile width the radius is measured against.
        public var extent: Double
        /// kd-tree leaf size. Only used with `minPoints > 2`, where supercluster's kd-tree order
        /// decides results; it never changes membership otherwise.
        public var nodeSize: Int

        public init(minZoom: Int = 0, maxZoom: Int = 16, minPoints: Int = 2, radius: Double = 40,
                    extent: Double = 512, nodeSize: Int = 64) {
            self.minZoom = minZoom
            self.maxZoom = maxZoom
            self.minPoints = minPoints
            self.radius = radius
            self.extent = extent
            self.nodeSize = nodeSize
        }
    }

    /// One zoom's items.
    struct Level: Sendable {
        /// Item coordinates (Float, as supercluster's trees) and, per position, the item: an
        /// input index (`< inputCount`) or `inputCount + cluster number`. Shared by the levels
        /// of one `LevelBand`: then only the entries with `lowest ≤ level ≤ highest` are on it.
        var index: CellIndex
        /// This level's number (its zoom).
        var level: UInt8
        /// How many items are on this level.
        var count: Int
        /// Per entry, the highest and lowest level it is on; empty when every entry is on it.
        var highest: [UInt8]
        var lowest: [UInt8]

        /// A level that holds every entry of `index` (given its query directory here).
        init(index: CellIndex, level: UInt8) {
            var index = index
            index.buildDirectory()
            self.init(index: index, level: level, count: index.count, highest: [], lowest: [])
        }

        init(index: CellIndex, level: UInt8, count: Int, highest: [UInt8], lowest: [UInt8]) {
            self.index = index
            self.level = level
            self.count = count
            self.highest = highest
            self.lowest = lowest
        }

        /// The levels `top` down to `bottom` sharing one index (a band's, given its query
        /// directory here): `counts` is the difference array of entries per level (+1 at an
        /// entry's highest level, −1 below its lowest).
        static func stack(index: CellIndex, top: Int, bottom: Int, counts: [Int], highest: [UInt8],
                          lowest: [UInt8]) -> [Level] {
            var index = index
            index.buildDirectory()
            var levels: [Level] = []
            var running = 0
            for level in stride(from: top, through: bottom, by: -1) {
                running += counts[top - level]
                levels.append(Level(index: index, level: UInt8(level), count: running, highest: highest, lowest: lowest))
            }
            return levels
        }

        /// Calls `body` with the item reference of each entry on this level in the box, in cell order.
        @inline(__always)
        func forEachItem(minX: Double, minY: Double, maxX: Double, maxY: Double, _ body: (UInt32) -> Void) {
            index.items.withUnsafeBufferPointer { items in
                if highest.isEmpty {
                    index.forEachInRange(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { body(items[$0]) }
                    return
                }
                highest.withUnsafeBufferPointer { high in
                    lowest.withUnsafeBufferPointer { low in
                        index.forEachInRange(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { p in
                            if high[p] >= level && low[p] <= level { body(items[p]) }
                        }
                    }
                }
            }
        }
    }

    public let options: Options
    public let inputCount: Int
    public let skippedCount: Int
    public var minZoom: Int { options.minZoom }
    public var maxZoom: Int { options.maxZoom }

    /// Input coordinates (points are returned at exactly these).
    let coordinates: [GeoCoordinate]
    /// Levels `minZoom…maxZoom + 1`, indexed by `zoom - minZoom`.
    let levels: [Level]
    let table: ClusterTable
    let attributes: PointAttributes
    let aggregateTable: AggregateTable

    /// Indexes `points` with supercluster's algorithm.
    /// - Complexity: O(*n* log *n*) per zoom level for *n* items on it.
    public convenience init(points: [GeoCoordinate], options: Options = Options()) {
        self.init(points: points, categories: [], values: [], options: options)
    }

    /// Indexes `points`, also aggregating a category (−1: none) and a numeric value (NaN: none)
    /// per point into every cluster; pass empty arrays for inputs you don't have.
    /// - Complexity: O(*n* log *n*) per zoom level for *n* items on it.
    public convenience init(points: [GeoCoordinate], categories: [Int32], values: [Double], options: Options = Options()) {
        self.init(points: points, categories: categories, values: values, options: options, maxBandLength: 8)
    }

    /// As above; `maxBandLength` is the most zooms one band serves (1 sorts every level from
    /// scratch), `bySlots: false` builds `minPoints ≤ 2` levels the older way: tests compare them.
    /// With `prepared`, `points` must be exactly its chosen points in input order: their
    /// projection and first band's order are then taken from it.
    init(points: [GeoCoordinate], categories: [Int32], values: [Double], options: Options, maxBandLength: Int,
         bySlots: Bool = true, prepared: LevelBuilder.PreparedSubset? = nil) {
        let options = options.normalized
        precondition(points.count < Int(UInt32.max / 2), "too many points")
        self.options = options
        self.inputCount = points.count
        self.coordinates = points
        let attributes = PointAttributes(count: points.count, categories: categories, values: values)
        buildTrace("hierarchical start")
        self.attributes = attributes

        var builder = LevelBuilder(options: options, points: points, attributes: attributes)
        builder.maxBandLength = maxBandLength
        builder.bySlots = bySlots
        builder.prepared = prepared.flatMap { $0.points.serves(options) ? $0 : nil }
        let built = builder.build()
        buildTrace("built")
        self.skippedCount = points.count - builder.validCount
        self.levels = built
        self.table = builder.table
        self.aggregateTable = builder.aggregates
    }

    /// Projects valid points to Float unit coordinates (NaN for invalid ones), in parallel
    /// chunks for large inputs; returns the indices of the valid points in input order.
    static func project(_ points: [GeoCoordinate]) -> ([Float], [UInt32]) {
        let n = points.count
        var projected = [Float](repeating: .nan, count: 2 * n)
        let chunks = n >= 200_000 ? 8 : 1
        projected.withUnsafeMutableBufferPointer { out in
            let dst = SendablePointer(out.baseAddress)
            points.withUnsafeBufferPointer { src in
                let srcp = SendableConstPointer(src.baseAddress)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let lo = n * chunk / chunks, hi = n * (chunk + 1) / chunks
                    guard let s = srcp.pointer, let d = dst.pointer else { return }
                    for i in lo..<hi where s[i].isValid {
                        d[2 * i] = Float(WebMercator.x(longitude: s[i].longitude))
                        d[2 * i + 1] = Float(WebMercator.y(latitude: s[i].latitude))
                    }
                }
            }
        }
        var valid: [UInt32] = []
        valid.reserveCapacity(n)
        for i in 0..<n where !projected[2 * i].isNaN { valid.append(UInt32(i)) }
        return (projected, valid)
    }

    // MARK: - Item helpers

    @inline(__always) func level(forZoom z: Int) -> Level { levels[z - options.minZoom] }

    /// The cluster id of cluster number `c`.
    @inline(__always) func clusterID(ofCluster c: Int) -> ClusterID {
        let zoom = zoomOfCluster(c)
        return ClusterID(originIndex: Int(table.rows[c].origin), zoom: zoom, inputCount: inputCount)
    }

    /// The zoom cluster number `c` belongs to, from the table's zoom ranges (a branch-free
    /// search over at most 32 starts, in cache): a query then touches one table row per cluster.
    @inline(__always) func zoomOfCluster(_ c: Int) -> Int {
        table.zoomStart.withUnsafeBufferPointer { starts in
            // The last k with starts[k] ≤ c (starts[0] = 0; empty zooms repeat a start).
            var base = 0, n = starts.count
            while n > 1 {
                let half = n >> 1
                base = starts[base + half] <= c ? base + half : base
                n -= half
            }
            return options.maxZoom - base
        }
    }

    /// The cluster number for an id, or nil.
    func clusterNumber(for id: ClusterID) -> Int? {
        guard let zoom = id.zoom(inputCount: inputCount), let origin = id.originIndex(inputCount: inputCount),
              zoom >= options.minZoom, zoom <= options.maxZoom, origin <= Int(UInt32.max) else { return nil }
        let range = clusterRange(forZoom: zoom)
        var lo = range.lowerBound, hi = range.upperBound
        let target = UInt32(origin)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if table.rows[mid].origin < target { lo = mid + 1 } else { hi = mid }
        }
        return lo < range.upperBound && table.rows[lo].origin == target ? lo : nil
    }

    /// The cluster numbers of one zoom.
    func clusterRange(forZoom z: Int) -> Range<Int> {
        let k = options.maxZoom - z  // creation order: maxZoom first
        return table.zoomStart[k]..<table.zoomStart[k + 1]
    }

    /// The public value for an item reference.
    @inline(__always) func makeItem(_ ref: UInt32) -> ClusterItem {
        let r = Int(ref)
        if r < inputCount {
            return ClusterItem(kind: .point(r), coordinate: coordinates[r], count: 1)
        }
        let c = r - inputCount
        let row = table.rows[c]
        let id = ClusterID(originIndex: Int(row.origin), zoom: zoomOfCluster(c), inputCount: inputCount)
        return ClusterItem(kind: .cluster(id), coordinate: WebMercator.unproject(x: row.x, y: row.y),
                           count: Int(row.count), aggregateSlot: Int32(truncatingIfNeeded: c))
    }

    // MARK: - Queries

    /// The level index for a zoom: rounded down and clamped to `minZoom…maxZoom + 1`.
    func limitZoom(_ zoom: Double) -> Int? {
        if zoom.isNaN { return nil }
        let f = zoom.rounded(.down)
        if f <= Double(options.minZoom) { return options.minZoom }
        if f >= Double(options.maxZoom + 1) { return options.maxZoom + 1 }
        return Int(f)
    }

    /// The points and clusters inside `bounds` at `zoom`, replacing the contents of `buffer` (no
    /// allocation once the buffer has grown to the largest result).
    ///
    /// The zoom is rounded down and clamped to `minZoom…maxZoom + 1`. Longitudes are wrapped
    /// into −180…180 (an east edge of exactly 180 is kept); a box whose wrapped west edge is
    /// east of its east edge is split at 180° (eastern part first); a box 360° or wider is the
    /// whole world. Latitudes are clamped to ±90.
    /// - Complexity: O(*r* log *n* + *k*) for *n* items at the zoom, *r* grid rows the box
    ///   touches (a few dozen for a screen) and *k* results.
    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        buffer.removeAll(keepingCapacity: true)
        forEachCluster(in: bounds, zoom: zoom) { buffer.append($0) }
    }

    /// Calls `body` for each point and cluster inside `bounds` at `zoom` (see
    /// `clusters(in:zoom:)`); allocation-free.
    public func forEachCluster(in bounds: GeoBounds, zoom: Double, _ body: (ClusterItem) -> Void) {
        guard let z = limitZoom(zoom) else { return }
        bounds.forEachQueryBox { w, s, e, n in
            rangeQuery(level: z, minLng: w, minLat: s, maxLng: e, maxLat: n, body)
        }
    }

    /// Calls `body` with the item reference of each child of cluster number `c`.
    @inline(__always) func forEachChild(ofCluster c: Int, _ body: (UInt32) -> Void) {
        for k in Int(table.childStart[c])..<Int(table.childStart[c + 1]) { body(table.childItems[k]) }
    }

    /// The items one zoom deeper that make up the cluster: the item it grew from, then the
    /// neighbours it took.
    /// - Complexity: O(*k*) for *k* children.
    public func children(of cluster: ClusterID) -> [ClusterItem] {
        guard let c = clusterNumber(for: cluster) else { return [] }
        var result: [ClusterItem] = []
        forEachChild(ofCluster: c) { result.append(makeItem($0)) }
        return result
    }

    /// Input indices of the cluster's points, walking its children depth-first like
    /// supercluster's `getLeaves`, after skipping `offset` of them and at most `limit`
    /// (all by default, as `PointClusterer.leaves(of:)` promises — supercluster's `getLeaves`
    /// defaults to 10, which made `leaves(of:)` mean two things depending on the static type).
    /// - Complexity: O(*k*) for *k* items visited.
    public func leaves(of cluster: ClusterID, limit: Int = .max, offset: Int = 0) -> [Int] {
        guard let c = clusterNumber(for: cluster), limit > 0 else { return [] }
        var result: [Int] = []
        _ = appendLeaves(&result, cluster: c, limit: limit, offset: max(0, offset), skipped: 0)
        return result
    }

    private func appendLeaves(_ result: inout [Int], cluster c: Int, limit: Int, offset: Int, skipped: Int) -> Int {
        var skipped = skipped
        var children: [UInt32] = []
        forEachChild(ofCluster: c) { children.append($0) }
        for ref in children {
            let r = Int(ref)
            if r >= inputCount {
                let count = Int(table.rows[r - inputCount].count)
                if skipped + count <= offset {
                    skipped += count
                } else {
                    skipped = appendLeaves(&result, cluster: r - inputCount, limit: limit, offset: offset,
                                           skipped: skipped)
                }
            } else if skipped < offset {
                skipped += 1
            } else {
                result.append(r)
            }
            if result.count == limit { break }
        }
        return skipped
    }

    /// The zoom at which the cluster first splits into more than one item: walks down while it
    /// has exactly one child, like supercluster's `getClusterExpansionZoom`. `maxZoom + 1` for
    /// points that share one spot.
    /// - Complexity: O(*z*) for *z* zoom levels walked.
    public func expansionZoom(of cluster: ClusterID) -> Int? {
        guard var c = clusterNumber(for: cluster) else { return nil }
        var expansionZoom = zoomOfCluster(c)
        while expansionZoom <= options.maxZoom {
            var childCount = 0
            var only: UInt32 = 0
            forEachChild(ofCluster: c) { ref in
                childCount += 1
                only = ref
            }
            expansionZoom += 1
            if childCount != 1 { break }
            let r = Int(only)
            guard r >= inputCount else { break }
            c = r - inputCount
        }
        return expansionZoom
    }

    /// The item a cluster id stands for, nil for an unknown id.
    public func item(for cluster: ClusterID) -> ClusterItem? {
        guard let c = clusterNumber(for: cluster) else { return nil }
        return makeItem(UInt32(inputCount + c))
    }

    /// Category counts and numeric summaries of an item's points.
    public func aggregates(of item: ClusterItem) -> ClusterAggregates {
        switch item.kind {
        case .point(let i):
            guard i >= 0 && i < inputCount else { return ClusterAggregates(count: 0) }
            return attributes.aggregates(ofPoint: i)
        case .cluster(let id):
            guard let c = clusterNumber(for: id) else { return ClusterAggregates(count: 0) }
            return aggregateTable.aggregates(ofRow: c, count: Int(table.rows[c].count), attributes: attributes)
        }
    }

    /// The number of items (points and clusters) at a zoom.
    public func itemCount(atZoom zoom: Int) -> Int {
        let z = min(max(zoom, options.minZoom), options.maxZoom + 1)
        return level(forZoom: z).count
    }
}

/// Pointers handed to worker threads that write disjoint ranges.
struct SendablePointer<T>: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<T>?
    init(_ p: UnsafeMutablePointer<T>?) { pointer = p }
}

struct SendableConstPointer<T>: @unchecked Sendable {
    let pointer: UnsafePointer<T>?
    init(_ p: UnsafePointer<T>?) { pointer = p }
}
