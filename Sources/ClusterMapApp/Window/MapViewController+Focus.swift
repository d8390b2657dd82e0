import CGtk
import AppSupport
import ClusterCore
import MapModel

/// Keyboard focus on the map's bubbles and places (SPEC §5.7).
extension MapViewController {
    /// Moves focus to the next (previous) item in reading order; false when it should leave the map.
    func moveFocus(forward: Bool) -> Bool {
        let order = FocusNavigator.readingOrder(lastScene, viewport: camera.viewportSize).map(\.id)
        guard let next = FocusNavigator.step(from: sceneState.focused, forward: forward, in: order) else {
            setFocus(nil)
            return false
        }
        setFocus(next)
        return true
    }

    /// Enter on the focused item: fly into a bubble, select a place.
    func activateFocused() -> Bool {
        switch sceneState.focused {
        case .cluster?: activateBubble(sceneState.focused!); return true
        case .point(let i)?: select(point: i); return true
        case nil: return false
        }
    }

    /// Sets the focused item, logs it and tells assistive technology what it is.
    func setFocus(_ id: SceneItemID?) {
        guard id != sceneState.focused else { return }
        let events = presentation.focus(id)
        if let id {
            focusPosition = FocusNavigator.readingOrder(lastScene, viewport: camera.viewportSize).first { $0.id == id }?.center
            eventLog.emit(events)
            AccessibleText.setLabel(of: drawingArea, to: "Map, \(presentation.describe(id))")
        } else {
            focusPosition = nil
            AccessibleText.setLabel(of: drawingArea, to: "Map")
        }
        redraw()
    }

    /// The first item in `order` made of the places of the bubble `id` (a place of it, or a
    /// smaller bubble of them); nil when `id` is no bubble or none of its places is in view.
    func firstPart(of id: SceneItemID, in order: [SceneItemID]) -> SceneItemID? {
        guard case .cluster(let raw) = id, let session else { return nil }
        let members = Set(session.shownIndex.leaves(of: ClusterID(rawValue: raw), limit: 100_000, offset: 0))
        guard !members.isEmpty else { return nil }
        return order.first { item in
            switch item {
            case .point(let i): return members.contains(i)
            // Bubbles nest: one place inside says the whole smaller bubble came from it.
            case .cluster(let c): return session.shownIndex.leaves(of: ClusterID(rawValue: c), limit: 1, offset: 0).first.map(members.contains) ?? false
            }
        }
    }

    /// After the scene settles: keep focus on its item, or move it to what took its place.
    func keepFocusThroughReclustering() {
        guard let focused = sceneState.focused else { return }
        let order = FocusNavigator.readingOrder(lastScene, viewport: camera.viewportSize)
        if order.contains(where: { $0.id == focused }) { return }
        var container: SceneItemID?
        if case .point(let i) = focused, let session {
            container = session.container(of: i, among: session.visibleItems(for: camera), camera: camera)
        }
        // A bubble that split (Enter flew into it): focus its first part in reading order, so
        // the next Tab walks its parts. The nearest item could be the last on the map, and Tab
        // from there left the map for the header's Open button (issue 32 item 7).
        let next = firstPart(of: focused, in: order.map(\.id))
            ?? FocusNavigator.survivor(of: focused, lastPosition: focusPosition, container: container, in: order)
        _ = presentation.focus(nil)  // then told afresh (nothing is logged for nil)
        setFocus(next)
    }
}
