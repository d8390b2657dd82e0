import Foundation
import GeoData

/// Where a river's name goes: a point along its longest line (the middle first), turned to the
/// river's general direction there (measured between points a sixth of the line's length before
/// and after, so a bend right at that point doesn't turn the whole name).
enum RiverLabelPoint {
    /// The anchor (unit square) and angle (radians, within ±π/2 so the name never reads upside
    /// down), or nil for a feature without a line of two points.
    static func find(in layer: BaseMapLayer, feature f: Int, fraction: Double = 0.5) -> (x: Double, y: Double, angle: Double)? {
        let c = layer.coordinates
        var best: (ring: Int, length: Double)?
        for r in layer.rings(ofFeature: f) {
            let v = layer.vertices(ofRing: r)
            guard v.count >= 2 else { continue }
            var length = 0.0
            for i in v.dropFirst() { length += hypot(c[2 * i] - c[2 * i - 2], c[2 * i + 1] - c[2 * i - 1]) }
            if length > (best?.length ?? 0) { best = (r, length) }
        }
        guard let best, best.length > 0 else { return nil }
        let v = layer.vertices(ofRing: best.ring)
        /// The point `distance` along the line.
        func point(at distance: Double) -> (x: Double, y: Double) {
            var walked = 0.0
            for i in v.dropFirst() {
                let ax = c[2 * i - 2], ay = c[2 * i - 1], bx = c[2 * i], by = c[2 * i + 1]
                let d = hypot(bx - ax, by - ay)
                if walked + d >= distance, d > 0 {
                    let t = (distance - walked) / d
                    return (ax + (bx - ax) * t, ay + (by - ay) * t)
                }
                walked += d
            }
            return (c[2 * (v.upperBound - 1)], c[2 * (v.upperBound - 1) + 1])
        }
        let mid = point(at: best.length * fraction)
        let a = point(at: best.length * max(0, fraction - 1.0 / 6)), b = point(at: best.length * min(1, fraction + 1.0 / 6))
        var angle = atan2(b.y - a.y, b.x - a.x)
        if angle > .pi / 2 { angle -= .pi } else if angle < -.pi / 2 { angle += .pi }
        return (mid.x, mid.y, angle)
    }
}
