/// A base-map label in a scene, in screen coordinates (drawn under bubbles and pins).
public struct SceneLabel: Sendable, Equatable {
    /// The candidate's stable id.
    public var id: Int
    public var text: String
    public var kind: MapLabelKind
    /// The text box (for turned text, the box around it).
    public var frame: ScreenRect
    /// Direction of the text in radians (0 = left to right); the text is centred in `frame`.
    public var angle: Double
    /// The marked point of a point label (a city's dot).
    public var dot: ScreenPoint?
    /// Opacity from the zoom fade.
    public var alpha: Double

    public init(id: Int, text: String, kind: MapLabelKind, frame: ScreenRect, dot: ScreenPoint?, alpha: Double,
                angle: Double = 0) {
        self.id = id; self.text = text; self.kind = kind; self.frame = frame; self.dot = dot; self.alpha = alpha
        self.angle = angle
    }
}

extension Scene {
    /// Drops the labels that would touch a bubble or a pin (with its capsule), so data is never
    /// drawn over a name, nor a name half-hidden under data. Done after placement, so a dropped
    /// label's neighbours keep their places.
    ///
    /// The few labels go into a grid and each mark is tested against it (not the marks into a
    /// grid: a frame has up to thousands of marks and a handful of labels, and this runs every
    /// frame of a zoom animation). A pin's box, which needs its capsule's text, is worked out only
    /// for pins that could reach a label at all.
    public mutating func dropLabelsUnderMarks(clearance: Double = 2) {
        guard !labels.isEmpty, !(bubbles.isEmpty && pins.isEmpty && placeNames.isEmpty) else { return }
        var grid = CollisionGrid(cellSize: 64)
        var bounds = Box(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for l in labels {
            var box = Box(minX: l.frame.minX, minY: l.frame.minY, maxX: l.frame.maxX, maxY: l.frame.maxY)
            if let d = l.dot { box = box.union(Box(minX: d.x - 3, minY: d.y - 3, maxX: d.x + 3, maxY: d.y + 3)) }
            grid.insert(box)
            bounds = bounds.union(box)
        }
        var drop = [Bool](repeating: false, count: labels.count)
        func mark(_ m: Box) {
            guard m.intersects(bounds) else { return }
            grid.forEachHit(m) { drop[$0] = true }
        }
        for b in bubbles where b.alpha > 0 {
            let r = b.radius + clearance
            mark(Box(minX: b.center.x - r, minY: b.center.y - r, maxX: b.center.x + r, maxY: b.center.y + r))
        }
        for p in pins where p.alpha > 0 {
            // At most this far from its centre (`PlaceNamePlacer.markBox`: the round mark, or its
            // capsule beside it or centred on it, ≤ 7 px a character plus padding).
            let ex = ScenePin.markRadius + 2 + ScenePin.capsuleSlack + 7 * Double(p.label?.utf8.count ?? 0) + clearance
            let ey = max(ScenePin.markRadius + 2, 12) + clearance
            guard Box(minX: p.center.x - ex, minY: p.center.y - ey, maxX: p.center.x + ex, maxY: p.center.y + ey)
                .intersects(bounds) else { continue }
            let m = PlaceNamePlacer.markBox(p)
            mark(Box(minX: m.minX - clearance, minY: m.minY - clearance, maxX: m.maxX + clearance, maxY: m.maxY + clearance))
        }
        // The data's own names (placed first) win over the base map's.
        for n in placeNames {
            mark(Box(minX: n.frame.minX, minY: n.frame.minY, maxX: n.frame.maxX, maxY: n.frame.maxY))
        }
        guard drop.contains(true) else { return }
        var k = 0
        labels.removeAll { _ in
            defer { k += 1 }
            return drop[k]
        }
    }
}

extension ScenePin {
    /// Half the size a pin's mark covers on screen (the mark is 16 px plus its outline and
    /// shadow; its hit area is 24 px).
    public static let markRadius = 10.0
    /// Beyond `markRadius` and 7 px a character, the most a pin's capsule reaches from its centre
    /// (`SceneHitTester.labelRect`: 12 px of padding and the pin's radius and gap, or a marker
    /// capsule at least as wide as the hit area).
    static let capsuleSlack: Double = {
        let s = BubbleStyle()
        return 12 + 4 + s.pinRadius + 2 + 2 * (s.pinRadius + s.hitSlop)
    }()
}
