import Foundation

/// Clusters of only some of the input points — a filter's selection — optionally kept apart by
/// group ("cluster by" a category: each group is clustered on its own, so no bubble mixes two).
///
/// Exact by construction: each group's index is a fresh build of exactly that group's chosen
/// points (in input order), so its clusters are those of a fresh build of the passing points.
/// The build costs what a build of the chosen points costs (plus a pass over the selection's
/// words), not what the whole input costs; groups build in parallel.
///
/// Queries speak the input's indices: a point item's index, `leaves(of:)` and aggregates are
/// those of the whole input. Cluster ids are `inputCount + (group << 40) + inner`, where
/// `inner` is the group index's own id less its point count: apart from every point index and
/// unique across groups.
public final class SubsetClusterer: PointClusterer, @unchecked Sendable {
    /// One group's points and index.
    struct Group {
        /// Input indices of the group's chosen points, ascending (the inner index's points).
        let members: [Int32]
        let index: any PointClusterer
    }

    public let inputCount: Int
    public let minZoom: Int
    public let maxZoom: Int
    /// Input points that are not in any group's index (not chosen, or invalid coordinates).
    public let skippedCount: Int
    /// The group number of each group (the `groups` value its points carry), in group order.
    public let groupValues: [Int32]
    let groups: [Group]
    /// For each input point: its group's position in `groups` (−1: not chosen); empty with
    /// one group, whose points are those of `chosen` (all when nil).
    let groupOfPoint: [Int32]
    let chosen: PointSelection?

    static let groupShift = 40
    /// A group uses the prepared points when it has at least 1/`preparedShare` of all the points.
    static let preparedShare = 16

    /// Indexes the chosen points of `points` (all when `selection` is nil), one index per
    /// distinct value of `groups` (empty: one group); `categories` and `values` (empty or one
    /// per input point) are aggregated into clusters as by the plain clusterers. `prepared`
    /// (made once from these same `points`) lets hierarchical builds skip projecting the points
    /// and sorting their first band (groups of at least 1/16 of the points: smaller ones build
    /// faster from their own points); it changes no result.
    /// - Complexity: a build of the chosen points, plus O(*n*/64) for the selection.
    public init(points: [GeoCoordinate], selection: PointSelection? = nil, groups groupOfInput: [Int32] = [],
                categories: [Int32] = [], values: [Double] = [], method: ClusteringMethod,
                prepared: PreparedPoints? = nil) {
        precondition(selection == nil || selection!.count == points.count, "one selection bit per point")
        precondition(groupOfInput.isEmpty || groupOfInput.count == points.count, "one group per point (or none)")
        precondition(prepared == nil || prepared!.count == points.count, "prepared from these points")
        let n = points.count
        inputCount = n
        buildTrace("subset start")
        let sortedMembers: [[Int32]]
        if groupOfInput.isEmpty {
            // One group: its members are the chosen indices; a point's group is its selection bit.
            sortedMembers = [Self.chosenMembers(selection, count: n)]
            groupValues = [0]
            groupOfPoint = []
            chosen = selection
        } else {
            (sortedMembers, groupValues, groupOfPoint) = Self.members(of: groupOfInput, selection: selection)
            chosen = nil
        }
        buildTrace("subset members")

        // Build each group's index (in parallel: the largest first).
        let built = BuiltIndexes(count: sortedMembers.count)
        let byCost = sortedMembers.indices.sorted { sortedMembers[$0].count > sortedMembers[$1].count }
        let oneGroup = groupOfInput.isEmpty
        DispatchQueue.concurrentPerform(iterations: byCost.count) { k in
            let g = byCost[k]
            let m = sortedMembers[g]
            let sub = Self.gather(points, at: m)
            let cats = Self.gather(categories, at: m)
            let vals = Self.gather(values, at: m)
            buildTrace("subset gathered")
            // The grid's per-point predicate speaks input indices: translate the group's own.
            var groupMethod = method
            if case .grid(var o) = method, let shouldCluster = o.shouldCluster {
                o.shouldCluster = { j in shouldCluster(Int(m[j])) }
                groupMethod = .grid(o)
            }
            var subset: LevelBuilder.PreparedSubset? = nil
            // Reading the prepared points costs a pass over all of them: worth it for big groups only.
            if let prepared, case .hierarchical(let o) = method, prepared.serves(o), m.count >= n / Self.preparedShare {
                subset = LevelBuilder.PreparedSubset(points: prepared,
                                                     chosen: oneGroup ? selection?.words : Self.words(of: m, count: n))
            }
            let index = groupMethod.build(points: sub, categories: cats, values: vals, prepared: subset)
            built.set(g, index)
        }
        groups = zip(sortedMembers, built.indexes).map { Group(members: $0, index: $1!) }
        buildTrace("subset built")
        let sample = groups.first?.index ?? method.build(points: [])
        minZoom = sample.minZoom
        maxZoom = sample.maxZoom
        skippedCount = n - groups.reduce(0) { $0 + $1.index.inputCount - $1.index.skippedCount }
    }

