/// Douglas–Peucker simplification of base-map layers, for drawing at low zoom.
///
/// A frame's cost is mostly the edges cairo has to rasterise; at zoom 5 a 1:10m coast has ten
/// times the vertices a pixel can show. Each ring keeps the vertices that deviate more than
/// `tolerance` (unit coordinates) from the simplified line, always its first and last vertex, and
/// at least 4 vertices for a polygon ring (rings that would collapse are dropped: they are smaller
/// than the tolerance).
extension BaseMapLayer {
    /// A copy with every ring simplified to `tolerance` (unit-square coordinates).
    /// - Complexity: O(v log v) per ring on average.
    public func simplified(tolerance: Double) -> BaseMapLayer {
        var out = BaseMapLayer(kind: kind)
        out.coordinates.reserveCapacity(coordinates.count / 3)
        out.ringStarts = [0]
        out.featureRingStarts = [0]
        var keptFeatures: [Int] = []
        let t2 = tolerance * tolerance
        var keep = [Bool]()
        var stack: [(Int, Int)] = []
        for f in 0..<featureCount {
            let ringsBefore = out.ringCount
            var bounds = UnitRect.empty
            for r in rings(ofFeature: f) {
                let vs = vertices(ofRing: r)
                let n = vs.count
                if kind == .points || n <= 3 {
                    for v in vs { out.coordinates.append(coordinates[2 * v]); out.coordinates.append(coordinates[2 * v + 1]) }
                } else {
                    keep = [Bool](repeating: false, count: n)
                    keep[0] = true
                    keep[n - 1] = true
                    stack.removeAll(keepingCapacity: true)
                    stack.append((0, n - 1))
                    let base = vs.lowerBound
                    while let (a, b) = stack.popLast() {
                        guard b > a + 1 else { continue }
                        let ax = coordinates[2 * (base + a)], ay = coordinates[2 * (base + a) + 1]
                        let bx = coordinates[2 * (base + b)], by = coordinates[2 * (base + b) + 1]
                        let dx = bx - ax, dy = by - ay, len2 = dx * dx + dy * dy
                        var worst = -1.0, worstIndex = a
                        for i in (a + 1)..<b {
                            let px = coordinates[2 * (base + i)] - ax, py = coordinates[2 * (base + i) + 1] - ay
                            var d2: Double
                            if len2 == 0 {
                                d2 = px * px + py * py
                            } else {
                                let cross = px * dy - py * dx
                                d2 = cross * cross / len2
                                let t = (px * dx + py * dy) / len2
                                if t < 0 { d2 = px * px + py * py } else if t > 1 {
                                    d2 = (px - dx) * (px - dx) + (py - dy) * (py - dy)
                                }
                            }
                            if d2 > worst { worst = d2; worstIndex = i }
                        }
                        if worst > t2 {
                            keep[worstIndex] = true
                            stack.append((a, worstIndex))
                            stack.append((worstIndex, b))
                        }
                    }
                    let kept = keep.reduce(0) { $0 + ($1 ? 1 : 0) }
                    if kind == .polygons && kept < 4 { continue }
                    for i in 0..<n where keep[i] {
                        out.coordinates.append(coordinates[2 * (base + i)])
                        out.coordinates.append(coordinates[2 * (base + i) + 1])
                    }
                }
                out.ringStarts.append(Int32(out.coordinates.count / 2))
                for v in Int(out.ringStarts[out.ringCount - 1])..<out.vertexCount {
                    bounds.include(x: out.coordinates[2 * v], y: out.coordinates[2 * v + 1])
                }
            }
            guard out.ringCount > ringsBefore else { continue }
            out.featureRingStarts.append(Int32(out.ringCount))
            out.featureBounds.append(bounds)
            keptFeatures.append(f)
        }
        out.skippedFeatureCount = skippedFeatureCount
        out.numberColumns = numberColumns.mapValues { col in keptFeatures.map { col[$0] } }
        out.stringColumns = stringColumns.mapValues { col in keptFeatures.map { col[$0] } }
        if !featureMinZoom.isEmpty { out.featureMinZoom = keptFeatures.map { featureMinZoom[$0] } }
        if !featureWeight.isEmpty { out.featureWeight = keptFeatures.map { featureWeight[$0] } }
        return out.indexingChunks()
    }
}
