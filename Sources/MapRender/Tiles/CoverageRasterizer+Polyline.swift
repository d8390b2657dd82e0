import Foundation

extension CoverageRasterizer {
    /// Strokes a polyline (device pixels; a closed one repeats its first point at the end) as one
    /// quad per segment. Thin lines (half width under 1 px) get square ends half a width long, which
    /// closes the gaps at bends; wider ones get an octagon (a round join or cap) at the ends and
    /// where the line turns enough for the gap on the outside of the bend to show (more than
    /// ~0.3 px): most vertices of a street or a coast are gentle bends, and an octagon each would
    /// triple the edges. Shared by the vector-tile painter and the base map's `PathStroker`.
    func addPolyline(_ xs: [Double], _ ys: [Double], halfWidth h: Double, closed: Bool) {
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                guard let x = x.baseAddress, let y = y.baseAddress else { return }
                addPolyline(x, y, count: min(xs.count, ys.count), halfWidth: h, closed: closed)
            }
        }
    }

    /// `addPolyline` over `count` points in raw buffers (the tile painter's reused scratch).
    func addPolyline(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, count n: Int, halfWidth h: Double, closed: Bool) {
        guard n >= 2 else { return }
        let roundJoins = h >= 1
        for i in 1..<n {
            let ax = xs[i - 1], ay = ys[i - 1], bx = xs[i], by = ys[i]
            let len = ((bx - ax) * (bx - ax) + (by - ay) * (by - ay)).squareRoot()
            guard len > 0 else { continue }
            let ux = (bx - ax) / len, uy = (by - ay) / len
            let nx = -uy * h, ny = ux * h
            let ext = roundJoins ? 0 : h
            let sx = ax - ux * ext, sy = ay - uy * ext, ex = bx + ux * ext, ey = by + uy * ext
            addQuad(sx + nx, sy + ny, ex + nx, ey + ny, ex - nx, ey - ny, sx - nx, sy - ny)
        }
        guard roundJoins else { return }
        for i in 0..<n {
            let isEnd = !closed && (i == 0 || i == n - 1)
            if !isEnd {
                let p = i == 0 ? n - 2 : i - 1, q = i == n - 1 ? 1 : i + 1
                guard p >= 0, q < n else { continue }
                let ax = xs[i] - xs[p], ay = ys[i] - ys[p], bx = xs[q] - xs[i], by = ys[q] - ys[i]
                let la = (ax * ax + ay * ay).squareRoot(), lb = (bx * bx + by * by).squareRoot()
                guard la > 0, lb > 0 else { continue }
                let sinTurn = abs(ax * by - ay * bx) / (la * lb)
                let cosTurn = (ax * bx + ay * by) / (la * lb)
                if cosTurn > 0 && h * sinTurn < 0.3 { continue }
            }
            addOctagon(xs[i], ys[i], h)
        }
    }

    /// A regular octagon whose area matches the circle's closely enough at these sizes.
    func addOctagon(_ cx: Double, _ cy: Double, _ r: Double) {
        let k = r * 1.02
        let c = k * 0.9238795, s = k * 0.3826834
        // The ring's eight edges added directly: two arrays per octagon (one at every end and
        // sharp bend of a wide line) were thousands of allocations per tile.
        addEdge(cx + c, cy - s, cx + c, cy + s)
        addEdge(cx + c, cy + s, cx + s, cy + c)
        addEdge(cx + s, cy + c, cx - s, cy + c)
        addEdge(cx - s, cy + c, cx - c, cy + s)
        addEdge(cx - c, cy + s, cx - c, cy - s)
        addEdge(cx - c, cy - s, cx - s, cy - c)
        addEdge(cx - s, cy - c, cx + s, cy - c)
        addEdge(cx + s, cy - c, cx + c, cy - s)
    }
}
