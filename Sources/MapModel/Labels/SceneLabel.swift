import Foundation

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
        dropNamesOfNearbyPins(into: &drop, bounds: bounds)
        guard drop.contains(true) else { return }
        var k = 0
        labels.removeAll { _ in
            defer { k += 1 }
            return drop[k]
        }
    }
}

extension Scene {
    /// How far (logical pixels) a data place's drawn name may be from a base-map name it shares
    /// and still be taken for the same place ("London" the pin beside "London" the city).
    public static let sameNameDistance = 200.0

    /// Marks in `drop` the base-map names that a data place's name drawn near them repeats (case
    /// and accents aside): the data names the place, so the base map's name yields instead of
    /// naming it twice. (Only names drawn: a pin whose name is not shown leaves the base map's.)
    fileprivate func dropNamesOfNearbyPins(into drop: inout [Bool], bounds: Box) {
        guard !placeNames.isEmpty else { return }
        let reach = Scene.sameNameDistance
        var folded: [Int: String] = [:]
        for n in placeNames {
            let nx = n.frame.minX + n.frame.width / 2, ny = n.frame.minY + n.frame.height / 2
            guard nx >= bounds.minX - reach, nx <= bounds.maxX + reach, ny >= bounds.minY - reach, ny <= bounds.maxY + reach
            else { continue }
            // The pin's place: the dot if the name has one, else the near edge of its box.
            let px = n.dot?.x ?? nx, py = n.dot?.y ?? ny
            var name: String?
            for (i, l) in labels.enumerated() where !drop[i] {
                let a = l.dot ?? ScreenPoint(x: l.frame.minX + l.frame.width / 2, y: l.frame.minY + l.frame.height / 2)
                guard hypot(a.x - px, a.y - py) <= reach else { continue }
                if name == nil { name = Scene.foldedName(n.text) }
                if folded[i] == nil { folded[i] = Scene.foldedName(l.text) }
                if folded[i] == name { drop[i] = true }
            }
        }
    }

    /// A name as compared between sources: one line, without case or accents.
    static func foldedName(_ text: String) -> String {
        text.replacingOccurrences(of: "\n", with: " ").folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
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
