/// A hierarchical (supercluster-style) index whose points can be added, removed and moved after
/// it is built, without a rebuild: only the clusters a change touches are redone.
///
/// ```swift
/// let index = LiveClusterIndex(points: cities)          // ids 0..<cities.count
/// let id = index.add(GeoCoordinate(latitude: 38.71, longitude: -9.14))
/// index.move(id, to: GeoCoordinate(latitude: 38.72, longitude: -9.13))
/// index.remove(3)
/// let items = index.clusters(in: .world, zoom: 4)       // reflects the changes at once
/// index.compact()                                       // now identical to a fresh build
/// ```
///
/// Every point has a stable id: its position in the initial points, then the next free number
/// for each addition. Ids are never reused, so a selection can follow its place through changes.
///
/// After changes every rule of the hierarchical algorithm still holds at every zoom: each point
/// is in exactly one item, counts add up, a cluster sits at the count-weighted mean of its
/// children, every child lies within the zoom's radius of the item the cluster grew from, no two
/// items standing for themselves (clusters' origins, items carried unclustered) lie within the
/// radius of each other (with `minPoints` 2; above, no two origins), and points on one spot stay
/// together: a fresh build obeys the same, so no two bubbles sit closer than it would put them.
/// Because the algorithm is greedy in input order, a repaired region can group points
/// differently than a fresh build would; `compact()` rebuilds and then equals a fresh build of
/// the current points exactly.
///
/// How: the index keeps the last full build (a `HierarchicalClusterer`) as a base, and a small
/// overlay per zoom for what changed. A change is repaired level by level from the deepest zoom:
/// the cluster holding a changed item is updated in place (same id) while it still obeys the
/// rules, else dissolved; its freed items join an untouched cluster whose origin is within the
/// radius, else are re-clustered greedily among themselves (`LiveClusterIndex+Repair.swift`).
///
/// Not thread-safe: change and query it from one thread at a time (or hand it over).
public final class LiveClusterIndex: PointClusterer, @unchecked Sendable {
    public typealias Options = HierarchicalClusterer.Options

    /// Internal item reference: a point id, or `clusterFlag | cluster number`.
    typealias Ref = UInt32
    static let clusterFlag: UInt32 = 1 << 31
    /// `baseLow` of a node the base doesn't hold (at its current position).
    static let notInBase: Int8 = .max
    /// Cluster ids, apart from every point id: the base build's clusters are `idBase` + their
    /// supercluster id less the base's input count (`(origin << 5) + zoom + 1`, below 2^37);
    /// clusters made by changes are `madeBase + (serial << 5) + zoom + 1`, serials counting on
    /// across compactions (`madeSerialOffset`), so an id is never given to another cluster.
    static let idBase = 1 << 40
    static let madeBase = 1 << 45

    public let options: Options
    public var minZoom: Int { options.minZoom }
    public var maxZoom: Int { options.maxZoom }
    /// How many ids have been given out (removed ones included): point ids are `0..<inputCount`.
    public var inputCount: Int { coordinates.count }
    /// How many ids hold no point: given with a missing, NaN or out-of-range coordinate, or removed.
    public var skippedCount: Int { coordinates.count - count }
    /// How many points the index holds now.
    public internal(set) var count = 0

    // `@exclusivity(unchecked)` on the state below: a repair reads these arrays millions of times,
    // and the run-time exclusivity check on every access to a class's stored property was a
    // quarter of its time. The class is single-threaded by contract, and no access to one of
    // them overlaps a mutation of the same one (no callback mutates what its caller is reading;
    // the property tests passed with the checks on before the attribute was added).
    // Points, by id.
    @exclusivity(unchecked) var coordinates: [GeoCoordinate] = []
    /// Whether each id holds a point (also before the node state is built; `pNode[id].alive` agrees).
    @exclusivity(unchecked) var pAlive: [Bool] = []
    /// Repair state of each point, one record per point (built on the first change).
    @exclusivity(unchecked) var pNode: [PointNode] = []
    @exclusivity(unchecked) var categories: [Int32] = []
    @exclusivity(unchecked) var values: [Double] = []

    /// Clusters, by number (the base's first, then those made by changes).
    @exclusivity(unchecked) var cNode: [ClusterNode] = []
    /// Children (as refs) of clusters made or changed by changes, by cluster number (empty: the
    /// base's, from its table). An array, not a dictionary: a repair reads it for every cluster.
    @exclusivity(unchecked) var madeChildren: [[Ref]] = []
    @exclusivity(unchecked) var madeAggregates: [Int: ClusterAggregates] = [:]

