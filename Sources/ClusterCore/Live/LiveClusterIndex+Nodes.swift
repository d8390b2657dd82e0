/// Node state of a `LiveClusterIndex`: points and clusters behind one reference type, and which
/// levels each is on. A node is on levels `low + 1 … top` (a point's top is `maxZoom + 1`; a
/// cluster's is the zoom it was made at): it is carried down unchanged until it joins a cluster
/// at zoom `low`.
extension LiveClusterIndex {
    @inline(__always) static func isCluster(_ r: Ref) -> Bool { r & clusterFlag != 0 }
    @inline(__always) static func clusterNumber(_ r: Ref) -> Int { Int(r & ~clusterFlag) }
    @inline(__always) static func clusterRef(_ c: Int) -> Ref { UInt32(c) | clusterFlag }

    @inline(__always) func x(_ r: Ref) -> Double { Self.isCluster(r) ? cNode[Self.clusterNumber(r)].x : pNode[Int(r)].x }
    @inline(__always) func y(_ r: Ref) -> Double { Self.isCluster(r) ? cNode[Self.clusterNumber(r)].y : pNode[Int(r)].y }
    @inline(__always) func weight(_ r: Ref) -> Int { Self.isCluster(r) ? Int(cNode[Self.clusterNumber(r)].count) : 1 }
    @inline(__always) func alive(_ r: Ref) -> Bool { Self.isCluster(r) ? cNode[Self.clusterNumber(r)].alive : pNode[Int(r)].alive }
    @inline(__always) func low(_ r: Ref) -> Int { Int(Self.isCluster(r) ? cNode[Self.clusterNumber(r)].low : pNode[Int(r)].low) }
    @inline(__always) func parent(_ r: Ref) -> Int {
        Int(Self.isCluster(r) ? cNode[Self.clusterNumber(r)].parent : pNode[Int(r)].parent)
    }
    @inline(__always) func top(_ r: Ref) -> Int { Self.isCluster(r) ? Int(cNode[Self.clusterNumber(r)].top) : options.maxZoom + 1 }
    @inline(__always) func baseLow(_ r: Ref) -> Int {
        Int(Self.isCluster(r) ? cNode[Self.clusterNumber(r)].baseLow : pNode[Int(r)].baseLow)
    }

    @inline(__always) func setLow(_ r: Ref, _ z: Int, parent: Int) {
        if Self.isCluster(r) {
            cNode[Self.clusterNumber(r)].low = Int8(z); cNode[Self.clusterNumber(r)].parent = Int32(parent)
        } else {
            pNode[Int(r)].low = Int8(z); pNode[Int(r)].parent = Int32(parent)
        }
    }

    /// Whether the node is on level z now.
    @inline(__always) func isOnLevel(_ r: Ref, _ z: Int) -> Bool { alive(r) && low(r) < z && z <= top(r) }

    /// Whether the base's index of level z holds the node at its current position.
    @inline(__always) func baseHolds(_ r: Ref, _ z: Int) -> Bool { baseLow(r) < z && z <= top(r) }

    /// A base item reference as a node reference.
    @inline(__always) func ref(fromBase b: UInt32) -> Ref {
        let n = base.inputCount
        return Int(b) < n ? b : Self.clusterRef(Int(b) - n)
    }

    /// The level array index of zoom z.
    @inline(__always) func levelIndex(_ z: Int) -> Int { z - options.minZoom }

    /// What the searches on one level read: the base's index of that level and its block table,
    /// and the level's overlay. A repair takes it once per level, not once per search: reaching
    /// them through the index's stored arrays copies them out (the base `Level` alone holds six
    /// arrays), a dozen atomic retain/release pairs per search, and a repair makes tens of
    /// thousands of searches.
    ///
    /// The overlay is a snapshot: take the view after the last change to that level's overlay
    /// (a repair of zoom z searches level z+1 and changes only levels ≤ z).
    struct LevelView {
        let z: Int
        let base: HierarchicalClusterer.Level
        let blocks: LevelBlocks?
        let overlay: OverlayGrid
        /// The widest radius (plus margin) a repair uses on the levels sharing this base index.
        let bandReach: Double
    }

    /// The view of level z (see `LevelView`).
    func levelView(_ z: Int) -> LevelView {
        let l = levelIndex(z)
        return LevelView(z: z, base: base.levels[l], blocks: baseBlocks[l], overlay: overlay[l],
                         bandReach: radius(atZoom: bandBottom[l] + options.minZoom - 1) + Self.queryMargin)
    }

