import Foundation
import CGtk
import AppSupport
import ClusterCore
import MapModel
import MapRender

/// Clicks and keys that are about what is on the map (not just the camera).
extension MapViewController {
    /// A click (not a drag) at a point in the drawing area; `repeated` for the second click of a
    /// double-click (which acts like the first one on an item, never undoes it).
    func handleClick(at p: ScreenPoint, repeated: Bool = false) {
        switch SceneHitTester.hit(lastScene, at: p, style: presentation.sceneBuilder.style) {
        case .bubble(let id)?:
            activateBubble(id)
        case .pin(_, let index)?:
            // A new click on the selected place deselects it (as the apps people know do).
            if !repeated && sceneState.selectedPoint == index {
                eventLog.emit(presentation.clearSelection())
                sceneDidChange()
            } else {
                select(point: index)
            }
        case .calloutButton(let index, let action)?:
            pressCalloutButton(action, of: index)
        case .bubbleCardButton(let id, let action)?:
            pressBubbleCardButton(action, of: id)
        case .callout?, .bubbleCard?:
            break
        case nil:
            clearSelectionAndFan()
        }
    }

    /// Whether a bubble or place is drawn under `p`.
    func item(at p: ScreenPoint) -> Bool {
        switch SceneHitTester.hit(lastScene, at: p, style: presentation.sceneBuilder.style) {
        case .bubble?, .pin?: return true
        default: return false
        }
    }

    /// Flies into a bubble until it splits (SPEC §5.2); a bubble that never splits fans out.
    func activateBubble(_ id: SceneItemID) {
        guard case .cluster(let raw) = id, let session else { return }
        let cluster = ClusterID(rawValue: raw)
        if let remote = session.remote { flyIntoRemoteBubble(cluster, of: remote); return }
        guard let expansion = session.shownIndex.expansionZoom(of: cluster) else { return }
        let started = MapViewController.now()
        let leaves = session.shownIndex.leaves(of: cluster, limit: .max, offset: 0)
        if Double(expansion) > camera.maxZoom {
            openFan(cluster: id, leaves: leaves, startedAt: started)
            return
        }
        let members = leaves.map { session.places.coordinates[$0] }
        let ctx = beginInput()
        guard let target = ClusterFlightTarget(from: ctx.camera, expansionZoom: Double(expansion), members: members) else { return }
        apply(.fly(to: target.camera, in: ctx))
        gestureDidEnd()
    }

    /// Selects a place (SPEC §5.3).
    func select(point index: Int) {
        // An index of data shown before (a row not read again yet) names no place: nothing.
        guard let session, index >= 0, index < session.pointCount else { return }
        eventLog.emit(presentation.select(point: index, now: MapViewController.now(),
                                          reducedMotion: cameraController.motionPolicy.prefersReducedMotion))
        if let size = sceneState.callout?.size { revealCallout(of: index, size: size) }
        readRemoteCardIfNeeded()
        sceneDidChange()
        startTicking()
    }

    /// Eases the camera just enough to show the pin and its callout (no zoom change; a jump
    /// under reduced motion, which the controller handles).
    func revealCallout(of index: Int, size: ScreenSize) {
        guard let session else { return }
        let pin = camera.screenPoint(for: session.places.coordinates[index])
        let frame = CalloutPlacement.frame(above: pin, size: size)
        let shift = CalloutPlacement.revealShift(callout: frame, pin: pin, pinRadius: presentation.sceneBuilder.style.pinRadius,
                                                 viewport: camera.viewportSize)
        guard shift.dx != 0 || shift.dy != 0 else { return }
        let ctx = beginInput()
        apply(RevealPan.change(panBy: shift.dx, shift.dy, in: ctx))
    }

    /// Closes an open fan, place list or bubble card (map click, Escape, zoom).
    func closeFan() {
        closeBubbleCard()
        if placeList.isShown {
            placeList.hide()
            eventLog.emit("fan-close")
        }
        let closed = presentation.closeFan()
        if !closed.isEmpty {
            eventLog.emit(closed)
            redraw()
        }
    }

