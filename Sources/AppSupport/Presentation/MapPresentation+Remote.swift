import MapModel

/// A remote source's views (a PostGIS table, a cluster tile file): each view numbers its places
/// afresh, so what names a place of the last view follows its row into the next one or is dropped.
extension MapPresentation {
    /// Hover, focus and the last frame's places follow `newID` (the selection is the caller's,
    /// `dataDidChange`); a place whose row left the view is no longer hovered or focused (the
    /// map itself keeps the keys).
    func renumberPoints(_ newID: (Int) -> Int?) {
        transitions.renumberPoints(newID)
        state.hovered = state.hovered.flatMap { Self.renumbered($0, newID) }
        if state.hovered == nil { state.hoverMembers = [] }
        state.focused = state.focused.flatMap { Self.renumbered($0, newID) }
    }

    private static func renumbered(_ id: SceneItemID, _ newID: (Int) -> Int?) -> SceneItemID? {
        guard case .point(let i) = id else { return id }
        return newID(i).map { .point($0) }
    }

    /// Pins of places whose columns were read after their view take the name those give (the
    /// view named them by position).
    func nameLaterPlaces(in scene: inout Scene) {
        guard let session, session.hasLaterColumns else { return }
        for i in scene.pins.indices {
            if let name = session.laterName(of: scene.pins[i].pointIndex) { scene.pins[i].name = name }
        }
    }

    /// The columns of place `index` arrived after its view (`MapDataSession.setRemoteColumns`):
    /// its open card is read again in place. Whether it was open.
    public func placeColumnsDidArrive(_ index: Int) -> Bool {
        guard let open = state.callout, open.pointIndex == index else { return false }
        state.callout = calloutContent(of: index, expanded: isCalloutExpanded)
        lastLoggedCallout = nil
        return true
    }
}
