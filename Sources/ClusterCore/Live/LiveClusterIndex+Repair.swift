/// Applying changes to a `LiveClusterIndex`: the points change on the deepest level, then each
/// zoom from `maxZoom` down repairs what the level above changed.
///
/// At zoom z, with the items of level z+1 that changed (`gone`: left the level or moved;
/// `fresh`: arrived or moved; `shifted`: clusters that stayed but moved or recounted in place):
/// 1. A cluster of zoom z that lost a child or holds a shifted one keeps its id and is updated in
///    place (new weighted mean and count) while it still makes a cluster by the rules: at least
///    two children and `minPoints` points within the radius of its origin (the first child still
///    on the level: a cluster whose origin left takes its next child as origin), and (if the
///    origin moved or changed) no other cluster's origin within the radius of it; a child that
///    drifted out of the radius leaves it and is *free*. Otherwise it is dissolved and its other
///    children are free. A shifted item carried to zoom z is free when
///    it now lies within the radius of another standing item (see 3).
/// 2. Free also: fresh items, and unclustered items within the radius of any free item. At the
///    deepest zoom, clusters with a member within the radius of a fresh point are dissolved too
///    (points on one spot must end up together).
/// 3. The free items are clustered in id order (clusters after points). An item with an
///    untouched cluster's origin within the radius joins that cluster (updated in place): that
///    origin could have absorbed it, and two bubbles must not stand where a fresh build shows one.
///    Else it takes every free neighbour within the radius when together they hold at least
///    `minPoints` points, or it is carried.
/// The rule kept, as a fresh build's (SPEC §3.4): at each zoom the items of the level above that
/// stand for themselves (origins of clusters, carried items) lie farther apart than the radius,
/// and every other one lies within the radius of its cluster's origin.
/// What changed on level z is what zoom z−1 repairs. A change usually reaches each zoom as one
/// cluster updated in place, so the work follows the changes, not the size of the index.
extension LiveClusterIndex {

    /// Applies a batch of changes: removals, then moves, then additions (optionally with a
    /// category and value each, one per addition, or none).
    /// - Complexity: proportional to the items near the changes at every zoom.
    @discardableResult
    public func apply(_ changes: PointChanges, categories addedCategories: [Int32] = [],
                      values addedValues: [Double] = []) -> PointChangeResult {
        var result = PointChangeResult()
        if !changes.isEmpty { materialize() }
        var repair = Repair()
        swap(&repair, &spareRepair)
        defer { repair.removeAll(); swap(&repair, &spareRepair) }
        let top = options.maxZoom + 1
        for id in changes.removals where contains(id) {
            repair.record(Ref(id), low: low(Ref(id)), parent: parent(Ref(id)))
            pAlive[id] = false
            pNode[id].alive = false
            count -= 1
            repair.gone.insert(Ref(id))
            result.removed += 1
        }
        for (id, to) in changes.moves where contains(id) && to.isValid {
            let r = Ref(id)
            repair.record(r, low: low(r), parent: parent(r))
            for z in options.minZoom...top { overlay[levelIndex(z)].remove(r, x: pNode[id].x, y: pNode[id].y) }
            setPosition(id, to)
            pNode[id].baseLow = Self.notInBase
            register(r, onLevel: top)
            repair.gone.insert(r)
            repair.fresh.insert(r)
            result.moved += 1
        }
        for (k, c) in changes.additions.enumerated() {
            let id = coordinates.count
            coordinates.append(c)
            pAlive.append(c.isValid)
            pNode.append(PointNode(x: 0, y: 0, low: Int8(options.minZoom - 1), baseLow: Self.notInBase, alive: c.isValid))
            if !categories.isEmpty || !addedCategories.isEmpty {
                if categories.isEmpty { categories = [Int32](repeating: -1, count: id) }
                categories.append(k < addedCategories.count ? addedCategories[k] : -1)
            }
            if !values.isEmpty || !addedValues.isEmpty {
                if values.isEmpty { values = [Double](repeating: .nan, count: id) }
                values.append(k < addedValues.count ? addedValues[k] : .nan)
            }
            result.addedIDs.append(id)
            guard c.isValid else { continue }
            setPosition(id, c)
            count += 1
            register(Ref(id), onLevel: top)
            repair.created.insert(Ref(id))
            repair.fresh.insert(Ref(id))
        }
        // Ids given to invalid coordinates change no cluster, but a compaction's snapshot no longer fits.
        if !changes.additions.isEmpty { changeGeneration &+= 1 }
        if !repair.gone.isEmpty || !repair.fresh.isEmpty {
            changedSinceBuild = true
            changeGeneration &+= 1
            for z in stride(from: options.maxZoom, through: options.minZoom, by: -1) { repairLevel(z, &repair) }
        }
        return result
    }

