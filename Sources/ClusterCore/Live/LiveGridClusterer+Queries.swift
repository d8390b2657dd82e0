/// Queries of a `LiveGridClusterer`: the base build's items, except in the cells changes touched,
/// which are worked out from their points (in id order, as a build does).
extension LiveGridClusterer {
    /// The id of the cluster of cell `key` at zoom z.
    func clusterID(_ z: Int, _ key: UInt64) -> ClusterID { ClusterID(rawValue: Self.idBase + Int(key << 5) + z + 1) }

    /// The zoom and cell of a cluster id, nil when it is not one of this index's clusters now.
    func cell(of id: ClusterID) -> (zoom: Int, key: UInt64, members: [Int])? {
        let v = id.rawValue - Self.idBase
        guard v > 0 else { return nil }
        let z = (v & 31) - 1, key = UInt64(v >> 5)
        guard z >= minZoom && z <= maxZoom else { return nil }
        let m = clusterMembers(z, key)
        return m.count >= base.minCountForClustering ? (z, key, m) : nil
    }

    @inline(__always) func isDirty(_ z: Int, _ key: UInt64) -> Bool { dirty[z - minZoom][key] != nil }

    /// Every held point in the cell, ascending (cached for dirty cells until they change again).
    func members(_ z: Int, _ key: UInt64) -> [Int] {
        if let cached = dirty[z - minZoom][key], let m = cached { return m }
        let level = base.level(z)
        let cu = level.cellUnit, ix = Double(key % level.width), iy = Double(key / level.width)
        let top = base.level(maxZoom + 1).index
        var result: [Int] = []
        let margin = 2e-7  // the index keeps Float coordinates
        top.forEachInRange(minX: ix * cu - margin, minY: iy * cu - margin, maxX: (ix + 1) * cu + margin, maxY: (iy + 1) * cu + margin) { p in
            let i = Int(top.items[p])
            if alive[i] && !changed.contains(i) && cellKey(i, z) == key { result.append(i) }
        }
        result += (changedByCell[z - minZoom][key] ?? []).filter { alive[$0] }
        result.sort()
        if dirty[z - minZoom][key] != nil { dirty[z - minZoom][key] = .some(result) }
        return result
    }

    func clusterMembers(_ z: Int, _ key: UInt64) -> [Int] { members(z, key).filter { clusterable[$0] } }

    /// The cluster item of a cell's clusterable members (position as `GridClusterer` places it).
    func clusterItem(_ z: Int, _ key: UInt64, _ m: [Int]) -> ClusterItem {
        var sx = 0.0, sy = 0.0
        for i in m { sx += px[i]; sy += py[i] }
        let mx = sx / Double(m.count), my = sy / Double(m.count)
        let coordinate: GeoCoordinate
        switch options.position {
        case .average: coordinate = WebMercator.unproject(x: mx, y: my)
        case .cellCenter:
            let level = base.level(z)
            coordinate = WebMercator.unproject(x: (Double(key % level.width) + 0.5) * level.cellUnit,
                                               y: min(1, (Double(key / level.width) + 0.5) * level.cellUnit))
        case .nearestToAverage:
            var best = m[0], bestD = Double.infinity
            for i in m {
                let d = (px[i] - mx) * (px[i] - mx) + (py[i] - my) * (py[i] - my)
                if d < bestD { best = i; bestD = d }
            }
            coordinate = coordinates[best]
        case .first: coordinate = coordinates[m[0]]
        }
        return ClusterItem(kind: .cluster(clusterID(z, key)), coordinate: coordinate, count: m.count)
    }

    @inline(__always) func pointItem(_ i: Int) -> ClusterItem { ClusterItem(kind: .point(i), coordinate: coordinates[i], count: 1) }