    /// Members per group (input indices, ascending), groups in ascending group value, and each
    /// input point's group position (−1: not chosen).
    private static func members(of groupOfInput: [Int32], selection: PointSelection?)
        -> (members: [[Int32]], values: [Int32], groupOf: [Int32]) {
        let n = groupOfInput.count
        var position: [Int32: Int] = [:]
        // Group values −1…4094 (category codes) are looked up in an array, not hashed: this
        // loop runs once per chosen point.
        var smallPosition = [Int](repeating: -1, count: 4096)
        var values: [Int32] = []
        var members: [[Int32]] = []
        var groupOf = [Int32](repeating: -1, count: n)
        func add(_ i: Int) {
            let g = groupOfInput[i]
            let p: Int
            let isSmall = g >= -1 && g < 4095
            if isSmall && smallPosition[Int(g) + 1] >= 0 {
                p = smallPosition[Int(g) + 1]
            } else if !isSmall, let found = position[g] {
                p = found
            } else {
                if isSmall { smallPosition[Int(g) + 1] = members.count }
                p = members.count
                position[g] = p
                values.append(g)
                members.append([])
            }
            members[p].append(Int32(i))
            groupOf[i] = Int32(p)
        }
        if let selection {
            selection.forEachChosen(add)
        } else {
            for i in 0..<n { add(i) }
        }
        // Groups in ascending group value, so that ids don't depend on which came first.
        let order = values.indices.sorted { values[$0] < values[$1] }
        var rank = [Int32](repeating: 0, count: order.count)
        for (r, p) in order.enumerated() { rank[p] = Int32(r) }
        for i in 0..<n where groupOf[i] >= 0 { groupOf[i] = rank[Int(groupOf[i])] }
        return (order.map { members[$0] }, order.map { values[$0] }, groupOf)
    }

    /// The selection words of `members` (input indices) among `count` points.
    private static func words(of members: [Int32], count: Int) -> [UInt64] {
        var words = [UInt64](repeating: 0, count: (count + 63) >> 6)
        for i in members { words[Int(i) >> 6] |= 1 << UInt64(i & 63) }
        return words
    }

    /// How many points are in the indexes (chosen, with valid coordinates).
    public var indexedCount: Int { inputCount - skippedCount }

    // MARK: - Id and item translation

    @inline(__always) func outer(_ id: ClusterID, group g: Int) -> ClusterID {
        ClusterID(rawValue: inputCount + (g << Self.groupShift) + id.rawValue - groups[g].members.count)
    }

    /// The group and inner id of an outer cluster id, nil when it can't be one.
    func inner(_ id: ClusterID) -> (group: Int, id: ClusterID)? {
        let v = id.rawValue - inputCount
        guard v > 0 else { return nil }
        let g = v >> Self.groupShift
        guard g < groups.count else { return nil }
        return (g, ClusterID(rawValue: (v & ((1 << Self.groupShift) - 1)) + groups[g].members.count))
    }

