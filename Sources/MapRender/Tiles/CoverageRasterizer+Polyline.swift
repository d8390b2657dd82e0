import Foundation

extension CoverageRasterizer {
    /// Strokes a polyline (device pixels; a closed one repeats its first point at the end) as one
    /// outline: each segment's two sides, joined at every vertex, with round joins and caps (square
    /// ends for thin lines, half width under 1 px). Shared by the vector-tile painter and the base
    /// map's `PathStroker`.
    ///
    /// Why an outline and not a quad per segment: a quad's two ends are edges up to a full width
    /// tall at every vertex, and a dense street tile is mostly short segments, so they were about
    /// half of all edge rows (and the round joins an octagon of eight edges more). The outline is
    /// the union of the segment quads and the join wedges, with the same orientation, so its
    /// |winding| clamped to 1 covers exactly that union (see `addJoin`).
    func addPolyline(_ xs: [Double], _ ys: [Double], halfWidth h: Double, closed: Bool) {
        xs.withUnsafeBufferPointer { x in
            ys.withUnsafeBufferPointer { y in
                guard let x = x.baseAddress, let y = y.baseAddress else { return }
                addPolyline(x, y, count: min(xs.count, ys.count), halfWidth: h, closed: closed)
            }
        }
    }

    /// `addPolyline` over `count` points in raw buffers (the tile painter's reused scratch).
    /// `roundEnds` overrides the choice by width (tests draw thin lines magnified).
    func addPolyline(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, count n: Int, halfWidth h: Double, closed: Bool,
                     roundEnds: Bool? = nil) {
        guard n >= 2, h > 0, h.isFinite else { return }
        // The first and last segments of non-zero length (a closed line needs at least two).
        var first = 1, last = n - 1
        while first < n && xs[first] == xs[first - 1] && ys[first] == ys[first - 1] { first += 1 }
        guard first < n else {
            if roundEnds ?? (h >= 1) { addOctagon(xs[0], ys[0], h) }  // a dot
            return
        }
        while xs[last] == xs[last - 1] && ys[last] == ys[last - 1] { last -= 1 }
        let roundEnds = roundEnds ?? (h >= 1)
        // The previous segment: end point, unit direction, length; and the first one (for closing).
        var px = 0.0, py = 0.0, pux = 0.0, puy = 0.0, plen = 0.0
        var fux = 0.0, fuy = 0.0, flen = 0.0
        for i in first...last {
            var ax = xs[i - 1], ay = ys[i - 1], bx = xs[i], by = ys[i]
            let dx = bx - ax, dy = by - ay
            guard dx != 0 || dy != 0 else { continue }
            let len = (dx * dx + dy * dy).squareRoot()
            let ux = dx / len, uy = dy / len
            let nx = -uy * h, ny = ux * h
            if i == first {
                fux = ux; fuy = uy; flen = len
                if !closed {
                    if roundEnds {
                        addArc(ax, ay, -nx, -ny, to: ax + nx, ay + ny, turning: -Double.pi, radius: h)
                    } else {
                        ax -= ux * h; ay -= uy * h
                        addEdge(ax - nx, ay - ny, ax + nx, ay + ny)
                    }
                }
            } else {
                addJoin(ax, ay, h: h, from: (pux, puy, plen), to: (ux, uy, len))
            }
            if i == last && !closed && !roundEnds { bx += ux * h; by += uy * h }
            addEdge(ax + nx, ay + ny, bx + nx, by + ny)
            addEdge(bx - nx, by - ny, ax - nx, ay - ny)
            px = bx; py = by; pux = ux; puy = uy; plen = len
        }
        if closed {
            addJoin(px, py, h: h, from: (pux, puy, plen), to: (fux, fuy, flen), target: (xs[first - 1], ys[first - 1]))
        } else {
            let nx = -puy * h, ny = pux * h
            if roundEnds {
                addArc(px, py, nx, ny, to: px - nx, py - ny, turning: -Double.pi, radius: h)
            } else {
                addEdge(px + nx, py + ny, px - nx, py - ny)
            }
        }
    }

