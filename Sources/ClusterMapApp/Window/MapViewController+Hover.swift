import CGtk
import AppSupport
import ClusterCore
import MapModel

/// Hover (SPEC §5.5): a hand over anything clickable; over a bubble its members' hull and a tooltip.
extension MapViewController {
    func pointerMoved(to p: ScreenPoint) {
        pointer = p
        isPointerInside = true
        guard !isGestureActive else { return }
        updateHover(SceneHitTester.hit(lastScene, at: p, style: presentation.sceneBuilder.style))
    }

    func pointerLeft() {
        isPointerInside = false
        updateHover(nil)
    }

    /// The camera started flying or moving: nothing is hovered until it rests (then the item
    /// under the pointer, if any, is hovered again).
    func clearHoverForMotion() {
        guard sceneState.hovered != nil else { return }
        _ = presentation.hover(nil)
        gtk_widget_set_cursor_from_name(drawingArea, nil)
    }

    /// At rest: hover what is under the pointer now.
    func refreshHover() {
        guard isPointerInside, !isGestureActive else { return }
        updateHover(SceneHitTester.hit(lastScene, at: pointer, style: presentation.sceneBuilder.style))
    }

    private func updateHover(_ hit: SceneHitTester.Hit?) {
        let id: SceneItemID?
        switch hit {
        case .bubble(let b)?: id = b
        case .pin(let p, _)?: id = p
        default: id = nil
        }
        let clickable = hit != nil
        gtk_widget_set_cursor_from_name(drawingArea, clickable ? "pointer" : nil)
        let (changed, events) = presentation.hover(id)
        guard changed else { return }
        eventLog.emit(events)
        redraw()
    }

    /// Tooltip text and the area it belongs to, for the item under `p`.
    func tooltip(at p: ScreenPoint) -> (String, ScreenRect)? {
        guard let session else { return nil }
        switch SceneHitTester.hit(lastScene, at: p, style: presentation.sceneBuilder.style) {
        case .bubble(let id)?:
            guard case .cluster(let raw) = id, let b = lastScene.bubbles.first(where: { $0.id == id }) else { return nil }
            let area = ScreenRect(x: b.center.x - b.radius, y: b.center.y - b.radius, width: 2 * b.radius, height: 2 * b.radius)
            // A remote source's bubble (a database cell, a tile's cluster): its count and totals.
            if session.remote != nil { return session.remoteTooltip(of: ClusterID(rawValue: raw)).map { ($0, area) } }
            guard let item = session.shownIndex.item(for: ClusterID(rawValue: raw)) else { return nil }
            return (session.tooltip(of: item), area)
        case .pin(_, let index)?:
            guard let pin = lastScene.pins.last(where: { $0.pointIndex == index }) else { return nil }
            let r = presentation.sceneBuilder.style.pinRadius + 2
            return (session.places.name(of: index), ScreenRect(x: pin.center.x - r, y: pin.center.y - r, width: 2 * r, height: 2 * r))
        default:
            return nil
        }
    }
}
