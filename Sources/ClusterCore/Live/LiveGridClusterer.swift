/// A grid clusterer (`GridClusterer`'s cells and options) whose points can be added, removed
/// and moved after it is built. Cells are independent of each other, so a change touches one
/// cell per zoom: those cells are worked out again (lazily, when a query reaches them) from their
/// points in id order, exactly as a build does. After any sequence of changes every query
/// answers what a fresh build of the current points would: the same items, members, positions,
/// counts and expansion zooms (and, against a fresh `LiveGridClusterer`, the same cluster ids).
///
/// ```swift
/// let grid = LiveGridClusterer(points: stations, options: .init(cellSize: 64))
/// let id = grid.add(GeoCoordinate(latitude: 52.52, longitude: 13.40))
/// grid.remove(id)
/// ```
///
/// Cluster ids name their cell (`idBase + (cell key << 5) + zoom + 1`), so a cluster keeps its id
/// while points come and go in its cell. Not thread-safe: change and query from one thread at a time.
public final class LiveGridClusterer: PointClusterer, @unchecked Sendable {
    static let idBase = 1 << 40

    public let options: GridClusterer.Options
    public var minZoom: Int { base.minZoom }
    public var maxZoom: Int { base.maxZoom }
    /// Ids given out (removed ones included): point ids are `0..<inputCount`.
    public var inputCount: Int { coordinates.count }
    /// Ids holding no point (invalid coordinates or removed).
    public var skippedCount: Int { coordinates.count - count }
    /// Points held now.
    public private(set) var count = 0

    var coordinates: [GeoCoordinate] = []
    var px: [Double] = []
    var py: [Double] = []
    var alive: [Bool] = []
    var clusterable: [Bool] = []
    /// Ids added, removed or moved since the base build (the base's entry for them is stale).
    var changed: Set<Int> = []
    /// Per zoom `minZoom…maxZoom + 1`: changed points (alive) by their cell key at that zoom.
    var changedByCell: [[UInt64: [Int]]] = []
    /// Per zoom `minZoom…maxZoom`: cells a change touched, with their worked-out members (nil: not yet).
    var dirty: [[UInt64: [Int]?]] = []
    var base: GridClusterer

    /// Groups `points` (ids `0..<points.count`) into cells at every zoom.
    public init(points: [GeoCoordinate], options: GridClusterer.Options = GridClusterer.Options()) {
        self.options = options
        base = GridClusterer(points: [], options: options)
        coordinates = points
        alive = points.map(\.isValid)
        rebuild()
    }

    // MARK: - Changes

    /// Adds a point; returns its id (an invalid coordinate gets one but is skipped).
    @discardableResult
    public func add(_ coordinate: GeoCoordinate) -> Int { apply(PointChanges(additions: [coordinate])).addedIDs[0] }

    /// Removes a point; returns whether it was there.
    @discardableResult
    public func remove(_ id: Int) -> Bool { apply(PointChanges(removals: [id])).removed == 1 }

    /// Moves a point; returns whether it was there and the coordinate valid.
    @discardableResult
    public func move(_ id: Int, to coordinate: GeoCoordinate) -> Bool { apply(PointChanges(moves: [(id, coordinate)])).moved == 1 }

    /// Removes every point (ids are not reused).
    public func removeAll() {
        for i in alive.indices { alive[i] = false }
        rebuild()
    }

    /// Rebuilds the base from the current points (queries answer the same before and after).
    public func compact() { rebuild() }

    /// Whether a point with this id is held.
    public func contains(_ id: Int) -> Bool { id >= 0 && id < coordinates.count && alive[id] }

    /// Applies a batch: removals, then moves, then additions.
    /// - Complexity: O(zoom levels) per change; the touched cells are worked out when queried.
    @discardableResult
    public func apply(_ changes: PointChanges) -> PointChangeResult {
        var result = PointChangeResult()
        for id in changes.removals where contains(id) {
            unregister(id)
            alive[id] = false
            count -= 1
            result.removed += 1
        }
        for (id, to) in changes.moves where contains(id) && to.isValid {
            unregister(id)
            setPosition(id, to)
            register(id)
            result.moved += 1
        }
        for c in changes.additions {
            let id = coordinates.count
            coordinates.append(c); px.append(.nan); py.append(.nan); alive.append(c.isValid); clusterable.append(false)
            result.addedIDs.append(id)
            guard c.isValid else { continue }
            setPosition(id, c)
            clusterable[id] = options.shouldCluster?(id) ?? true
            count += 1
            register(id)
        }
        return result
    }

    private func setPosition(_ id: Int, _ c: GeoCoordinate) {
        coordinates[id] = c
        px[id] = WebMercator.x(longitude: c.longitude)
        py[id] = WebMercator.y(latitude: c.latitude)
    }

    /// Marks the point's cells dirty and forgets its current place.
    private func unregister(_ id: Int) {
        changed.insert(id)
        for z in minZoom...(maxZoom + 1) {
            let key = cellKey(id, z)
            if z <= maxZoom { dirty[z - minZoom][key] = .some(nil) }
            changedByCell[z - minZoom][key]?.removeAll { $0 == id }
        }
    }

    /// Files the point under its cells and marks them dirty.
    private func register(_ id: Int) {
        changed.insert(id)
        for z in minZoom...(maxZoom + 1) {
            let key = cellKey(id, z)
            if z <= maxZoom { dirty[z - minZoom][key] = .some(nil) }
            changedByCell[z - minZoom][key, default: []].append(id)
        }
    }

    @inline(__always) func cellKey(_ id: Int, _ z: Int) -> UInt64 {
        let level = base.level(z)
        return GridClusterer.cellKey(px[id], py[id], cellUnit: level.cellUnit, width: level.width)
    }

    private func rebuild() {
        var input = coordinates
        for i in input.indices where !alive[i] { input[i] = GeoCoordinate(latitude: .nan, longitude: .nan) }
        base = GridClusterer(points: input, options: options)
        px = base.projectedX
        py = base.projectedY
        clusterable = base.clusterable
        count = alive.lazy.filter { $0 }.count
        changed = []
        changedByCell = Array(repeating: [:], count: base.maxZoom - base.minZoom + 2)
        dirty = Array(repeating: [:], count: base.maxZoom - base.minZoom + 1)
    }
}