    /// Clears the selection and closes an open fan (map click, Escape).
    func clearSelectionAndFan() {
        closeFan()
        eventLog.emit(presentation.clearSelection())
        sceneDidChange()
    }

    /// Same-spot lists up to this long are sorted by name (~20 ms); longer ones keep file order.
    static let sortedListLimit = 20_000

    /// Fans out the members of a bubble whose places share one spot (SPEC §5.4).
    /// `startedAt` (when the click was handled) times the opening in the `fan-open` event's `ms`.
    func openFan(cluster id: SceneItemID, leaves: [Int], startedAt: Double = MapViewController.now()) {
        guard !leaves.isEmpty else { return }
        closeFan()
        if presentation.sceneBuilder.fanLayout.prefersList(count: leaves.count) {
            showPlaceList(leaves, startedAt: startedAt)
            return
        }
        eventLog.emit(presentation.openFan(cluster: id, leaves: leaves))
        sceneDidChange()
    }

    /// The pick list of `leaves` beside the first of them (a same-spot bubble's, or "List
    /// Places" on a bubble's card); logged as `fan-open` with `list`.
    func showPlaceList(_ leaves: [Int], here: String = "here", startedAt: Double = MapViewController.now()) {
        guard let session, let first = leaves.first else { return }
        let panel = placeList
        let p = camera.screenPoint(for: session.places.coordinates[first])
        panel.setActions(pick: { [weak self] index in
            panel.hide()
            self?.select(point: index)
            gtk_widget_grab_focus(self?.drawingArea)
        }, close: { [weak self] in
            panel.hide()
            self?.eventLog.emit("fan-close")
            gtk_widget_grab_focus(self?.drawingArea)
        })
        // Alphabetical, so a person can scan the list, when sorting is quick; a bigger list
        // stays in file order, since sorting would fetch every name (the list must open at once).
        let rows = leaves.count <= MapViewController.sortedListLimit
            ? NaturalOrder.sorted(leaves) { session.places.name(of: $0) }
            : leaves
        panel.show(title: "\(MapDataSession.formatted(leaves.count)) \(session.noun(count: leaves.count)) \(here)", points: rows,
                   name: { [session] in session.places.name(of: $0) }, near: (p.x, p.y),
                   in: (camera.viewportSize.width, camera.viewportSize.height))
        eventLog.emit("fan-open", [("count", .int(leaves.count)), ("list", .bool(true)),
                                   ("ms", .number(((MapViewController.now() - startedAt) * 1000).rounded()))])
    }

    /// A key press on the window; returns whether it was handled.
    func handleKey(_ keyval: UInt32) -> Bool {
        // The time bar (and the replay's): ] faster, [ slower, , and . step, P plays, W window.
        if live.replay != nil || timeBar.model != nil, let request = TimeBarView.mapRequest(forKey: keyval) {
            timeBarRequest(request)
            return true
        }
        if Int32(keyval) == GDK_KEY_Escape {
            let listShown = placeList.isShown
            guard sceneState.selectedPoint != nil || sceneState.fan != nil || listShown || sceneState.bubbleCard != nil else {
                // Then a running load stops (like its Cancel button), what is shown stays.
                if currentLoadCancel != nil {
                    cancelLoad()
                    return true
                }
                // Then focus backs out of the items to the map itself.
                guard sceneState.focused != nil else { return false }
                setFocus(nil)
                return true
            }
            clearSelectionAndFan()
            return true
        }
        if Int32(keyval) == GDK_KEY_l, listPlacesOfOpenCard() { return true }
        guard let key = KeyboardShortcuts.navigationKey(keyval) else { return false }
        let ctx = beginInput()
        apply(KeyboardNavigationHandler().press(key, dataBounds: session?.homeBounds(shown: presentation.shownFilter), in: ctx))  // 0/Home: what passes
        gestureDidEnd()
        return true
    }
}