    @exclusivity(unchecked) var base: HierarchicalClusterer
    @exclusivity(unchecked) var baseClusterCount = 0
    /// Clusters made by changes before the last full build: the serial of made cluster number c
    /// is `c - baseClusterCount + madeSerialOffset`.
    var madeSerialOffset = 0
    /// Per level (`zoom - minZoom`, `minZoom…maxZoom + 1`): items the base doesn't hold there.
    @exclusivity(unchecked) var overlay: [OverlayGrid] = []
    /// Per level: block starts of the base's index (nil for very fine grids; levels sharing a
    /// band's index share its table).
    @exclusivity(unchecked) var baseBlocks: [LevelBlocks?] = []
    /// Per level: the lowest level sharing its index (the bottom of its band; itself if none).
    @exclusivity(unchecked) var bandBottom: [Int] = []
    /// The last batch's repair bookkeeping, emptied: the next batch reuses its storage instead
    /// of growing a dozen sets from nothing (their regrowth was ~3 % of a batch).
    @exclusivity(unchecked) var spareRepair = Repair()

    /// Indexes `points` (ids `0..<points.count`), aggregating an optional category (−1: none)
    /// and numeric value (NaN: none) per point.
    /// - Complexity: a full `HierarchicalClusterer` build, plus O(*n*).
    public init(points: [GeoCoordinate], categories: [Int32] = [], values: [Double] = [],
                options: Options = Options()) {
        precondition(categories.isEmpty || categories.count == points.count, "one category per point (or none)")
        precondition(values.isEmpty || values.count == points.count, "one value per point (or none)")
        base = HierarchicalClusterer(points: [], options: options)
        self.options = base.options
        coordinates = points
        self.categories = categories
        self.values = values
        rebuild()
    }

    /// Makes an index over `points` whose base is `built`, an existing full build of exactly
    /// these points (same ids, categories and values), without building again: a filter's
    /// exact build becomes the base that the next small filter change repairs.
    /// - Complexity: O(*n*); the node state is made on the first change (or `prepareForChanges()`).
    public init(adopting built: HierarchicalClusterer, points: [GeoCoordinate], categories: [Int32] = [],
                values: [Double] = []) {
        precondition(built.inputCount == points.count, "a build of these points")
        precondition(categories.isEmpty || categories.count == points.count, "one category per point (or none)")
        precondition(values.isEmpty || values.count == points.count, "one value per point (or none)")
        base = built
        options = built.options
        coordinates = points
        self.categories = categories
        self.values = values
        pAlive = points.map(\.isValid)
        changeGeneration &+= 1
        install(built)
        precondition(count == pAlive.reduce(0) { $0 + ($1 ? 1 : 0) }, "the build skipped other points than these")
    }

    /// Makes the node state a change repairs (done by the first change otherwise), so that a
    /// later batch pays only for its repair: call it off the GTK thread after an adoption.
    public func prepareForChanges() { materialize() }

    /// Whether points carry aggregate inputs.
    var hasAttributes: Bool { !categories.isEmpty || !values.isEmpty }

    // MARK: - Changes

    /// Adds a point and returns its id (an invalid coordinate gets an id but is skipped).
    /// - Complexity: proportional to the clusters near it, at every zoom.
    @discardableResult
    public func add(_ coordinate: GeoCoordinate, category: Int32 = -1, value: Double = .nan) -> Int {
        apply(PointChanges(additions: [coordinate]), categories: [category], values: [value]).addedIDs[0]
    }

    /// Adds points; returns their ids in order.
    @discardableResult
    public func add(contentsOf points: [GeoCoordinate]) -> [Int] {
        apply(PointChanges(additions: points)).addedIDs
    }

    /// Removes a point; returns whether it was there.
    @discardableResult
    public func remove(_ id: Int) -> Bool { apply(PointChanges(removals: [id])).removed == 1 }

    /// Removes points; returns how many were there.
    @discardableResult
    public func remove(contentsOf ids: [Int]) -> Int { apply(PointChanges(removals: ids)).removed }

    /// Moves a point; returns whether it was there (and the coordinate valid).
    @discardableResult
    public func move(_ id: Int, to coordinate: GeoCoordinate) -> Bool {
        apply(PointChanges(moves: [(id, coordinate)])).moved == 1
    }

    /// Moves points; returns how many moved.
    @discardableResult
    public func move(contentsOf moves: [(id: Int, to: GeoCoordinate)]) -> Int { apply(PointChanges(moves: moves)).moved }

    /// Removes every point. Ids stay used: the next addition gets a new one.
    public func removeAll() {
        for i in pAlive.indices { pAlive[i] = false }
        count = 0
        rebuild()
    }

    /// Rebuilds from the current points: afterwards the index equals a fresh build of them
    /// exactly (same items, members, centres, expansion zooms and cluster ids as a new
    /// `LiveClusterIndex` given the same points under the same ids).
    /// - Complexity: a full build.
    public func compact() { rebuild() }