    /// Sets a point's coordinate and its projection (Float-rounded, as the base's).
    private func setPosition(_ id: Int, _ c: GeoCoordinate) {
        coordinates[id] = c
        pNode[id].x = Double(Float(WebMercator.x(longitude: c.longitude)))
        pNode[id].y = Double(Float(WebMercator.y(latitude: c.latitude)))
    }

    /// Whether node r was on level z before this batch. (Inlined: as a call, the batch's
    /// `Repair` was copied for each of its ~20,000 calls.)
    @inline(__always) private func wasOnLevel(_ r: Ref, _ z: Int, _ repair: Repair) -> Bool {
        if repair.created.contains(r) { return false }
        let l = repair.old(r)?.low ?? low(r)
        return l < z && z <= top(r)
    }

    /// Whether a search on the view's level around node f can leave out the base: f is a point (its
    /// position stays put during a repair) and the base's index of that level has no entry near it
    /// within the largest radius searched on the levels sharing that index. A fresh point is
    /// searched around at every deep zoom, where the levels share one index and it finds
    /// nothing: one check then saves the searches of the whole band.
    private func skipsBase(_ f: Ref, on v: LevelView, _ repair: inout Repair) -> Bool {
        guard !Self.isCluster(f) else { return false }
        let l = levelIndex(v.z), bottom = bandBottom[l]
        if repair.clearBand != bottom {
            guard bottom < l else { return false }  // one level: the check costs what it saves
            repair.clearBand = bottom
            repair.clearOfBase.removeAll()
            repair.probedBase.removeAll()
        }
        if repair.clearOfBase.contains(f) { return true }
        guard repair.probedBase.insert(f), baseIsEmpty(near: v, pNode[Int(f)].x, pNode[Int(f)].y) else { return false }
        repair.clearOfBase.insert(f)
        return true
    }

    private func repairLevel(_ z: Int, _ repair: inout Repair) {
        // This level's sets and lists: the batch's, kept from level to level (emptied, not regrown).
        var w = LevelScratch()
        swap(&w, &repair.scratch)
        defer { w.clear(); swap(&w, &repair.scratch) }
        repairLevel(z, &repair, &w)
    }

