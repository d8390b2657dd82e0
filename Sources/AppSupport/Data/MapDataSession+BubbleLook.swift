import ClusterCore
import GeoData
import MapModel

extension MapDataSession {
    /// Colour for the categories a ring folds together.
    public static let otherCategoryColor: UInt32 = 0x9AA0A6

    /// How the session colours its bubbles (SPEC §7), or nil when only the count steps do.
    public enum BubbleColoring: Sendable, Equatable {
        /// Fill on the points' ramp by the members' maximum value (e.g. magnitude).
        case maximum(property: String, range: ClosedRange<Double>)
        /// A ring split by category (or by file, for several files).
        case categories
    }

    /// What the bubble colours mean for this data.
    public var bubbleColoring: BubbleColoring? {
        if sources.count > 1 { return .categories }
        guard let src = sources.first else { return nil }
        switch src.dataset?.coloring {
        case .numeric(let property)?:
            guard let range = places.numericRange(ofSource: 0) else { return nil }
            return .maximum(property: property, range: range)
        case .category?, nil:
            return src.points.categoryNames.count >= 2 ? .categories : nil
        case .plain?:
            return nil
        }
    }

    /// Sets each bubble's look from its members' aggregates: the ramp colour of their maximum,
    /// or a ring of their category shares. A bubble the index no longer knows (one fading out or
    /// gliding after a live change or a compaction) keeps the look it had, from `remembered`.
    public func decorateBubbles(in scene: inout Scene, remembered: [SceneItemID: BubbleLook] = [:]) {
        guard let coloring = bubbleColoring else { return }
        for i in scene.bubbles.indices {
            guard case .cluster(let raw) = scene.bubbles[i].id else { continue }
            if let item = shownIndex.item(for: ClusterID(rawValue: raw)) {
                scene.bubbles[i].look = look(of: shownIndex.aggregates(of: item), coloring: coloring)
            } else if let kept = remembered[scene.bubbles[i].id] {
                scene.bubbles[i].look = kept
            }
        }
    }

    func look(of agg: ClusterAggregates, coloring: BubbleColoring) -> BubbleLook {
        switch coloring {
        case .maximum(_, let range):
            guard let m = agg.maximum, range.upperBound > range.lowerBound else { return BubbleLook() }
            // Sixteen shades: the eye can't tell more apart on a bubble, and each shade is a
            // sprite per size (a continuous ramp filled the sprite cache with near-twins).
            let t = ((m - range.lowerBound) / (range.upperBound - range.lowerBound) * 15).rounded() / 15
            return BubbleLook(fill: PlaceColors.ramp(range.lowerBound + t * (range.upperBound - range.lowerBound), in: range))
        case .categories:
            let shares = agg.categoryCounts.map { c -> (color: UInt32, count: Int) in
                (c.category >= 0 ? PlaceColors.category(Int(c.category)) : MapDataSession.otherCategoryColor, c.count)
            }
            return BubbleLook(ring: BubbleLook.ring(shares, other: MapDataSession.otherCategoryColor))
        }
    }
}