    /// Calls `body` with every node on level z whose position is inside the box (edges included).
    func forEachNode(onLevel z: Int, minX: Double, minY: Double, maxX: Double, maxY: Double, base useBase: Bool = true,
                     _ body: (Ref) -> Void) {
        forEachNode(on: levelView(z), minX: minX, minY: minY, maxX: maxX, maxY: maxY, base: useBase, near: nil, body)
    }

    /// `forEachNode` in the box, where base entries whose stored (Float) position is farther than
    /// `near.r` from `near.(x, y)` may be left out without reading their node state.
    private func forEachNode(on v: LevelView, minX: Double, minY: Double, maxX: Double, maxY: Double, base useBase: Bool,
                             near: (x: Double, y: Double, r: Double)?, _ body: (Ref) -> Void) {
        let z = v.z
        if useBase {
            forEachBaseNode(v.base, v.blocks, onLevel: z, minX: minX, minY: minY, maxX: maxX, maxY: maxY, near: near, body)
        }
        v.overlay.forEachCandidate(minX: minX, minY: minY, maxX: maxX, maxY: maxY) { r in
            guard isOnLevel(r, z) && !baseHolds(r, z) else { return }
            let rx = x(r), ry = y(r)
            if rx >= minX && rx <= maxX && ry >= minY && ry <= maxY { body(r) }
        }
    }

