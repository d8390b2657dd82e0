import Foundation

/// A live index over some of the input points — a filter's passing set — that speaks input
/// indices, so a small filter change is shown at once as removals and additions repaired in
/// place (an interim state, issue 29), while the exact build of the new set is made.
///
/// Made without a second build: it adopts a one-group hierarchical `SubsetClusterer`'s own
/// build as the base of a `LiveClusterIndex` (whose point ids are the subset's positions) and
/// keeps the two id maps. Points added later get the live index's next ids.
///
/// After `apply(to:)` it holds exactly the target's points and keeps every rule of the live
/// index (`LiveClusterIndex`); it may group them differently than a fresh build would, so a
/// window shows it only until the exact build of the same points is ready.
///
/// Thread-safe: queries (the GTK thread drawing the interim) and changes (a filter worker) take
/// one lock, so a query waits at most one repair.
public final class LiveSubsetIndex: PointClusterer, @unchecked Sendable {
    /// Repair state, guarded by `lock`.
    private let live: LiveClusterIndex
    /// Input index of each live id.
    private var inputOf: [Int32]
    /// Live id of each input index (−1: not held).
    private var liveOf: [Int32]
    /// The input points held (valid or not): what `apply(to:)` diffs against.
    private var held: PointSelection
    private let lock = NSLock()

    public let inputCount: Int

    /// Adopts `subset` (a one-group hierarchical build of `points`' chosen points, aggregating
    /// `categories` and `values`, the arrays it was given); nil for grouped or grid builds.
    /// - Complexity: O(*n*), no build.
    public init?(adopting subset: SubsetClusterer, points: [GeoCoordinate], categories: [Int32] = [], values: [Double] = []) {
        guard let (members, built) = subset.oneHierarchicalGroup, subset.inputCount == points.count else { return nil }
        let n = points.count
        inputCount = n
        let m = members.count
        live = LiveClusterIndex(adopting: built, points: members.map { points[Int($0)] },
                                categories: categories.isEmpty ? [] : members.map { categories[Int($0)] },
                                values: values.isEmpty ? [] : members.map { values[Int($0)] })
        inputOf = members
        var liveOf = [Int32](repeating: -1, count: n)
        for k in 0..<m { liveOf[Int(members[k])] = Int32(k) }
        self.liveOf = liveOf
        held = PointSelection(count: n, indices: members.lazy.map { Int($0) })
    }

    /// Adopts the full build of a `LiveClusterIndex` that had no change since it was built (its
    /// `unchangedBuild`): the input points `holding` chooses (all by default; a removed place
    /// is held by no one) are held under their own ids, so the first filter after "no filter"
    /// is a change like any other. `categories` and `values` are the ones that index aggregates,
    /// by input index. Nil when the snapshot's points don't match its build.
    /// - Complexity: O(*n*), no build.
    public init?(adopting snapshot: LiveClusterIndex.UnchangedBuild, holding: PointSelection? = nil,
                 categories: [Int32] = [], values: [Double] = []) {
        let n = snapshot.coordinates.count
        guard snapshot.alive.count == n, snapshot.build.inputCount == n, holding.map({ $0.count == n }) ?? true,
              categories.isEmpty || categories.count == n, values.isEmpty || values.count == n else { return nil }
        var points = snapshot.coordinates
        var valid = 0
        for i in 0..<n {
            if !snapshot.alive[i] { points[i] = GeoCoordinate(latitude: .nan, longitude: .nan) }
            if points[i].isValid { valid += 1 }
        }
        // `LiveClusterIndex(adopting:)` requires a build of exactly these points.
        guard n - snapshot.build.skippedCount == valid else { return nil }
        inputCount = n
        live = LiveClusterIndex(adopting: snapshot.build, points: points, categories: categories, values: values)
        inputOf = (0..<Int32(n)).map { $0 }
        let held = holding ?? PointSelection(count: n, all: true)
        liveOf = holding == nil ? inputOf : (0..<n).map { held[$0] ? Int32($0) : -1 }
        self.held = held
    }

    /// The input points held now (chosen ones, valid coordinates or not).
    public var selection: PointSelection { lock.withLock { held } }

    /// How many points differ between the held ones and `target`, or nil when more than `limit`.
    /// - Complexity: O(*n*/64).
    public func changeCount(to target: PointSelection, limit: Int) -> Int? {
        lock.withLock {
            precondition(target.count == inputCount, "a selection of the same points")
            var changed = 0
            for k in held.words.indices {
                changed += (held.words[k] ^ target.words[k]).nonzeroBitCount
                if changed > limit { return nil }
            }
            return changed
        }
    }

    /// Makes the node state a change repairs, ahead of the first change (off the GTK thread).
    public func prepareForChanges() { lock.withLock { live.prepareForChanges() } }