    /// Whether the index has changes since its last full build (`compact()` would change it).
    public var hasChanges: Bool { changedSinceBuild }
    /// Bumped by every change and rebuild: a compaction built in the background fits only the
    /// generation it was started from (`LiveClusterIndex+Compaction.swift`).
    public internal(set) var changeGeneration = 0
    var changedSinceBuild = false
    var materialized = false

    /// The coordinate of a point, nil when the id is unknown or the point removed.
    public func coordinate(of id: Int) -> GeoCoordinate? {
        id >= 0 && id < coordinates.count && pAlive[id] ? coordinates[id] : nil
    }

    /// Whether the index holds a point with this id.
    public func contains(_ id: Int) -> Bool { id >= 0 && id < coordinates.count && pAlive[id] }

    // MARK: - Build

    /// Builds the base from the current points (removed ids are holes) and resets the overlay.
    func rebuild() {
        if pAlive.count != coordinates.count { pAlive = coordinates.map(\.isValid) }
        changeGeneration &+= 1
        install(Self.buildBase(coordinates, pAlive, categories, values, options))
    }

    /// A full build of the given points, removed ids as holes (any thread: it reads only its inputs).
    static func buildBase(_ coordinates: [GeoCoordinate], _ alive: [Bool], _ categories: [Int32], _ values: [Double],
                          _ options: Options) -> HierarchicalClusterer {
        var input = coordinates
        for i in 0..<input.count where !alive[i] { input[i] = GeoCoordinate(latitude: .nan, longitude: .nan) }
        return HierarchicalClusterer(points: input, categories: categories, values: values, options: options)
    }

    /// Makes a full build of the current points the base and resets the overlay.
    func install(_ built: HierarchicalClusterer) {
        if materialized { madeSerialOffset += max(0, cNode.count - baseClusterCount) }
        base = built
        count = coordinates.count - base.skippedCount
        changedSinceBuild = false
        materialized = false
        // Until the first change, queries go to the base as they are: the node state below is
        // only built then (it costs as much again as a small build).
        pNode = []; cNode = []
        baseBlocks = []; bandBottom = []; overlay = []
        madeChildren = []
        madeAggregates = [:]
        baseClusterCount = base.table.rows.count
    }

    /// Builds the node state the repair works on (on the first change after a build).
    func materialize() {
        guard !materialized else { return }
        materialized = true
        let n = coordinates.count
        var input = coordinates
        for i in 0..<n where !pAlive[i] { input[i] = GeoCoordinate(latitude: .nan, longitude: .nan) }
        let (projected, _) = HierarchicalClusterer.project(input)
        let none = Int8(options.minZoom - 1)
        pNode = (0..<n).map {
            PointNode(x: Double(projected[2 * $0]), y: Double(projected[2 * $0 + 1]), low: none, baseLow: none, alive: pAlive[$0])
        }

        let t = base.table
        let m = t.rows.count
        baseClusterCount = m
        cNode = (0..<m).map {
            ClusterNode(x: t.rows[$0].x, y: t.rows[$0].y, count: t.rows[$0].count, top: Int8(t.zoom[$0]), low: none, baseLow: none)
        }
        madeChildren = [[Ref]](repeating: [], count: m)
        for c in 0..<m {
            let z = cNode[c].top
            for k in Int(t.childStart[c])..<Int(t.childStart[c + 1]) {
                let r = Int(t.childItems[k])
                if r < n {
                    pNode[r].low = z; pNode[r].baseLow = z; pNode[r].parent = Int32(c)
                } else {
                    cNode[r - n].low = z; cNode[r - n].baseLow = z; cNode[r - n].parent = Int32(c)
                }
            }
        }
        for i in 0..<n where !pAlive[i] { pNode[i].baseLow = Self.notInBase }
        baseBlocks = []
        bandBottom = []
        var previous: (items: UnsafeRawPointer?, cell: Double) = (nil, 0)
        for (l, level) in base.levels.enumerated() {
            let items = level.index.items.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
            if let last = baseBlocks.last, items != nil, items == previous.items, level.index.cell == previous.cell {
                baseBlocks.append(last)
                bandBottom.append(bandBottom[l - 1])
            } else {
                baseBlocks.append(LevelBlocks(level.index))
                bandBottom.append(l)
            }
            previous = (items, level.index.cell)
        }
        // Cells as wide as a neighbour query's box (radius and margin on both sides), so a query
        // looks at 2×2 cells, not 3×3.
        overlay = (options.minZoom...(options.maxZoom + 1)).map { z in
            OverlayGrid(cell: max(2 * (radius(atZoom: z - 1) + Self.queryMargin), 1.0 / Double(1 << 24)))
        }
    }

    /// The clustering radius at zoom z, in unit coordinates.
    func radius(atZoom z: Int) -> Double {
        options.radius / (options.extent * Double(1 << min(max(z, 0), 40)))
    }
}
