import ClusterCore

/// Motion for live data (SPEC §4): when the points change, places that stay glide to where they
/// moved, new ones pop up (grow from small with a slight overshoot, 0.2 s), removed ones fade out, and a bubble whose count changed (a new
/// cluster id at about the same spot) slides from the old bubble rather than jumping. Under
/// reduced motion nothing moves: only fades.
extension ClusterTransitions {
    /// How far (screen pixels) a changed bubble may be from the one it replaces to be linked.
    public static let dataLinkDistancePixels = 48.0

    /// Animates the next frame from what was drawn (call when the shown data changed).
    public mutating func dataDidChange() { pendingDataChange = true }

    /// What the animation of a data change does, by number of items drawn.
    public struct DataMotion: Sendable, Equatable {
        /// New items growing from small (none under reduced motion).
        public var popping = 0
        /// New items fading in (under reduced motion).
        public var fadingIn = 0
        /// Items that left, fading out.
        public var fadingOut = 0
        /// Items that stay (or replace a bubble nearby, re-counted) moving to their new place.
        public var gliding = 0
        public init(popping: Int = 0, fadingIn: Int = 0, fadingOut: Int = 0, gliding: Int = 0) {
            self.popping = popping; self.fadingIn = fadingIn; self.fadingOut = fadingOut; self.gliding = gliding
        }
    }

    /// The motion of the data change that started at the last `items(for:…)` call, once (nil
    /// when none started).
    public mutating func takeDataMotion() -> DataMotion? {
        defer { startedDataMotion = nil }
        return startedDataMotion
    }

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
        let model = Model(previous: previous.map(world0), current: current.map(world0), origins: origins,
                           destinations: destinations, startTime: now, reducedMotion: reducedMotion, wrapWidth: 256,
                           popIn: true)
        transition = model
        lastItems = current
        var motion = DataMotion()
        var oldPositions: [SceneItemID: ScreenPoint] = [:]
        for p in previous { oldPositions[p.id] = world0(p).position }
        var newPositions: [SceneItemID: ScreenPoint] = [:]
        for p in current { newPositions[p.id] = world0(p).position }
        for s in model.sprites(at: now) {
            switch s.role {
            case .appearing: if reducedMotion { motion.fadingIn += 1 } else { motion.popping += 1 }
            case .leaving, .merging: motion.fadingOut += 1
            case .splitting: if reducedMotion { motion.fadingIn += 1 } else { motion.gliding += 1 }
            case .staying:
                if !reducedMotion, let old = oldPositions[s.id], old != newPositions[s.id] {
                    motion.gliding += 1
                }
            }
        }
        startedDataMotion = motion
    }
}