    /// Makes the held points those of `target`: removes the ones it lacks and adds the new ones
    /// (with their `categories` and `values`, by input index, as at adoption), in one repaired
    /// batch. Returns how many were removed and added.
    @discardableResult
    public func apply(to target: PointSelection, points: [GeoCoordinate], categories: [Int32] = [],
                      values: [Double] = []) -> (removed: Int, added: Int) {
        lock.withLock {
            let (addedInput, removedInput) = target.difference(held)
            guard !addedInput.isEmpty || !removedInput.isEmpty else { return (0, 0) }
            var changes = PointChanges()
            changes.removals = removedInput.map { Int(liveOf[$0]) }
            changes.additions = addedInput.map { points[$0] }
            let cats = categories.isEmpty ? [] : addedInput.map { categories[$0] }
            let vals = values.isEmpty ? [] : addedInput.map { values[$0] }
            let result = live.apply(changes, categories: cats, values: vals)
            for i in removedInput { liveOf[i] = -1 }
            for (k, i) in addedInput.enumerated() {
                let id = result.addedIDs[k]
                liveOf[i] = Int32(id)
                if id >= inputOf.count { inputOf.append(contentsOf: repeatElement(-1, count: id + 1 - inputOf.count)) }
                inputOf[id] = Int32(i)
            }
            held = target
            return (removedInput.count, addedInput.count)
        }
    }


    /// Roughly what holding this index costs beyond the build it adopted (which its owner holds
    /// anyway): the id maps, the held selection and the live index's own state (`stateBytes`).
    public var heldBytes: Int {
        lock.withLock { inputOf.count * 4 + liveOf.count * 4 + held.words.count * 8 + live.stateBytes }
    }

    // MARK: - PointClusterer (input indices)

    public var skippedCount: Int { lock.withLock { inputCount - live.count } }
    public var minZoom: Int { live.minZoom }
    public var maxZoom: Int { live.maxZoom }

    @inline(__always) private func outer(_ item: ClusterItem) -> ClusterItem {
        guard case .point(let j) = item.kind else { return item }
        var out = item
        out.kind = .point(Int(inputOf[j]))
        return out
    }

    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        lock.withLock {
            live.clusters(in: bounds, zoom: zoom, into: &buffer)
            for k in buffer.indices { buffer[k] = outer(buffer[k]) }
        }
    }

    public func children(of cluster: ClusterID) -> [ClusterItem] {
        lock.withLock { live.children(of: cluster).map(outer) }
    }

    public func leaves(of cluster: ClusterID, limit: Int, offset: Int) -> [Int] {
        lock.withLock { live.leaves(of: cluster, limit: limit, offset: offset).map { Int(inputOf[$0]) } }
    }

    public func expansionZoom(of cluster: ClusterID) -> Int? { lock.withLock { live.expansionZoom(of: cluster) } }

    public func item(for cluster: ClusterID) -> ClusterItem? { lock.withLock { live.item(for: cluster) } }

    public func aggregates(of item: ClusterItem) -> ClusterAggregates {
        lock.withLock {
            switch item.kind {
            case .point(let i):
                guard i >= 0 && i < inputCount, liveOf[i] >= 0 else { return ClusterAggregates(count: 0) }
                return live.aggregates(of: ClusterItem(kind: .point(Int(liveOf[i])), coordinate: item.coordinate, count: 1))
            case .cluster:
                return live.aggregates(of: item)
            }
        }
    }
}

extension LiveClusterIndex {
    /// A full build of a live index and the points it was made from, taken while the index had
    /// no change since (`unchangedBuild`): immutable, so another thread may adopt it
    /// (`LiveSubsetIndex(adopting:)`) while the index itself goes on changing.
    public struct UnchangedBuild: @unchecked Sendable {
        /// The build (never changed after it was made: a change goes to the index's overlay).
        public let build: HierarchicalClusterer
        /// The points by id, and whether each id held one (removed ids are holes in the build).
        public let coordinates: [GeoCoordinate]
        public let alive: [Bool]
    }

    /// The last full build while nothing changed since (nil after a change, until a compaction).
    /// Call it where the index is changed (the GTK thread): O(1), the arrays are shared.
    public var unchangedBuild: UnchangedBuild? {
        guard !changedSinceBuild, pAlive.count == coordinates.count else { return nil }
        return UnchangedBuild(build: base, coordinates: coordinates, alive: pAlive)
    }
}

extension LiveClusterIndex {
    /// Roughly the bytes of the state a change repairs, beyond the base build: points, their
    /// inputs and node records, cluster records and children made by changes, and the base's
    /// block tables (one per band). The overlays' cells, empty until a change, are left out.
    public var stateBytes: Int {
        var bytes = coordinates.count * MemoryLayout<GeoCoordinate>.stride + pAlive.count
            + categories.count * 4 + values.count * 8
            + pNode.count * MemoryLayout<PointNode>.stride + cNode.count * MemoryLayout<ClusterNode>.stride
        bytes += madeChildren.reduce(madeChildren.count * 8) { $0 + $1.count * 4 }
        for l in baseBlocks.indices where l >= bandBottom.count || bandBottom[l] == l {
            bytes += (baseBlocks[l]?.start.count ?? 0) * 4
        }
        return bytes
    }
}
