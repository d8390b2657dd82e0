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
    public mutating func dropLabelsUnderMarks(clearance: Double = 2) {
        guard !labels.isEmpty, !(bubbles.isEmpty && pins.isEmpty && placeNames.isEmpty) else { return }
        var marks: [Box] = []
        marks.reserveCapacity(bubbles.count + pins.count)
        for b in bubbles where b.alpha > 0 {
            let r = b.radius + clearance
            marks.append(Box(minX: b.center.x - r, minY: b.center.y - r, maxX: b.center.x + r, maxY: b.center.y + r))
        }
        for p in pins where p.alpha > 0 {
            let m = PlaceNamePlacer.markBox(p)
            marks.append(Box(minX: m.minX - clearance, minY: m.minY - clearance, maxX: m.maxX + clearance, maxY: m.maxY + clearance))
        }
        // The data's own names (placed first) win over the base map's.
        for n in placeNames {
            marks.append(Box(minX: n.frame.minX, minY: n.frame.minY, maxX: n.frame.maxX, maxY: n.frame.maxY))
        }
        var grid = CollisionGrid(cellSize: 64)
        for m in marks { grid.insert(m) }
        labels.removeAll { l in
            var box = Box(minX: l.frame.minX, minY: l.frame.minY, maxX: l.frame.maxX, maxY: l.frame.maxY)
            if let d = l.dot { box = box.union(Box(minX: d.x - 3, minY: d.y - 3, maxX: d.x + 3, maxY: d.y + 3)) }
            return grid.hits(box)
        }
    }
}

extension ScenePin {
    /// Half the size a pin's mark covers on screen (the mark is 16 px plus its outline and
    /// shadow; its hit area is 24 px).
    public static let markRadius = 10.0
}
