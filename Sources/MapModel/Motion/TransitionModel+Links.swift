extension TransitionModel {
    /// Links by position, for when the clusterer cannot say who came from whom: each child goes
    /// to the nearest parent within `maxDistance` that holds at least as many places (a part is
    /// never bigger than its whole).
    ///
    /// For a split pass `children: current, parents: previous` and use the result as `origins`;
    /// for a merge pass `children: previous, parents: current` and use it as `destinations`.
    /// - Complexity: O(children × parents); meant for the few hundred items on screen.
    public static func nearestLinks(children: [Item], parents: [Item], maxDistance: Double,
                                    wrapWidth: Double? = nil) -> [ID: ID] {
        var links: [ID: ID] = [:]
        let limit = maxDistance * maxDistance
        for child in children {
            var best: ID?
            var bestD = limit
            for parent in parents where parent.count >= child.count && parent.id != child.id {
                var dx = parent.position.x - child.position.x
                if let w = wrapWidth, w > 0 { dx -= (dx / w).rounded() * w }
                let dy = parent.position.y - child.position.y
                let d = dx * dx + dy * dy
                if d <= bestD { bestD = d; best = parent.id }
            }
            if let best { links[child.id] = best }
        }
        return links
    }
}