    /// Connects the sides of two segments meeting at (`x`, `y`) (the previous one ends there, the
    /// next starts at `target`, the same point unless a closed line's ends differ).
    ///
    /// Orientation: each segment's sides are added left forward and right backward, so its quad
    /// is one consistently wound ring; the outer side gets the arc from one side's end to the
    /// next's start (the wedge between the quads, wound the same way), and the inner side goes
    /// through the vertex itself. Summed, the outline's winding is that of the quads plus the
    /// wedges, none negative: |winding| ≥ 1 on their union, 0 outside. The inner side's detour
    /// through the vertex is left out when the chord between the two sides' ends lies inside
    /// both quads (h·sin(turn) ≤ both lengths): the triangle that removes counts −1 where the
    /// quads count +2.
    private func addJoin(_ x: Double, _ y: Double, h: Double, from p: (ux: Double, uy: Double, len: Double),
                         to c: (ux: Double, uy: Double, len: Double), target: (Double, Double)? = nil) {
        let (tx, ty) = target ?? (x, y)
        let pnx = -p.uy * h, pny = p.ux * h, cnx = -c.uy * h, cny = c.ux * h
        let cross = p.ux * c.uy - p.uy * c.ux, dot = p.ux * c.ux + p.uy * c.uy
        let chordInside = h * abs(cross) <= min(p.len, c.len)
        // The outer side: one chord while it stays within 0.3 px of the round join (h·(1 − cos ½turn),
        // no trigonometry: most vertices of a street are gentle bends), else an arc.
        let bevel = h * (1 - ((1 + dot) * 0.5).squareRoot()) <= 0.3
        if cross >= 0 {
            // Turning towards the left side: left inner, right outer. (A reversal, cross ±0, turns
            // by +π here: atan2(−0, −1) would be −π, an arc round the inside.)
            if chordInside {
                addEdge(x + pnx, y + pny, tx + cnx, ty + cny)
            } else {
                addEdge(x + pnx, y + pny, x, y)
                addEdge(x, y, tx + cnx, ty + cny)
            }
            if bevel {
                addEdge(tx - cnx, ty - cny, x - pnx, y - pny)
            } else {
                addArc(tx, ty, -cnx, -cny, to: x - pnx, y - pny, turning: -atan2(abs(cross), dot), radius: h)
            }
        } else {
            if bevel {
                addEdge(x + pnx, y + pny, tx + cnx, ty + cny)
            } else {
                addArc(x, y, pnx, pny, to: tx + cnx, ty + cny, turning: atan2(cross, dot), radius: h)
            }
            if chordInside {
                addEdge(tx - cnx, ty - cny, x - pnx, y - pny)
            } else {
                addEdge(tx - cnx, ty - cny, x, y)
                addEdge(x, y, x - pnx, y - pny)
            }
        }
    }

    /// Edges from (`cx`, `cy`) + (`vx`, `vy`) round the centre by `angle` (radians, signed) to
    /// (`ex`, `ey`), in pieces short enough for each chord to stay within 0.3 px of a circle of
    /// `radius` (at least 22.5° each). The last edge ends exactly at (`ex`, `ey`), so the outline
    /// stays closed.
    private func addArc(_ cx: Double, _ cy: Double, _ vx: Double, _ vy: Double, to ex: Double, _ ey: Double,
                        turning angle: Double, radius: Double) {
        let step = max(Double.pi / 8, 2 * acos(max(-1, 1 - 0.3 / radius)))
        var x = cx + vx, y = cy + vy
        let pieces = abs(angle) / step
        if pieces > 1 {
            let k = Int(pieces.rounded(.up))
            let a = angle / Double(k)
            let cosA = cos(a), sinA = sin(a)
            // The points between the ends a little outside the circle, so that the pieces enclose
            // the sector's area (½R²·sin a = ½r²·a): inscribed, a round cap of 45° pieces lost a
            // tenth of its area.
            let out = (abs(a) / abs(sinA)).squareRoot()
            var rx = vx, ry = vy
            for _ in 1..<k {
                (rx, ry) = (rx * cosA - ry * sinA, rx * sinA + ry * cosA)
                let nx = cx + rx * out, ny = cy + ry * out
                addEdge(x, y, nx, ny)
                x = nx; y = ny
            }
        }
        addEdge(x, y, ex, ey)
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
