/// `PointClusterer` queries of a `LiveClusterIndex`: they read the base build and the overlay
/// together, so they reflect every change at once.
extension LiveClusterIndex {
    /// The points and clusters inside `bounds` at `zoom` (rounded down and clamped to
    /// `minZoom…maxZoom + 1`), replacing the contents of `buffer`. Boxes crossing 180° are split;
    /// a box 360° or wider is the whole world.
    /// - Complexity: O(*r* log *n* + *k*) as the base's query, plus the overlay cells the box touches.
    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        guard materialized else {
            base.clusters(in: bounds, zoom: zoom, into: &buffer)
            for k in buffer.indices where buffer[k].isCluster { buffer[k] = fromBase(buffer[k]) }
            return
        }
        buffer.removeAll(keepingCapacity: true)
        guard let z = base.limitZoom(zoom) else { return }
        bounds.forEachQueryBox { w, s, e, n in
            forEachNode(onLevel: z, minX: WebMercator.x(longitude: w), minY: WebMercator.y(latitude: n),
                        maxX: WebMercator.x(longitude: e), maxY: WebMercator.y(latitude: s)) { r in
                buffer.append(makeItem(r))
            }
        }
    }

    /// The items one zoom deeper that make up the cluster: the item it grew from, then the
    /// neighbours it took (empty for an unknown id).
    public func children(of cluster: ClusterID) -> [ClusterItem] {
        guard materialized else { return baseID(cluster).map { base.children(of: $0).map(fromBase) } ?? [] }
        guard let c = clusterNumber(for: cluster) else { return [] }
        return children(ofCluster: c).map(makeItem)
    }

    /// Ids of the cluster's points, depth-first through its children, after skipping `offset`,
    /// at most `limit`.
    public func leaves(of cluster: ClusterID, limit: Int = .max, offset: Int = 0) -> [Int] {
        guard materialized else { return baseID(cluster).map { base.leaves(of: $0, limit: limit, offset: offset) } ?? [] }
        guard let c = clusterNumber(for: cluster), limit > 0 else { return [] }
        var result: [Int] = []
        var skipped = 0
        let offset = max(0, offset)
        func walk(_ c: Int) {
            for r in children(ofCluster: c) {
                if result.count == limit { return }
                if Self.isCluster(r) {
                    let k = Self.clusterNumber(r), n = Int(cNode[k].count)
                    if skipped + n <= offset { skipped += n } else { walk(k) }
                } else if skipped < offset {
                    skipped += 1
                } else {
                    result.append(Int(r))
                }
            }
        }
        walk(c)
        return result
    }

    /// The lowest zoom at which the cluster splits into more than one item (`maxZoom + 1` for
    /// points on one spot); nil for an unknown id.
    public func expansionZoom(of cluster: ClusterID) -> Int? {
        guard materialized else { return baseID(cluster).flatMap { base.expansionZoom(of: $0) } }
        guard var c = clusterNumber(for: cluster) else { return nil }
        var z = Int(cNode[c].top)
        while z <= options.maxZoom {
            let kids = children(ofCluster: c)
            z += 1
            guard kids.count == 1, Self.isCluster(kids[0]) else { break }
            c = Self.clusterNumber(kids[0])
        }
        return z
    }

    /// The item a cluster id stands for, nil for an unknown (or dissolved) id.
    public func item(for cluster: ClusterID) -> ClusterItem? {
        guard materialized else { return baseID(cluster).flatMap { base.item(for: $0) }.map(fromBase) }
        return clusterNumber(for: cluster).map { makeItem(Self.clusterRef($0)) }
    }

    /// Category counts and numeric summaries of an item's points.
    public func aggregates(of item: ClusterItem) -> ClusterAggregates {
        switch item.kind {
        case .point(let i):
            guard contains(i) else { return ClusterAggregates(count: 0) }
            return pointAggregates(i)
        case .cluster(let id):
            guard materialized else {
                return baseID(id).map { base.aggregates(of: ClusterItem(kind: .cluster($0), coordinate: item.coordinate, count: item.count)) }
                    ?? ClusterAggregates(count: 0)
            }
            guard let c = clusterNumber(for: id) else { return ClusterAggregates(count: 0) }
            return clusterAggregates(c)
        }
    }

    func pointAggregates(_ i: Int) -> ClusterAggregates {
        .single(category: categories.isEmpty ? -1 : categories[i], value: values.isEmpty ? .nan : values[i])
    }

    func clusterAggregates(_ c: Int) -> ClusterAggregates {
        if let a = madeAggregates[c] { return a }
        if c >= baseClusterCount { return ClusterAggregates(count: Int(cNode[c].count)) }
        return base.aggregateTable.aggregates(ofRow: c, count: Int(cNode[c].count), attributes: base.attributes)
    }

    /// Aggregates of a node (for building a new cluster's from its children).
    func nodeAggregates(_ r: Ref) -> ClusterAggregates {
        Self.isCluster(r) ? clusterAggregates(Self.clusterNumber(r)) : pointAggregates(Int(r))
    }

    /// The number of items (points and clusters) at a zoom.
    public func itemCount(atZoom zoom: Int) -> Int {
        guard materialized else { return base.itemCount(atZoom: zoom) }
        let z = min(max(zoom, options.minZoom), options.maxZoom + 1)
        var n = 0
        forEachNode(onLevel: z, minX: 0, minY: 0, maxX: 1, maxY: 1) { _ in n += 1 }
        return n
    }
}

extension ClusterAggregates {
    /// The aggregates of the union of two disjoint groups of points.
    func merged(with o: ClusterAggregates) -> ClusterAggregates {
        var byCategory: [Int32: Int] = [:]
        for c in categoryCounts { byCategory[c.category, default: 0] += c.count }
        for c in o.categoryCounts { byCategory[c.category, default: 0] += c.count }
        let counts = byCategory.map { CategoryCount(category: $0.key, count: $0.value) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.category < $1.category }
        let mins = [minimum, o.minimum].compactMap { $0 }, maxs = [maximum, o.maximum].compactMap { $0 }
        return ClusterAggregates(count: count + o.count, categoryCounts: counts, valueCount: valueCount + o.valueCount,
                                 minimum: mins.min(), maximum: maxs.max(), sum: sum + o.sum)
    }
}
