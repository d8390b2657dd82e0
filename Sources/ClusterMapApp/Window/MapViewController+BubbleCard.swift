import CGtk
import AppSupport
import ClusterCore
import MapModel

/// A bubble's card (issue 29 item 5): a secondary click, Shift+Enter or the Menu key on a
/// bubble opens it over the bubble (count, totals, categories, dates; "Zoom In", "List Places");
/// Escape, a click on the empty map or a zoom closes it, as a place's callout.
extension MapViewController {
    /// Opens the card of the bubble `id`.
    func openBubbleCard(_ id: SceneItemID) {
        guard session != nil, case .cluster = id else { return }
        closeFan()
        let times = timeBar.model == nil ? nil : presentation.timeColumn(named: timeBar.property)
        eventLog.emit(presentation.openBubbleCard(id, times: times, maxZoom: camera.maxZoom, now: MapViewController.now(),
                                                  reducedMotion: cameraController.motionPolicy.prefersReducedMotion))
        if let card = sceneState.bubbleCard { revealBubbleCard(card) }
        sceneDidChange()
        startTicking()
    }

    /// A secondary click: a bubble's card, a place selected, or what is open closed.
    func secondaryClick(at p: ScreenPoint) {
        switch SceneHitTester.hit(lastScene, at: p, style: presentation.sceneBuilder.style) {
        case .bubble(let id)?: openBubbleCard(id)
        case .pin(_, let index)?: select(point: index)
        case nil: clearSelectionAndFan()
        default: break
        }
    }

    /// Shift+Enter or Menu on the map: the focused bubble's card; false when no bubble has focus.
    func openFocusedBubbleCard() -> Bool {
        guard case .cluster? = sceneState.focused, let id = sceneState.focused else { return false }
        openBubbleCard(id)
        return true
    }

    /// Closes the bubble's card, if open.
    func closeBubbleCard() {
        let closed = presentation.closeBubbleCard()
        guard !closed.isEmpty else { return }
        eventLog.emit(closed)
        sceneDidChange()
    }

    /// A button on a bubble's card: close, "Zoom In" (the click's flight), "List Places".
    func pressBubbleCardButton(_ action: CalloutAction, of id: SceneItemID) {
        eventLog.emit("bubble-card-button", [("id", .int(id.logID)), ("action", .string(action.rawValue))])
        closeBubbleCard()
        switch action {
        case .zoomIn: activateBubble(id)
        case .listPlaces: listPlaces(of: id)
        default: break
        }
    }

    /// "List Places" (or L while the card is open): the bubble's members in the pick list that
    /// bubbles which can't split open (SPEC §5.4).
    func listPlaces(of id: SceneItemID) {
        guard case .cluster(let raw) = id, let session, session.remote == nil else { return }
        let leaves = session.shownIndex.leaves(of: ClusterID(rawValue: raw), limit: .max, offset: 0)
        showPlaceList(leaves, here: "in this bubble")
    }

    /// L on the map while a bubble's card is open lists its places; false otherwise.
    func listPlacesOfOpenCard() -> Bool {
        guard let id = presentation.bubbleCardBubble, let card = sceneState.bubbleCard,
              card.buttons.contains(where: { $0.action == .listPlaces }) else { return false }
        pressBubbleCardButton(.listPlaces, of: id)
        return true
    }

    /// Eases the camera just enough to show the bubble and its card (no zoom change).
    private func revealBubbleCard(_ card: SceneState.BubbleCard) {
        guard let bubble = lastScene.bubbles.first(where: { $0.id == card.bubble }) else { return }
        let frame = card.callout(over: bubble).frame
        let shift = CalloutPlacement.revealShift(callout: frame, pin: bubble.center, pinRadius: bubble.radius,
                                                 viewport: camera.viewportSize)
        guard shift.dx != 0 || shift.dy != 0 else { return }
        let ctx = beginInput()
        apply(RevealPan.change(panBy: shift.dx, shift.dy, in: ctx))
    }

    /// After a frame: the card's real buttons follow the card drawn (outside the snapshot).
    func syncCardButtonsAfterFrame() {
        guard lastScene.callout != nil || !cardButtons.names.isEmpty else { return }
        runOnGtkThread { [weak self] in
            guard let c = self, !c.isClosed else { return }
            c.cardButtons.sync(with: c.lastScene.callout)
        }
    }

    /// What a screen reader hears while a bubble's card is open (the map's description).
    var bubbleCardDescription: String? {
        guard let card = sceneState.bubbleCard else { return nil }
        let lines = card.lines.map { $0.hasPrefix("● ") ? String($0.dropFirst(2)) : $0 }
        var keys = "Enter zooms in"
        if card.buttons.contains(where: { $0.action == .listPlaces }) { keys += ", L lists the places" }
        return "Bubble: " + ([card.title] + lines).joined(separator: ". ") + ". " + keys + ", Escape closes."
    }
}
