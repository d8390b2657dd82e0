import Foundation

/// An unfiltered build recounted over the points that pass (`HierarchyRecount.recount`): the
/// build's clusters, each with its passing members' count, centroid and aggregates; a cluster
/// with no passing member is gone, one with a single passing member is that place. Ids are the
/// build's, point indices the input's.
///
/// A provisional frame, not an exact one: the clusters are where the unfiltered build grouped
/// the points, so they may differ from a fresh build of the passing points (a thinned cluster
/// the fresh build would have split or merged differently). Every query keeps the hierarchy's
/// own promises — counts add up to the passing points at every zoom, `leaves(of:)` are exactly
/// a cluster's passing members, children add up to their parent.
public final class RecountedClusters: PointClusterer, @unchecked Sendable {
    let counts: RecountCounts
    private var build: HierarchicalClusterer { counts.base.build }
    /// Aggregate inputs by input index (empty: none).
    private let categories: [Int32]
    private let values: [Double]
    /// Per cluster: the passing members with a value, their sum, minimum and maximum (empty: no values).
    private let valueRows: [ValueRow]
    /// Category counts are made when asked (a walk over the cluster's leaves), then kept.
    private let lock = NSLock()
    private var categoryCache: [Int: [CategoryCount]] = [:]

    init(counts: RecountCounts, categories: [Int32], values: [Double]) {
        let n = counts.base.build.inputCount
        precondition(categories.isEmpty || categories.count == n, "one category per point (or none)")
        precondition(values.isEmpty || values.count == n, "one value per point (or none)")
        self.counts = counts
        self.categories = categories
        self.values = values
        valueRows = values.isEmpty ? [] : Self.summaries(counts, values)
    }

    public var inputCount: Int { build.inputCount }
    public var skippedCount: Int { build.inputCount - counts.passingCount }
    public var minZoom: Int { build.minZoom }
    public var maxZoom: Int { build.maxZoom }
    /// How many valid points pass.
    public var passingCount: Int { counts.passingCount }

    @inline(__always) private func passes(_ i: Int) -> Bool { counts.passing?[i] ?? true }

    /// The recounted item for cluster number `c` (nil: no passing member).
    @inline(__always) private func item(ofCluster c: Int) -> ClusterItem? {
        let n = counts.rows[c].count
        if n == 0 { return nil }
        if n == 1 {
            let i = Int(counts.rows[c].member)
            return ClusterItem(kind: .point(i), coordinate: build.coordinates[i], count: 1)
        }
        let d = Double(n)
        return ClusterItem(kind: .cluster(build.clusterID(ofCluster: c)),
                           coordinate: WebMercator.unproject(x: counts.rows[c].x / d, y: counts.rows[c].y / d),
                           count: Int(n), aggregateSlot: Int32(truncatingIfNeeded: c))
    }

