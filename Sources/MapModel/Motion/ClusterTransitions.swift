import ClusterCore

/// Animates bubbles splitting and merging when the index zoom changes (SPEC §5.2): children come
/// out of the bubble they were in and move to their places; zooming out merges them back. Under
/// reduced motion they fade instead (SPEC §5.6). Time is an input.
public struct ClusterTransitions: Sendable {
    /// Items drawn in the last frame (targets of the running transition, if any).
    var lastItems: [PlacedItem] = []
    var lastIndexZoom: Int?
    var transition: TransitionModel<SceneItemID>?
    var itemsByID: [SceneItemID: ClusterItem] = [:]
    /// Transitions are skipped above this many items on either side (the pairing is quadratic).
    public static let maxItems = 2_000
    /// How far (screen pixels at the coarser zoom) a child may be from its parent to be linked.
    public static let linkDistancePixels = 120.0

    /// The data changed (live update): the next frame animates from what was drawn.
    var pendingDataChange = false
    var startedDataMotion: DataMotion?

    public init() {}

    /// Whether a transition is still running at `now`.
    public func isAnimating(at now: Double) -> Bool {
        guard let t = transition else { return false }
        return !t.isFinished(at: now)
    }

    /// The items to draw at `now`, given the clusterer's items for this frame.
    public mutating func items(for current: [PlacedItem], indexZoom: Int, now: Double,
                               reducedMotion: Bool) -> [PlacedItem] {
        defer { lastIndexZoom = indexZoom }
        if pendingDataChange {
            pendingDataChange = false
            if lastIndexZoom == indexZoom, !lastItems.isEmpty,
               lastItems.count <= Self.maxItems, current.count <= Self.maxItems {
                startDataChange(from: lastItems, to: current, indexZoom: indexZoom, now: now, reducedMotion: reducedMotion)
            }
        }
        if let previousZoom = lastIndexZoom, previousZoom != indexZoom,
           !lastItems.isEmpty, !current.isEmpty,
           lastItems.count <= Self.maxItems, current.count <= Self.maxItems {
            start(from: lastItems, to: current, zoomingIn: indexZoom > previousZoom,
                  coarserZoom: min(previousZoom, indexZoom), now: now, reducedMotion: reducedMotion)
        }
        if let t = transition {
            if t.isFinished(at: now) {
                transition = nil
                itemsByID = [:]
            } else {
                return t.sprites(at: now).compactMap { s in
                    guard let item = itemsByID[s.id] else { return nil }
                    let c = WebMercator.unproject(x: s.position.x / 256, y: s.position.y / 256)
                    return PlacedItem(item: item, coordinate: c, alpha: s.alpha, scale: s.scale)
                }
            }
        }
        lastItems = current
        return current
    }

    private mutating func start(from previous: [PlacedItem], to current: [PlacedItem], zoomingIn: Bool,
                                coarserZoom: Int, now: Double, reducedMotion: Bool) {
        typealias Model = TransitionModel<SceneItemID>
        func world0(_ p: PlacedItem) -> Model.Item {
            let u = WebMercator.project(p.item.coordinate)
            return Model.Item(id: p.id, position: ScreenPoint(x: u.x * 256, y: u.y * 256), count: p.item.count)
        }
        let old = previous.map(world0), new = current.map(world0)
        let maxDistance = Self.linkDistancePixels / WebMercator.worldSize(zoom: Double(coarserZoom)) * 256
        var origins: [SceneItemID: SceneItemID] = [:], destinations: [SceneItemID: SceneItemID] = [:]
        if zoomingIn {
            origins = Model.nearestLinks(children: new, parents: old, maxDistance: maxDistance, wrapWidth: 256)
        } else {
            destinations = Model.nearestLinks(children: old, parents: new, maxDistance: maxDistance, wrapWidth: 256)
        }
        var byID: [SceneItemID: ClusterItem] = [:]
        for p in previous { byID[p.id] = p.item }
        for p in current { byID[p.id] = p.item }
        itemsByID = byID
        transition = Model(previous: old, current: new, origins: origins, destinations: destinations,
                           startTime: now, reducedMotion: reducedMotion, wrapWidth: 256)
        lastItems = current
    }
}
