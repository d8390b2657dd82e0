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
        sceneState.focused = id
        if let id {
            focusPosition = FocusNavigator.readingOrder(lastScene, viewport: camera.viewportSize).first { $0.id == id }?.center
            let name = describe(id)
            let kind: JSONValue = .string({ if case .cluster = id { return "bubble" } else { return "place" } }())
            eventLog.emit("focus", [("id", .int(id.logID)), ("name", .string(name)), ("kind", kind)])
            AccessibleText.setLabel(of: drawingArea, to: "Map, \(name)")
        } else {
            focusPosition = nil
            AccessibleText.setLabel(of: drawingArea, to: "Map")
        }
        redraw()
    }

    /// Words for an item: "12 places, mostly museum" or the place's name.
    func describe(_ id: SceneItemID) -> String {
        guard let session else { return "" }
        switch id {
        case .cluster(let raw):
            guard let item = session.clusterer.item(for: ClusterID(rawValue: raw)) else { return "" }
            return session.summary(of: item)
        case .point(let i):
            return session.places.name(of: i)
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
        let next = FocusNavigator.survivor(of: focused, lastPosition: focusPosition, container: container, in: order)
        sceneState.focused = nil
        setFocus(next)
    }
}