    /// The recounted item for a build item reference (nil: nothing passes).
    @inline(__always) private func item(ofRef ref: UInt32) -> ClusterItem? {
        let r = Int(ref)
        if r < build.inputCount {
            return passes(r) ? ClusterItem(kind: .point(r), coordinate: build.coordinates[r], count: 1) : nil
        }
        return item(ofCluster: r - build.inputCount)
    }

    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        buffer.removeAll(keepingCapacity: true)
        guard let z = build.limitZoom(zoom) else { return }
        // A recounted centroid lies within its members' hull, at most `reach` from where the build
        // put the cluster: the build is asked for a box that much wider, the centroids checked
        // against the boxes the query means (the same wrapping rules as the build's own query).
        var boxes: [(Double, Double, Double, Double)] = []
        bounds.forEachQueryBox { w, s, e, n in boxes.append((w, s, e, n)) }
        let reach = z > build.maxZoom ? 0 : 4 * build.options.radius / (build.options.extent * pow(2, Double(z)))
        let wider = Self.widened(bounds, by: reach)
        build.forEachCluster(in: wider, zoom: zoom) { raw in
            let recounted: ClusterItem?
            if let i = raw.pointIndex {
                recounted = passes(i) ? raw : nil
            } else {
                recounted = item(ofCluster: Int(raw.aggregateSlot))
            }
            guard let recounted else { return }
            let c = recounted.coordinate
            for (w, s, e, n) in boxes where c.longitude >= w && c.longitude <= e && c.latitude >= s && c.latitude <= n {
                buffer.append(recounted)
                return
            }
        }
    }

    /// `bounds` widened by `reach` in projected units on every side (the whole world at 360°).
    static func widened(_ bounds: GeoBounds, by reach: Double) -> GeoBounds {
        guard reach > 0 else { return bounds }
        if bounds.east - bounds.west + 2 * reach * 360 >= 360 {
            return GeoBounds(west: -180, south: -90, east: 180, north: 90)
        }
        let north = WebMercator.latitude(y: WebMercator.y(latitude: min(bounds.north, 90)) - reach)
        let south = WebMercator.latitude(y: WebMercator.y(latitude: max(bounds.south, -90)) + reach)
        return GeoBounds(west: bounds.west - reach * 360, south: bounds.south <= -WebMercator.maxLatitude ? -90 : south,
                         east: bounds.east + reach * 360, north: bounds.north >= WebMercator.maxLatitude ? 90 : north)
    }

    public func children(of cluster: ClusterID) -> [ClusterItem] {
        guard let c = build.clusterNumber(for: cluster), counts.rows[c].count >= 2 else { return [] }
        var result: [ClusterItem] = []
        build.forEachChild(ofCluster: c) { if let item = item(ofRef: $0) { result.append(item) } }
        return result
    }

    public func leaves(of cluster: ClusterID, limit: Int, offset: Int) -> [Int] {
        guard let c = build.clusterNumber(for: cluster), counts.rows[c].count >= 2, limit > 0 else { return [] }
        var skip = max(0, offset)
        var result: [Int] = []
        for i in build.leaves(of: cluster) where passes(i) {
            if skip > 0 { skip -= 1; continue }
            result.append(i)
            if result.count == limit { break }
        }
        return result
    }

    /// The zoom at which the cluster's passing members first show as more than one item: walks
    /// down while exactly one of its children has passing members (the build's rule, over the
    /// recounted children).
    public func expansionZoom(of cluster: ClusterID) -> Int? {
        guard var c = build.clusterNumber(for: cluster), counts.rows[c].count >= 2 else { return nil }
        var zoom = build.zoomOfCluster(c)
        while zoom <= build.maxZoom {
            var shown = 0
            var only: UInt32 = 0
            build.forEachChild(ofCluster: c) { ref in
                let r = Int(ref)
                if r < build.inputCount ? passes(r) : counts.rows[r - build.inputCount].count > 0 {
                    shown += 1
                    only = ref
                }
            }
            zoom += 1
            guard shown == 1, Int(only) >= build.inputCount, counts.rows[Int(only) - build.inputCount].count >= 2 else { break }
            c = Int(only) - build.inputCount
            // The one child may stand on several zooms (carried down unmerged): its own split is below its zoom.
            zoom = build.zoomOfCluster(c)
        }
        return zoom
    }

    /// The recounted cluster (nil for an unknown id or one with fewer than two passing members).
    public func item(for cluster: ClusterID) -> ClusterItem? {
        guard let c = build.clusterNumber(for: cluster), counts.rows[c].count >= 2 else { return nil }
        return item(ofCluster: c)
    }

    public func aggregates(of item: ClusterItem) -> ClusterAggregates {
        switch item.kind {
        case .point(let i):
            guard i >= 0 && i < inputCount, passes(i) else { return ClusterAggregates(count: 0) }
            return .single(category: categories.isEmpty ? -1 : categories[i], value: values.isEmpty ? .nan : values[i])
        case .cluster(let id):
            guard let c = build.clusterNumber(for: id), counts.rows[c].count >= 2 else { return ClusterAggregates(count: 0) }
            var a = ClusterAggregates(count: Int(counts.rows[c].count))
            if !valueRows.isEmpty, valueRows[c].count > 0 {
                let v = valueRows[c]
                a.valueCount = Int(v.count)
                a.sum = v.sum
                a.minimum = v.low
                a.maximum = v.high
            }
            if !categories.isEmpty { a.categoryCounts = categoryCounts(ofCluster: c, id: id) }
            return a
        }
    }

    /// The passing members' categories, most frequent first (ties: lower first); made once per cluster.
    private func categoryCounts(ofCluster c: Int, id: ClusterID) -> [CategoryCount] {
        if let known = lock.withLock({ categoryCache[c] }) { return known }
        var tally: [Int32: Int] = [:]
        for i in build.leaves(of: id) where passes(i) && categories[i] >= 0 { tally[categories[i], default: 0] += 1 }
        let made = tally.map { CategoryCount(category: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
        lock.withLock { categoryCache[c] = made }
        return made
    }
}
