import ClusterCore
import MapModel

/// Motion for live data (SPEC §4): when the points change, places that stay glide to where they
/// moved, new ones fade in, removed ones fade out, and a bubble whose count changed (a new
/// cluster id at about the same spot) slides from the old bubble rather than jumping. Under
/// reduced motion nothing moves: only fades.
extension ClusterTransitions {
    /// How far (screen pixels) a changed bubble may be from the one it replaces to be linked.
    public static let dataLinkDistancePixels = 48.0

    /// Animates the next frame from what was drawn (call when the shown data changed).
    public mutating func dataDidChange() { pendingDataChange = true }

    mutating func startDataChange(from previous: [PlacedItem], to current: [PlacedItem], indexZoom: Int, now: Double,
                                  reducedMotion: Bool) {
        typealias Model = TransitionModel<SceneItemID>
        func world0(_ p: PlacedItem) -> Model.Item {
            let u = WebMercator.project(p.item.coordinate)
            return Model.Item(id: p.id, position: ScreenPoint(x: u.x * 256, y: u.y * 256), count: p.item.count)
        }
        let oldIDs = Set(previous.map(\.id)), newIDs = Set(current.map(\.id))
        // Only what changed is linked: new items to the old ones that left, and back.
        // Counts may grow or shrink with the data: link by position alone.
        func linkItem(_ p: PlacedItem) -> Model.Item { Model.Item(id: p.id, position: world0(p).position, count: 1) }
        let arriving = current.filter { !oldIDs.contains($0.id) }.map(linkItem)
        let leaving = previous.filter { !newIDs.contains($0.id) }.map(linkItem)
        let maxDistance = Self.dataLinkDistancePixels / WebMercator.worldSize(zoom: Double(indexZoom)) * 256
        let origins = Model.nearestLinks(children: arriving, parents: leaving, maxDistance: maxDistance, wrapWidth: 256)
        let destinations = Model.nearestLinks(children: leaving, parents: arriving, maxDistance: maxDistance, wrapWidth: 256)
        var byID: [SceneItemID: ClusterItem] = [:]
        for p in previous { byID[p.id] = p.item }
        for p in current { byID[p.id] = p.item }
        itemsByID = byID
        transition = Model(previous: previous.map(world0), current: current.map(world0), origins: origins,
                           destinations: destinations, startTime: now, reducedMotion: reducedMotion, wrapWidth: 256)
        lastItems = current
    }
}
