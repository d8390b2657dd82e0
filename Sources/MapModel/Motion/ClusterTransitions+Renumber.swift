import ClusterCore

/// Motion across a renumbered data change: a remote source's next view (a PostGIS table, a
/// cluster tile file) numbers its places afresh, so a place index of the last frame names another
/// place of the new view, or none.
extension ClusterTransitions {
    /// The shown data was renumbered: places drawn in the last frame take their new index from
    /// `newID`; those without one are forgotten (they cannot fade out: their index would draw
    /// another place's name and colour, or none — a crash); a running transition ends. Bubbles
    /// keep their ids (a remote source's keys are stable from view to view).
    public mutating func renumberPoints(_ newID: (Int) -> Int?) {
        transition = nil
        itemsByID = [:]
        lastItems = lastItems.compactMap { placed in
            guard case .point(let i) = placed.item.kind else { return placed }
            guard let j = newID(i) else { return nil }
            var moved = placed
            moved.item.kind = .point(j)
            return moved
        }
    }
}
