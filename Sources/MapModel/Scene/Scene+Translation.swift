extension Scene {
    /// The scene moved by (dx, dy) screen pixels, keeping the bubbles, pins and names that reach
    /// into `bounds` grown by `margin` (what a pan layer's scene shows of the view it is copied to).
    public func translated(by dx: Double, _ dy: Double, keepingWithin bounds: ScreenRect, margin: Double) -> Scene {
        let minX = bounds.minX - margin, maxX = bounds.maxX + margin
        let minY = bounds.minY - margin, maxY = bounds.maxY + margin
        func inside(_ p: ScreenPoint) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
        func moved(_ p: ScreenPoint) -> ScreenPoint { ScreenPoint(x: p.x + dx, y: p.y + dy) }
        func moved(_ labels: [SceneLabel]) -> [SceneLabel] {
            labels.compactMap { l in
                var l = l
                l.frame.x += dx
                l.frame.y += dy
                l.dot = l.dot.map(moved)
                return l.frame.maxX > bounds.minX && l.frame.minX < bounds.maxX
                    && l.frame.maxY > bounds.minY && l.frame.minY < bounds.maxY ? l : nil
            }
        }
        var s = Scene()
        s.bubbles = bubbles.compactMap { b in
            var b = b
            b.center = moved(b.center)
            return inside(b.center) ? b : nil
        }
        s.pins = pins.compactMap { p in
            var p = p
            p.center = moved(p.center)
            return inside(p.center) ? p : nil
        }
        s.callout = callout.map { c in
            var c = c
            c.frame.x += dx
            c.frame.y += dy
            c.anchor = moved(c.anchor)
            return c
        }
        s.hull = hull.map(moved)
        s.fanLegs = fanLegs.map { SceneLeg(from: moved($0.from), to: moved($0.to)) }
        s.focusRing = focusRing.map { SceneFocusRing(id: $0.id, center: moved($0.center), radius: $0.radius) }
        s.labels = moved(labels)
        s.placeNames = moved(placeNames)
        return s
    }
}