    /// `repairLevel` with its scratch as an `inout` parameter: the nested functions and closures
    /// below capture it, and a captured local `var` is boxed and checked for exclusive access at
    /// run time on every use (swift_beginAccess/endAccess: 15 % of a batch's instructions), where
    /// an `inout` parameter is checked at compile time.
    private func repairLevel(_ z: Int, _ repair: inout Repair, _ w: inout LevelScratch) {
        let r = radius(atZoom: z)
        // The level searched (repairing zoom z changes only levels z and below).
        let above = levelView(z + 1)

        func addFree(_ n: Ref) {
            guard w.isFree.insert(n) else { return }
            repair.record(n, low: low(n), parent: parent(n))
            w.free.append(n)
        }
        func touch(_ c: Int) {
            if cNode[c].alive && w.isTouched.insert(UInt32(c)) { w.touched.append(c) }
        }
        func dissolve(_ c: Int) {
            guard cNode[c].alive else { return }
            let ref = Self.clusterRef(c)
            repair.record(ref, low: low(ref), parent: parent(ref))
            cNode[c].alive = false
            if wasOnLevel(ref, z, repair) { w.goneNext.insert(ref) }
            forEachChild(ofCluster: c) { child in
                if isOnLevel(child, z + 1) && !repair.gone.contains(child) { addFree(child) }
            }
        }

        // 1. Gone items: the cluster they were in at this zoom loses them, or the news goes down.
        for g in repair.gone.members {
            let o = repair.old(g) ?? OldState(low: low(g), parent: parent(g))
            if o.low == z && o.parent >= 0 { touch(o.parent) } else if o.low < z { w.goneNext.insert(g) }
        }
        // Shifted items: their cluster follows them; carried ones must keep their distance.
        for s in repair.shifted.members where isOnLevel(s, z + 1) {
            if low(s) == z, parent(s) >= 0 {
                touch(parent(s))
            } else if low(s) < z {
                // Near another standing item (carried, or a cluster's origin) it is free: it then
                // joins that cluster or groups with the carried ones.
                var near = false
                let skip = skipsBase(s, on: above, &repair)
                forEachNode(on: above, within: r, of: x(s), y(s), base: !skip) { n in if n != s && stands(n, z) { near = true } }
                if near { addFree(s) } else { w.shiftedNext.insert(s); register(s, onLevel: z) }
            }
        }
        // Touched clusters keep their remaining children when the rules still hold; else dissolve.
        // One whose origin moved must also keep its distance from the other standing items: a
        // carried one next to it is freed (it joins it below), another cluster's origin next to it
        // dissolves it (its children then join that cluster or group again).
        for c in w.touched {
            var newOrigin = false
            guard updateInPlace(c, zoom: z, radius: r, gone: repair.gone, far: &w.far, newOrigin: &newOrigin) else {
                dissolve(c)
                continue
            }
            // Children that drifted out of the radius leave it, free; the rest stays (dissolving
            // it freed every child, and their searches were most of a big batch's repair).
            for k in w.far { addFree(k) }
            guard let o = firstChild(ofCluster: c), newOrigin || repair.shifted.contains(o) else { continue }
            var crowded = false
            let skip = skipsBase(o, on: above, &repair)
            forEachNode(on: above, within: r, of: x(o), y(o), base: !skip) { n in
                guard n != o else { return }
                if low(n) < z { addFree(n) } else if low(n) == z && parent(n) != c && stands(n, z) { crowded = true }
            }
            if crowded { dissolve(c) }
        }
        for c in w.touched where cNode[c].alive { w.shiftedNext.insert(Self.clusterRef(c)) }
        // Clusters of the deepest zoom with a member next to a new or moved point: that point might
        // have joined them, and must when it shares a member's spot (same-spot points never split).
        // Deeper down, same-spot points already travel inside one item.
        for f in repair.fresh.members where z == options.maxZoom && isOnLevel(f, z + 1) {
            let skip = skipsBase(f, on: above, &repair)
            forEachNode(on: above, within: r, of: x(f), y(f), base: !skip) { n in
                if n != f && low(n) == z, parent(n) >= 0, !w.isFree.contains(n) { dissolve(parent(n)) }
            }
        }
        // 2. Free: fresh items, the dissolved clusters' other children, unclustered neighbours.
        for f in repair.fresh.members where isOnLevel(f, z + 1) { addFree(f) }
        // Each free item's neighbours on level z+1 (kept for the clustering step: one query each).
        var k = 0
        while k < w.free.count {
            let f = w.free[k]
            k += 1
            let start = w.found.count
            let skip = skipsBase(f, on: above, &repair)
            forEachNode(on: above, within: r, of: x(f), y(f), base: !skip) { n in
                guard n != f else { return }
                w.found.append(n)
                if low(n) < z { addFree(n) }  // on level z too: unclustered at this zoom
            }
            w.lists.append((start, w.found.count))
        }
        // 3. Greedy clustering of the free items, in id order. An item with no free neighbour
        // joins a cluster whose origin is within the radius, if there is one (the cluster then
        // changes in place), else it is carried.
        for (k, f) in w.free.enumerated() { w.order.append(UInt64(f) << 32 | UInt64(k)) }
        w.order.sort()
        for key in w.order where !w.visited.contains(Ref(key >> 32)) {
            let i = Ref(key >> 32), q = Int(key & 0xFFFF_FFFF)
            w.visited.insert(i)
            w.neighbours.removeAll(keepingCapacity: true)
            var numPoints = weight(i)
            var host = -1, hostDistance = Double.infinity
            for n in w.found[w.lists[q].start..<w.lists[q].end] {
                if w.isFree.contains(n) {
                    if !w.visited.contains(n) { w.neighbours.append(n); numPoints += weight(n) }
                } else if low(n) == z, parent(n) >= 0, cNode[parent(n)].alive, isOrigin(n, of: parent(n)) {
                    let dx = x(n) - x(i), dy = y(n) - y(i), d = dx * dx + dy * dy
                    if d < hostDistance || (d == hostDistance && parent(n) < host) { host = parent(n); hostDistance = d }
                }
            }
            let wasHere = wasOnLevel(i, z, repair) && !repair.fresh.contains(i)
            if host >= 0 {
                // An untouched cluster's origin within the radius could have absorbed it (and would
                // have, visited first): it joins that cluster rather than standing beside it, even
                // when it has free neighbours of its own (SPEC §3.4: the repair takes in the
                // neighbours a freed item could join).
                if wasOnLevel(i, z, repair) { w.goneNext.insert(i) }
                if madeChildren[host].isEmpty { madeChildren[host] = children(ofCluster: host, room: 1) }
                madeChildren[host].append(i)
                setLow(i, z, parent: host)
                w.joined.append(host)
            } else if !w.neighbours.isEmpty && numPoints >= options.minPoints {
                w.neighbours.sort()
                let c = makeCluster(origin: i, neighbours: w.neighbours, numPoints: numPoints, zoom: z)
                func leaves(_ m: Ref) {
                    w.visited.insert(m)
                    if wasOnLevel(m, z, repair) { w.goneNext.insert(m) }
                }
                leaves(i)
                for m in w.neighbours { leaves(m) }
                repair.created.insert(Self.clusterRef(c))
                w.freshNext.insert(Self.clusterRef(c))
            } else if !wasHere {
                // Carried to this zoom unchanged; where it goes below is decided there if it is new here.
                setLow(i, options.minZoom - 1, parent: -1)
                w.freshNext.insert(i)
                register(i, onLevel: z)
            } else {
                if repair.shifted.contains(i) { w.shiftedNext.insert(i) }
                register(i, onLevel: z)
            }
        }
        for c in w.joined {
            placeCluster(c, zoom: z)
            if !repair.created.contains(Self.clusterRef(c)) { w.shiftedNext.insert(Self.clusterRef(c)) }
        }
        // What changed here is what the level below repairs; the old sets become next level's scratch.
        swap(&repair.gone, &w.goneNext)
        swap(&repair.fresh, &w.freshNext)
        repair.shifted.removeAll()
        for s in w.shiftedNext.members where !repair.gone.contains(s) { repair.shifted.insert(s) }
    }

