import ClusterCore
import MapModel

/// Selection and the callout card (SPEC §5.3, §7), the same-spot fan (§5.4), hover (§5.5) and
/// keyboard focus (§5.7): the one place these states change.
extension MapPresentation {
    /// Selects a place: its card opens (growing, or fading under reduced motion) at `now`.
    public func select(point index: Int, now: Double, reducedMotion: Bool) -> [MapEvent] {
        guard let session else { return [] }
        // One card at a time: a bubble's card closes.
        var events = closeBubbleCard()
        state.selectedPoint = index
        state.callout = calloutContent(of: index, expanded: false)
        state.calloutFades = reducedMotion
        calloutOpenedAt = now
        containerCache = nil
        events.append(MapEvent("select", [("id", .int(index)), ("name", .string(session.places.name(of: index)))]))
        return events
    }

    /// Clears the selection (map click, Escape, the card's close button, its place removed).
    public func clearSelection() -> [MapEvent] {
        guard state.selectedPoint != nil else { return [] }
        state.selectedPoint = nil
        state.callout = nil
        calloutOpenedAt = nil
        return [MapEvent("deselect")]
    }

    /// The card of a place, measured, with its buttons; `expanded` shows the ids behind "More".
    public func calloutContent(of index: Int, expanded: Bool, copied: Bool = false) -> SceneState.CalloutContent {
        guard let session else { return SceneState.CalloutContent(pointIndex: index, title: "", lines: [], size: ScreenSize(width: 0, height: 0)) }
        let card = session.calloutText(of: index)
        var links: [(action: CalloutAction, title: String)] = [(.copyCoordinates, copied ? "Copied" : "Copy coordinates")]
        if !card.moreLines.isEmpty { links.append(expanded ? (.less, "Less") : (.more, "More")) }
        let lines = card.lines(expanded: expanded)
        let measured = labelRenderer.calloutCard(title: card.title, lines: lines, links: links,
                                                 maxHeight: expanded ? 360 : CalloutCardLayout.defaultMaxHeight)
        return SceneState.CalloutContent(pointIndex: index, title: card.title, lines: lines, size: measured.size,
                                         buttons: measured.buttons)
    }

    /// Whether the open card shows its "More" lines.
    public var isCalloutExpanded: Bool {
        state.callout?.buttons.contains { $0.action == .less } ?? false
    }

    /// What pressing a card's button asks of the owner beyond the presentation's own change.
    public enum CalloutButtonEffect: Equatable {
        /// Close the card (and any fan or list): the owner's "clear selection".
        case close
        /// Put this text on the clipboard; the card now says "Copied".
        case copy(String)
        /// The card changed in place ("More" / "Less").
        case changed
        /// Nothing (the card is no longer the one pressed).
        case none
    }

    /// A button on the open card of `index` was pressed.
    public func pressCalloutButton(_ action: CalloutAction, of index: Int) -> (effect: CalloutButtonEffect, events: [MapEvent]) {
        var events = [MapEvent("callout-button", [("id", .int(index)), ("action", .string(action.rawValue))])]
        switch action {
        case .close:
            return (.close, events)
        case .copyCoordinates:
            guard let session else { return (.none, events) }
            let text = PropertyFormat.coordinates(session.places.coordinates[index])
            events.append(MapEvent("copy", [("text", .string(text))]))
            _ = replaceCallout(calloutContent(of: index, expanded: isCalloutExpanded, copied: true))
            return (.copy(text), events)
        case .more, .less:
            return (replaceCallout(calloutContent(of: index, expanded: action == .more)) ? .changed : .none, events)
        case .zoomIn, .listPlaces:
            return (.none, events) // a bubble card's (`pressBubbleCardButton`)
        }
    }

    /// Swaps the open card's content in place (no grow animation); logged again at the next rest.
    private func replaceCallout(_ content: SceneState.CalloutContent) -> Bool {
        guard state.callout?.pointIndex == content.pointIndex else { return false }
        state.callout = content
        lastLoggedCallout = nil
        return true
    }

    // MARK: Fan

    /// Fans out the members of a same-spot bubble around it (a list is the owner's: see
    /// `SceneBuilder.fanLayout.prefersList`).
    public func openFan(cluster id: SceneItemID, leaves: [Int]) -> [MapEvent] {
        guard let session, let first = leaves.first else { return [] }
        state.fan = SceneState.Fan(cluster: id, center: session.places.coordinates[first], members: leaves)
        return [MapEvent("fan-open", [("count", .int(leaves.count))])]
    }

    /// Closes the fan, if one is open.
    public func closeFan() -> [MapEvent] {
        guard state.fan != nil else { return [] }
        state.fan = nil
        return [MapEvent("fan-close")]
    }

    // MARK: Hover and focus

    /// Most members used for the hover hull (a hull of a sample of a huge bubble looks the same).
    public static let maxHullMembers = 5_000

    /// Hovers `id` (nil: nothing); over a bubble its members make the hull. Whether it changed.
    public func hover(_ id: SceneItemID?) -> (changed: Bool, events: [MapEvent]) {
        guard id != state.hovered else { return (false, []) }
        state.hovered = id
        state.hoverMembers = []
        if case .cluster(let raw)? = id, let session {
            let leaves = session.shownIndex.leaves(of: ClusterID(rawValue: raw), limit: MapPresentation.maxHullMembers, offset: 0)
            state.hoverMembers = leaves.map { session.places.coordinates[$0] }
        }
        return (true, id.map { [MapEvent("hover", [("id", .int($0.logID))])] } ?? [])
    }

    /// Gives keyboard focus to `id` (nil: the map itself); logged with the item's words.
    public func focus(_ id: SceneItemID?) -> [MapEvent] {
        guard id != state.focused else { return [] }
        state.focused = id
        guard let id else { return [] }
        let kind: JSONValue = .string({ if case .cluster = id { return "bubble" } else { return "place" } }())
        return [MapEvent("focus", [("id", .int(id.logID)), ("name", .string(describe(id))), ("kind", kind)])]
    }

    /// Words for an item: "12 places, mostly museum" or the place's name.
    public func describe(_ id: SceneItemID) -> String {
        guard let session else { return "" }
        switch id {
        case .cluster(let raw):
            guard let item = session.bubbleItem(for: ClusterID(rawValue: raw)) else { return "" }
            return session.summary(of: item)
        case .point(let i):
            return session.places.name(of: i)
        }
    }
}