    /// `forEachNode` in the base's index only.
    private func forEachBaseNode(_ level: HierarchicalClusterer.Level, _ levelBlocks: LevelBlocks?,
                                 onLevel z: Int, minX: Double, minY: Double, maxX: Double, maxY: Double,
                                 near: (x: Double, y: Double, r: Double)?, _ body: (Ref) -> Void) {
        let l = level.level, n = UInt32(base.inputCount)
        let small = (maxY - minY) < 64 * level.index.cell
        // Stored positions are Float: within a few ulps (< queryMargin) of the node's own.
        let (qx, qy) = near.map { ($0.x, $0.y) } ?? (0, 0)
        let reach = near.map { ($0.r + Self.queryMargin) * ($0.r + Self.queryMargin) } ?? .infinity
        level.index.items.withUnsafeBufferPointer { items in
            level.index.x.withUnsafeBufferPointer { xs in
                level.index.y.withUnsafeBufferPointer { ys in
                    level.highest.withUnsafeBufferPointer { high in
                        level.lowest.withUnsafeBufferPointer { low in
                            // A level may share its band's index: the base's own level range of an entry
                            // rules out the others without touching their (scattered) node state; so
                            // does a stored position out of reach of a radius search's centre.
                            let banded = !high.isEmpty
                            let visit = { (p: Int) in
                                if banded && (high[p] < l || low[p] > l) { return }
                                let dx = Double(xs[p]) - qx, dy = Double(ys[p]) - qy
                                if dx * dx + dy * dy > reach { return }
                                let b = items[p]
                                let r = b < n ? b : Self.clusterRef(Int(b - n))
                                if self.isOnLevel(r, z) && self.baseHolds(r, z) { body(r) }
                            }
                            // Block starts help small boxes (neighbour searches); a tall box scans its rows anyway.
                            if small && levelBlocks != nil {
                                levelBlocks!.forEachInRange(level.index, minX: minX, minY: minY, maxX: maxX, maxY: maxY, visit)
                            } else {
                                level.index.forEachInRange(minX: minX, minY: minY, maxX: maxX, maxY: maxY, visit)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Whether the base's index of the view's level has no entry at all (on any level) near
    /// (qx, qy): within the largest radius a repair uses on the levels sharing that index. Then
    /// none of those levels needs a base search near there.
    func baseIsEmpty(near v: LevelView, _ qx: Double, _ qy: Double) -> Bool {
        let m = v.bandReach
        var empty = true
        if let blocks = v.blocks {
            blocks.forEachInRange(v.base.index, minX: qx - m, minY: qy - m, maxX: qx + m, maxY: qy + m) { _ in empty = false }
        } else {
            v.base.index.forEachInRange(minX: qx - m, minY: qy - m, maxX: qx + m, maxY: qy + m) { _ in empty = false }
        }
        return empty
    }

    /// How much a neighbour query widens its box: the base tests Float positions against it,
    /// so a few Float ulps at 1.0 (6e-8); no more, as at deep zooms the radius is about 1e-6.
    static let queryMargin = 2.5e-7

    /// Calls `body` with every node on the view's level within distance `r` of (qx, qy).
    func forEachNode(on v: LevelView, within r: Double, of qx: Double, _ qy: Double, base useBase: Bool = true,
                     _ body: (Ref) -> Void) {
        let r2 = r * r
        let m = r + Self.queryMargin
        forEachNode(on: v, minX: qx - m, minY: qy - m, maxX: qx + m, maxY: qy + m, base: useBase, near: (qx, qy, r)) { n in
            let dx = x(n) - qx, dy = y(n) - qy
            if dx * dx + dy * dy <= r2 { body(n) }
        }
    }

    /// Makes sure level z can find node `r` (when the base doesn't hold it there).
    func register(_ r: Ref, onLevel z: Int) {
        guard !baseHolds(r, z) else { return }
        overlay[levelIndex(z)].insert(r, x: x(r), y: y(r))
    }

    /// The children of cluster number c, as node references (a base cluster's in a new array
    /// with room for `room` more).
    func children(ofCluster c: Int, room: Int = 0) -> [Ref] {
        if !madeChildren[c].isEmpty { return madeChildren[c] }
        if c >= baseClusterCount { return [] }
        let t = base.table
        let range = Int(t.childStart[c])..<Int(t.childStart[c + 1])
        var kids: [Ref] = []
        kids.reserveCapacity(range.count + room)
        for k in range { kids.append(ref(fromBase: t.childItems[k])) }
        return kids
    }

    /// Calls `body` with each child of cluster number c in order, as `children(ofCluster:)` lists
    /// them, without building an array (a repair walks the children of thousands of clusters).
    @inline(__always) func forEachChild(ofCluster c: Int, _ body: (Ref) -> Void) {
        if !madeChildren[c].isEmpty {
            for k in madeChildren[c] { body(k) }
        } else if c < baseClusterCount {
            for k in Int(base.table.childStart[c])..<Int(base.table.childStart[c + 1]) { body(ref(fromBase: base.table.childItems[k])) }
        }
    }

    /// The first child of cluster number c (the item it grew from), or nil.
    func firstChild(ofCluster c: Int) -> Ref? {
        if !madeChildren[c].isEmpty { return madeChildren[c][0] }
        guard c < baseClusterCount, base.table.childStart[c] < base.table.childStart[c + 1] else { return nil }
        return ref(fromBase: base.table.childItems[Int(base.table.childStart[c])])
    }

    /// The public id of cluster number c.
    func clusterID(ofCluster c: Int) -> ClusterID {
        if c < baseClusterCount { return ClusterID(rawValue: base.clusterID(ofCluster: c).rawValue - base.inputCount + Self.idBase) }
        return ClusterID(rawValue: Self.madeBase + ((c - baseClusterCount + madeSerialOffset) << 5) + Int(cNode[c].top) + 1)
    }

    /// The base build's own id for one of its clusters' public ids, nil for other ids.
    func baseID(_ id: ClusterID) -> ClusterID? {
        id.rawValue >= Self.idBase && id.rawValue < Self.madeBase ? ClusterID(rawValue: id.rawValue - Self.idBase + base.inputCount) : nil
    }

    /// A base item with its public id.
    func fromBase(_ item: ClusterItem) -> ClusterItem {
        guard case .cluster(let id) = item.kind else { return item }
        var out = item
        out.kind = .cluster(ClusterID(rawValue: id.rawValue - base.inputCount + Self.idBase))
        return out
    }

    /// The live cluster number of an id, or nil.
    func clusterNumber(for id: ClusterID) -> Int? {
        if let b = baseID(id) {
            guard let c = base.clusterNumber(for: b) else { return nil }
            return !materialized || cNode[c].alive ? c : nil
        }
        let v = id.rawValue - Self.madeBase
        guard v >= 0 else { return nil }
        let c = (v >> 5) - madeSerialOffset + baseClusterCount
        guard c >= baseClusterCount, c < cNode.count, cNode[c].alive, Int(cNode[c].top) + 1 == v & 31 else { return nil }
        return c
    }

    /// The public item for a node.
    func makeItem(_ r: Ref) -> ClusterItem {
        if Self.isCluster(r) {
            let c = Self.clusterNumber(r)
            return ClusterItem(kind: .cluster(clusterID(ofCluster: c)), coordinate: WebMercator.unproject(x: cNode[c].x, y: cNode[c].y),
                               count: Int(cNode[c].count), aggregateSlot: Int32(truncatingIfNeeded: c))
        }
        return ClusterItem(kind: .point(Int(r)), coordinate: coordinates[Int(r)], count: 1)
    }
}