    /// Whether node n (on level z+1) stands for itself at zoom z: carried there unchanged, or the
    /// origin of a cluster of zoom z. Two standing items never lie within the radius of each other
    /// (an origin takes every free item within it), as in a fresh build.
    @inline(__always) private func stands(_ n: Ref, _ z: Int) -> Bool {
        let l = low(n)
        if l < z { return true }
        guard l == z else { return false }
        let p = parent(n)
        return p >= 0 && cNode[p].alive && isOrigin(n, of: p)
    }

    /// Whether node n is the item cluster c grew from (its first child).
    private func isOrigin(_ n: Ref, of c: Int) -> Bool { firstChild(ofCluster: c) == n }

    /// Keeps cluster c (of zoom z) with its children still on level z+1 and within the radius of
    /// its origin, if they still make a cluster by the rules: at least two such children and
    /// `minPoints` points. Then it moves to their new weighted mean, and the children farther
    /// than the radius (shifted ones that drifted) are listed in `far`, to be freed. When its
    /// origin left the level (removed, or a child cluster dissolved), its first remaining child
    /// becomes the origin (`newOrigin`; the caller then checks that it keeps its distance from
    /// the other standing items, as for an origin that moved): dissolving it instead freed its
    /// children and then, level after level, the clusters it was the origin of — most of a big
    /// batch's repair. Returns whether it was kept.
    private func updateInPlace(_ c: Int, zoom z: Int, radius r: Double, gone: borrowing RefSet, far: inout [Ref],
                               newOrigin: inout Bool) -> Bool {
        far.removeAll(keepingCapacity: true)
        var originRef: Ref?
        forEachChild(ofCluster: c) { k in
            if originRef == nil && !gone.contains(k) && isOnLevel(k, z + 1) { originRef = k }
        }
        guard let origin = originRef else { return false }
        newOrigin = origin != firstChild(ofCluster: c)
        let ox = x(origin), oy = y(origin), r2 = r * r
        var points = 0, kept = 0, all = 0
        forEachChild(ofCluster: c) { k in
            all += 1
            guard !gone.contains(k) && isOnLevel(k, z + 1) else { return }
            let dx = x(k) - ox, dy = y(k) - oy
            if dx * dx + dy * dy > r2 { far.append(k); return }
            kept += 1
            points += weight(k)
        }
        guard kept >= 2, points >= options.minPoints else {
            far.removeAll(keepingCapacity: true)
            return false
        }
        if kept < all {
            var kids: [Ref] = []
            kids.reserveCapacity(kept + 1)
            forEachChild(ofCluster: c) { k in
                guard !gone.contains(k) && isOnLevel(k, z + 1) else { return }
                let dx = x(k) - ox, dy = y(k) - oy
                if dx * dx + dy * dy <= r2 { kids.append(k) }
            }
            madeChildren[c] = kids
        }
        placeCluster(c, zoom: z)
        return true
    }

