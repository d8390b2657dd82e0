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

    /// After the scene settles: keep focus on its item, or move it to what took its place.
    func keepFocusThroughReclustering() {
        guard let focused = sceneState.focused else { return }
        let order = FocusNavigator.readingOrder(lastScene, viewport: camera.viewportSize)
        if order.contains(where: { $0.id == focused }) { return }
        var container: SceneItemID?
        if case .point(let i) = focused, let session {
            container = session.container(of: i, among: session.visibleItems(for: camera), camera: camera)
        }
        let next = FocusNavigator.survivor(of: focused, lastPosition: focusPosition, container: container, in: order)
        _ = presentation.focus(nil)  // then told afresh (nothing is logged for nil)
        setFocus(next)
    }
}
