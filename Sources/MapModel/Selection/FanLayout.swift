import Foundation

/// Where the members of a same-spot bubble go when it fans out (SPEC §5.4): a circle for up to
/// `circleLimit` members, an Archimedean spiral above that (as Leaflet.markercluster's spiderfy).
public struct FanLayout: Sendable {
    /// Up to this many members sit on a circle.
    public var circleLimit = 8
    /// Above this many members a list is shown instead of a fan.
    public var listThreshold = 50
    /// Arc length between neighbours on the circle, in logical pixels (more than a pin's 24-px
    /// hit area, so each fanned pin can be hit on its own).
    public var circleSpacing: Double = 34
    /// Smallest circle radius.
    public var minimumCircleRadius: Double = 30
    /// Spiral: distance between neighbours along the spiral and growth per turn.
    public var spiralSpacing: Double = 28
    public var spiralGrowthPerTurn: Double = 30
    /// Starting radius of the spiral.
    public var spiralStartRadius: Double = 26

    public init() {}

    /// Whether `count` members are better picked from a list than fanned out.
    public func prefersList(count: Int) -> Bool { count > listThreshold }

    /// Screen offsets from the bubble's centre for `count` members, in member order.
    public func offsets(count: Int) -> [ScreenPoint] {
        guard count > 0 else { return [] }
        if count <= circleLimit {
            let r = max(minimumCircleRadius, circleSpacing * Double(count) / (2 * .pi))
            // Start at the top (−π/2) so one member is straight above and the fan looks balanced.
            return (0..<count).map { i in
                let a = -Double.pi / 2 + 2 * .pi * Double(i) / Double(count)
                return ScreenPoint(x: r * cos(a), y: r * sin(a))
            }
        }
        var out: [ScreenPoint] = []
        out.reserveCapacity(count)
        var angle = 0.0
        var radius = spiralStartRadius
        for _ in 0..<count {
            out.append(ScreenPoint(x: radius * cos(angle), y: radius * sin(angle)))
            // Step along the spiral by roughly constant arc length.
            let step = spiralSpacing / radius
            angle += step
            radius += spiralGrowthPerTurn * step / (2 * .pi)
        }
        return out
    }
}