    /// Like `clusters(in:zoom:)`, replacing the contents of `buffer`.
    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        buffer.removeAll(keepingCapacity: true)
        guard !zoom.isNaN else { return }
        let z = zoom <= Double(minZoom) ? minZoom : (zoom >= Double(maxZoom + 1) ? maxZoom + 1 : Int(zoom.rounded(.down)))
        let level = base.level(z)
        let index = level.index
        bounds.forEachQueryBox { west, south, east, north in
            let x0 = WebMercator.x(longitude: west), x1 = WebMercator.x(longitude: east)
            let y0 = WebMercator.y(latitude: north), y1 = WebMercator.y(latitude: south)
            func inBox(_ c: GeoCoordinate) -> Bool {
                let x = Double(Float(WebMercator.x(longitude: c.longitude))), y = Double(Float(WebMercator.y(latitude: c.latitude)))
                return x >= x0 && x <= x1 && y >= y0 && y <= y1
            }
            index.forEachInRange(minX: x0, minY: y0, maxX: x1, maxY: y1) { p in
                let r = Int(index.items[p])
                if r < base.inputCount {
                    guard alive[r] && !changed.contains(r) else { return }
                    if z <= maxZoom && clusterable[r] && isDirty(z, cellKey(r, z)) { return }
                    buffer.append(pointItem(r))
                } else {
                    let c = r - base.inputCount
                    let key = base.clusterKey[c]
                    guard !isDirty(z, key) else { return }
                    buffer.append(ClusterItem(kind: .cluster(clusterID(z, key)), coordinate: base.clusterCoordinate[c],
                                              count: Int(base.clusterCount[c])))
                }
            }
            if z <= maxZoom {
                for key in dirty[z - minZoom].keys {
                    let cu = level.cellUnit, ix = Double(key % level.width), iy = Double(key / level.width)
                    guard (ix + 1) * cu >= x0 && ix * cu <= x1 && (iy + 1) * cu >= y0 && iy * cu <= y1 else { continue }
                    let m = clusterMembers(z, key)
                    if m.count >= base.minCountForClustering {
                        let item = clusterItem(z, key, m)
                        if inBox(item.coordinate) { buffer.append(item) }
                    } else {
                        for i in m where inBox(coordinates[i]) { buffer.append(pointItem(i)) }
                    }
                }
            }
            // Changed points that stand alone whatever their cell holds.
            for i in changed where alive[i] && (z > maxZoom || !clusterable[i]) && inBox(coordinates[i]) {
                buffer.append(pointItem(i))
            }
        }
    }

    /// The items one zoom deeper holding the cluster's points (first appearance in id order).
    public func children(of cluster: ClusterID) -> [ClusterItem] {
        guard let (z, _, m) = cell(of: cluster) else { return [] }
        var seen = Set<Int>()
        var result: [ClusterItem] = []
        for i in m {
            let holder = holderItem(i, z + 1)
            if seen.insert(holder.featureID).inserted { result.append(holder) }
        }
        return result
    }

    /// The item holding point i at zoom z.
    func holderItem(_ i: Int, _ z: Int) -> ClusterItem {
        guard z <= maxZoom, clusterable[i] else { return pointItem(i) }
        let key = cellKey(i, z)
        let m = clusterMembers(z, key)
        return m.count >= base.minCountForClustering ? clusterItem(z, key, m) : pointItem(i)
    }

    /// The cluster's point ids, ascending, after skipping `offset`, at most `limit`.
    public func leaves(of cluster: ClusterID, limit: Int = .max, offset: Int = 0) -> [Int] {
        guard let (_, _, m) = cell(of: cluster), limit > 0 else { return [] }
        let start = min(max(0, offset), m.count)
        return Array(m[start..<min(m.count, start + min(limit, m.count))])
    }

    /// The first zoom at which the cluster's points are in more than one item.
    public func expansionZoom(of cluster: ClusterID) -> Int? {
        guard var (z, _, m) = cell(of: cluster) else { return nil }
        while z <= maxZoom {
            z += 1
            let holders = Set(m.map { holderItem($0, z).featureID })
            guard holders.count == 1, z <= maxZoom else { break }
            m = clusterMembers(z, cellKey(m[0], z))
        }
        return z
    }

    public func item(for cluster: ClusterID) -> ClusterItem? {
        cell(of: cluster).map { clusterItem($0.zoom, $0.key, $0.members) }
    }

    /// Aggregates are not tracked by the live grid (no categories or values are given to it):
    /// the count only.
    public func aggregates(of item: ClusterItem) -> ClusterAggregates { ClusterAggregates(count: item.count) }
}