    /// Moves cluster c (of zoom z) to its children's weighted mean and recounts it, in place:
    /// same id; the base no longer holds it, the overlays of its levels do.
    private func placeCluster(_ c: Int, zoom z: Int) {
        let ref = Self.clusterRef(c)
        var wx = 0.0, wy = 0.0, points = 0
        forEachChild(ofCluster: c) { k in
            let w = weight(k)
            wx += x(k) * Double(w)
            wy += y(k) * Double(w)
            points += w
        }
        if cNode[c].baseLow == Self.notInBase {
            for l in max(low(ref) + 1, options.minZoom)...z { overlay[levelIndex(l)].remove(ref, x: cNode[c].x, y: cNode[c].y) }
        }
        cNode[c].baseLow = Self.notInBase
        cNode[c].x = wx / Double(points)
        cNode[c].y = wy / Double(points)
        cNode[c].count = UInt32(points)
        if hasAttributes {
            var agg: ClusterAggregates?
            forEachChild(ofCluster: c) { k in agg = agg.map { $0.merged(with: nodeAggregates(k)) } ?? nodeAggregates(k) }
            madeAggregates[c] = agg
        }
        register(ref, onLevel: z)
    }

    /// Makes a cluster at zoom z from an origin and the neighbours it takes; returns its number.
    private func makeCluster(origin i: Ref, neighbours: [Ref], numPoints: Int, zoom z: Int) -> Int {
        let c = cNode.count
        var wx = x(i) * Double(weight(i)), wy = y(i) * Double(weight(i))
        for n in neighbours {
            wx += x(n) * Double(weight(n))
            wy += y(n) * Double(weight(n))
        }
        cNode.append(ClusterNode(x: wx / Double(numPoints), y: wy / Double(numPoints), count: UInt32(numPoints), top: Int8(z),
                                 low: Int8(options.minZoom - 1), baseLow: Self.notInBase))
        var kids: [Ref] = []
        kids.reserveCapacity(neighbours.count + 1)
        kids.append(i)
        kids.append(contentsOf: neighbours)
        madeChildren.append(kids)
        if hasAttributes {
            var agg = nodeAggregates(i)
            for n in neighbours { agg = agg.merged(with: nodeAggregates(n)) }
            madeAggregates[c] = agg
        }
        for m in kids { setLow(m, z, parent: c) }
        register(Self.clusterRef(c), onLevel: z)
        return c
    }
}
