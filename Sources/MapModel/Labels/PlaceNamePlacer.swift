/// Names of the data's places beside their pins at high zoom (SPEC §7): where there is room, with
/// no overlaps, fewer when crowded.
///
/// The same greedy rule and collision code as the base-map labels (`MapLabelPlacer`): each name is
/// tried right of its mark, then left, above and below, and kept at the first position whose box,
/// grown by the placer's padding, meets nothing placed before — every bubble and pin (with its
/// price capsule) is placed first, so a name never covers data. Done in screen pixels from the
/// scene's positions only, so a pan moves every name with its pin.
public struct PlaceNamePlacer: Sendable {
    /// Names show from this zoom on (below it pins are too dense for names to help).
    public static let minZoom = 12.0
    /// At most this many names are tried in one frame.
    public var maxNames = 300
    /// The base-map placer whose padding and point positions are shared.
    public var placer = MapLabelPlacer()

    public init() {}

    /// The names for the pins of `scene` at `zoom`; `size(text)` measures a name. The selected
    /// pin is named first, then the pins in scene order.
    public func names(for scene: Scene, zoom: Double, size: (String) -> MapLabelSize) -> [SceneLabel] {
        guard zoom >= PlaceNamePlacer.minZoom, !scene.pins.isEmpty else { return [] }
        var grid = CollisionGrid(cellSize: 64)
        for b in scene.bubbles where b.alpha > 0 {
            grid.insert(Box(minX: b.center.x - b.radius, minY: b.center.y - b.radius,
                            maxX: b.center.x + b.radius, maxY: b.center.y + b.radius))
        }
        var marks: [Box] = []
        for p in scene.pins {
            let m = PlaceNamePlacer.markBox(p)
            marks.append(m)
            grid.insert(m)
        }
        if let c = scene.callout {
            grid.insert(Box(minX: c.frame.minX, minY: c.frame.minY, maxX: c.frame.maxX, maxY: c.frame.maxY))
        }
        var order = Array(scene.pins.indices)
        order.sort { scene.pins[$0].isSelected && !scene.pins[$1].isSelected }
        var names: [SceneLabel] = []
        for i in order.prefix(maxNames) {
            let pin = scene.pins[i]
            guard pin.alpha > 0.5, !pin.name.isEmpty else { continue }
            let s = size(pin.name)
            let m = marks[i]
            let gap = placer.dotGap
            let midY = (m.minY + m.maxY) / 2, midX = (m.minX + m.maxX) / 2
            let positions = [
                Box(minX: m.maxX + gap, minY: midY - s.height / 2, maxX: m.maxX + gap + s.width, maxY: midY + s.height / 2),
                Box(minX: m.minX - gap - s.width, minY: midY - s.height / 2, maxX: m.minX - gap, maxY: midY + s.height / 2),
                Box(minX: midX - s.width / 2, minY: m.minY - gap - s.height, maxX: midX + s.width / 2, maxY: m.minY - gap),
                Box(minX: midX - s.width / 2, minY: m.maxY + gap, maxX: midX + s.width / 2, maxY: m.maxY + gap + s.height),
            ]
            for box in positions {
                let padded = Box(minX: box.minX - placer.padding, minY: box.minY - placer.padding,
                                 maxX: box.maxX + placer.padding, maxY: box.maxY + placer.padding)
                guard !grid.hits(padded) else { continue }
                grid.insert(box)
                names.append(SceneLabel(id: pin.pointIndex, text: pin.name, kind: .place,
                                        frame: ScreenRect(x: box.minX, y: box.minY, width: box.maxX - box.minX,
                                                          height: box.maxY - box.minY),
                                        dot: nil, alpha: pin.alpha))
                break
            }
        }
        return names
    }

    /// What a pin covers: its round mark, or the capsule that is its marker (a price).
    static func markBox(_ p: ScenePin) -> Box {
        var r = ScenePin.markRadius
        if p.isSelected { r += 2 }
        var box = Box(minX: p.center.x - r, minY: p.center.y - r, maxX: p.center.x + r, maxY: p.center.y + r)
        if let label = p.label, !label.isEmpty {
            let c = SceneHitTester.labelRect(for: p.center, text: label)
            let capsule = Box(minX: c.minX, minY: c.minY, maxX: c.maxX, maxY: c.maxY)
            box = PinLabel.isMarker(label) ? capsule : box.union(capsule)
        }
        return box
    }
}

/// Pin labels that are the marker itself.
public enum PinLabel {
    /// Signs that start a price (checked for every pin of every frame: made once).
    private static let currencySigns: Set<Character> = ["$", "€", "£", "¥", "₹", "₩", "₽", "₺", "₪", "฿"]

    /// Whether a label is price-like ("$120", "€86", "1,200 kr"): then its capsule is the marker
    /// (as on the apps people book stays with), centred on the place, instead of a capsule beside
    /// a round pin.
    public static func isMarker(_ label: String) -> Bool {
        guard let first = label.unicodeScalars.first else { return false }
        if currencySigns.contains(Character(first)) { return label.dropFirst().first?.isNumber ?? false }
        return Character(first).isNumber && label.count <= 10
    }
}
