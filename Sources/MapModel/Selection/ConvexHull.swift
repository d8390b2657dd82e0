/// Convex hull of screen points (Andrew's monotone chain), for the hover outline of a bubble.
public enum ConvexHull {
    /// The hull in counter-clockwise order (in y-down screen space: clockwise on screen), without
    /// repeating the first point. Fewer than three distinct points give those points.
    /// - Complexity: O(n log n).
    public static func hull(of points: [ScreenPoint]) -> [ScreenPoint] {
        let sorted = Array(Set(points)).sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard sorted.count >= 3 else { return sorted }
        func cross(_ o: ScreenPoint, _ a: ScreenPoint, _ b: ScreenPoint) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [ScreenPoint] = []
        for p in sorted {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        var upper: [ScreenPoint] = []
        for p in sorted.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        return Array(lower.dropLast() + upper.dropLast())
    }
}