    @inline(__always) func outer(_ item: ClusterItem, group g: Int) -> ClusterItem {
        switch item.kind {
        case .point(let j):
            return ClusterItem(kind: .point(Int(groups[g].members[j])), coordinate: item.coordinate, count: 1)
        case .cluster(let id):
            return ClusterItem(kind: .cluster(outer(id, group: g)), coordinate: item.coordinate, count: item.count)
        }
    }

    /// The group and inner index of an input point, nil when it is not indexed.
    func innerPoint(_ i: Int) -> (group: Int, index: Int)? {
        guard i >= 0 && i < inputCount else { return nil }
        let g: Int
        if groupOfPoint.isEmpty {
            if let chosen, !chosen[i] { return nil }
            g = 0
        } else {
            guard groupOfPoint[i] >= 0 else { return nil }
            g = Int(groupOfPoint[i])
        }
        let m = groups[g].members
        var lo = 0, hi = m.count
        let target = Int32(i)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if m[mid] < target { lo = mid + 1 } else { hi = mid }
        }
        return lo < m.count && m[lo] == target ? (g, lo) : nil
    }

    // MARK: - PointClusterer

    public func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem]) {
        buffer.removeAll(keepingCapacity: true)
        var scratch: [ClusterItem] = []
        for g in groups.indices {
            groups[g].index.clusters(in: bounds, zoom: zoom, into: &scratch)
            for item in scratch { buffer.append(outer(item, group: g)) }
        }
    }

    public func children(of cluster: ClusterID) -> [ClusterItem] {
        guard let (g, id) = inner(cluster) else { return [] }
        return groups[g].index.children(of: id).map { outer($0, group: g) }
    }

    public func leaves(of cluster: ClusterID, limit: Int = .max, offset: Int = 0) -> [Int] {
        guard let (g, id) = inner(cluster) else { return [] }
        return groups[g].index.leaves(of: id, limit: limit, offset: offset).map { Int(groups[g].members[$0]) }
    }

    public func expansionZoom(of cluster: ClusterID) -> Int? {
        guard let (g, id) = inner(cluster) else { return nil }
        return groups[g].index.expansionZoom(of: id)
    }

    public func item(for cluster: ClusterID) -> ClusterItem? {
        guard let (g, id) = inner(cluster) else { return nil }
        return groups[g].index.item(for: id).map { outer($0, group: g) }
    }

    public func aggregates(of item: ClusterItem) -> ClusterAggregates {
        switch item.kind {
        case .point(let i):
            guard let (g, j) = innerPoint(i) else { return ClusterAggregates(count: 0) }
            let index = groups[g].index
            return index.aggregates(of: ClusterItem(kind: .point(j), coordinate: item.coordinate, count: 1))
        case .cluster(let id):
            guard let (g, inner) = inner(id), let innerItem = groups[g].index.item(for: inner) else {
                return ClusterAggregates(count: 0)
            }
            return groups[g].index.aggregates(of: innerItem)
        }
    }

    /// The group value of an item (the `groups` value of its points), nil for an unknown item.
    public func groupValue(of item: ClusterItem) -> Int32? {
        switch item.kind {
        case .point(let i): return innerPoint(i).map { groupValues[$0.group] }
        case .cluster(let id): return inner(id).map { groupValues[$0.group] }
        }
    }
}

/// Indexes built on worker threads, collected under a lock.
private final class BuiltIndexes: @unchecked Sendable {
    private(set) var indexes: [(any PointClusterer)?]
    private let lock = NSLock()

    init(count: Int) { indexes = Array(repeating: nil, count: count) }

    func set(_ k: Int, _ index: any PointClusterer) {
        lock.lock()
        indexes[k] = index
        lock.unlock()
    }
}
