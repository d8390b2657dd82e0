/// Keyboard focus over the items on the map (SPEC §5.7): Tab order is reading order, and focus
/// follows its item through re-clustering.
public enum FocusNavigator {
    /// Height of a reading-order line in logical pixels: items whose centres are within this of
    /// the line's topmost item count as one line, read left to right.
    public static let rowHeight = 40.0

    /// The focusable items of a scene in reading order (top-left to bottom-right), each once
    /// (the copy nearest the viewport centre when the world repeats), only those in view.
    public static func readingOrder(_ scene: Scene, viewport: ScreenSize) -> [(id: SceneItemID, center: ScreenPoint)] {
        var best: [SceneItemID: ScreenPoint] = [:]
        let cx = viewport.width / 2
        func consider(_ id: SceneItemID, _ p: ScreenPoint) {
            guard p.x >= 0, p.y >= 0, p.x <= viewport.width, p.y <= viewport.height else { return }
            if let q = best[id], abs(q.x - cx) <= abs(p.x - cx) { return }
            best[id] = p
        }
        for b in scene.bubbles { consider(b.id, b.center) }
        for p in scene.pins { consider(p.id, p.center) }
        // Lines: items sorted top to bottom; an item within `rowHeight` of a line's first item
        // joins that line; each line reads left to right.
        let byY = best.map { (id: $0.key, center: $0.value) }.sorted {
            $0.center.y != $1.center.y ? $0.center.y < $1.center.y : $0.id.logID < $1.id.logID
        }
        var out: [(id: SceneItemID, center: ScreenPoint)] = []
        var line: [(id: SceneItemID, center: ScreenPoint)] = []
        func flush() {
            out += line.sorted { $0.center.x != $1.center.x ? $0.center.x < $1.center.x : $0.id.logID < $1.id.logID }
            line.removeAll()
        }
        for item in byY {
            if let first = line.first, item.center.y - first.center.y > rowHeight { flush() }
            line.append(item)
        }
        flush()
        return out
    }

    /// The item after (or before) `current` in reading order; the first (last) when nothing is
    /// focused or the focused item is gone; nil past either end (focus leaves the map).
    public static func step(from current: SceneItemID?, forward: Bool, in order: [SceneItemID]) -> SceneItemID? {
        guard !order.isEmpty else { return nil }
        guard let current, let i = order.firstIndex(of: current) else { return forward ? order.first : order.last }
        let j = forward ? i + 1 : i - 1
        return order.indices.contains(j) ? order[j] : nil
    }

    /// Where focus goes after the scene changed: the same item if it is still drawn; else the
    /// bubble that now holds it (`container`, for a place that joined one); else the item
    /// nearest to where it was.
    public static func survivor(of focused: SceneItemID, lastPosition: ScreenPoint?, container: SceneItemID?,
                                in order: [(id: SceneItemID, center: ScreenPoint)]) -> SceneItemID? {
        if order.contains(where: { $0.id == focused }) { return focused }
        if let container, order.contains(where: { $0.id == container }) { return container }
        guard let p = lastPosition else { return nil }
        return order.min { a, b in
            let da = (a.center.x - p.x) * (a.center.x - p.x) + (a.center.y - p.y) * (a.center.y - p.y)
            let db = (b.center.x - p.x) * (b.center.x - p.x) + (b.center.y - p.y) * (b.center.y - p.y)
            return da < db
        }?.id
    }
}
