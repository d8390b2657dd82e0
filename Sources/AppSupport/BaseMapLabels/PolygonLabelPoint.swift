import GeoData

/// Where a name goes inside an area (a sea, a lake): a point well inside it, far from its edges.
///
/// A small version of Mapbox's polylabel: sample a grid over the largest ring's box, keep the
/// inside point farthest from any edge, and refine the grid around it a few times. Exact enough
/// for placing text; cheap enough to run for a thousand lakes at load time.
enum PolygonLabelPoint {
    /// A point inside feature `f` of a polygon layer (unit coordinates), or nil for an empty feature.
    static func find(in layer: BaseMapLayer, feature f: Int) -> (x: Double, y: Double)? {
        let rings = layer.rings(ofFeature: f)
        guard !rings.isEmpty else { return nil }
        let ringRanges = rings.map { layer.vertices(ofRing: $0) }
        return layer.coordinates.withUnsafeBufferPointer { xy in search(xy, ringRanges) }
    }

    private static func search(_ xy: UnsafeBufferPointer<Double>, _ rings: [Range<Int>]) -> (x: Double, y: Double)? {
        // Search within the ring with the largest box (the main body of a multi-part sea).
        var best = UnitRect.empty, bestArea = -1.0
        for r in rings {
            var b = UnitRect.empty
            for v in r { b.include(x: xy[2 * v], y: xy[2 * v + 1]) }
            let area = (b.maxX - b.minX) * (b.maxY - b.minY)
            if area > bestArea { bestArea = area; best = b }
        }
        guard !best.isEmpty else { return nil }
        func signedDistance(_ px: Double, _ py: Double) -> Double {
            var inside = false
            var minD2 = Double.infinity
            for vs in rings {
                var j = vs.upperBound - 1
                for i in vs {
                    let ax = xy[2 * i], ay = xy[2 * i + 1], bx = xy[2 * j], by = xy[2 * j + 1]
                    if (ay > py) != (by > py), px < (bx - ax) * (py - ay) / (by - ay) + ax { inside.toggle() }
                    minD2 = min(minD2, segmentDistance2(px, py, ax, ay, bx, by))
                    j = i
                }
            }
            let d = minD2.squareRoot()
            return inside ? d : -d
        }
        var cx = (best.minX + best.maxX) / 2, cy = (best.minY + best.maxY) / 2
        var halfW = (best.maxX - best.minX) / 2, halfH = (best.maxY - best.minY) / 2
        var bestD = signedDistance(cx, cy)
        for round in 0..<4 {
            let n = round == 0 ? 8 : 4
            var nx = cx, ny = cy
            for a in 0...n {
                for b in 0...n {
                    let x = cx - halfW + 2 * halfW * Double(a) / Double(n)
                    let y = cy - halfH + 2 * halfH * Double(b) / Double(n)
                    let d = signedDistance(x, y)
                    if d > bestD { bestD = d; nx = x; ny = y }
                }
            }
            cx = nx; cy = ny
            halfW /= Double(n) / 2; halfH /= Double(n) / 2
        }
        return (cx, cy)
    }

    private static func segmentDistance2(_ px: Double, _ py: Double, _ ax: Double, _ ay: Double,
                                         _ bx: Double, _ by: Double) -> Double {
        var x = ax, y = ay
        let dx = bx - ax, dy = by - ay
        if dx != 0 || dy != 0 {
            let t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)
            if t > 1 { x = bx; y = by } else if t > 0 { x += dx * t; y += dy * t }
        }
        return (px - x) * (px - x) + (py - y) * (py - y)
    }
}
