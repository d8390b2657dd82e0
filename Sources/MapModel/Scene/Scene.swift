import ClusterCore

/// What one frame shows on top of the base map, in screen coordinates: a plain list of things to
/// draw, built by `SceneBuilder` and painted by MapRender. Pure data, so tests read it as text.
public struct Scene: Sendable, Equatable {
    /// Count bubbles, in drawing order.
    public var bubbles: [SceneBubble] = []
    /// Single places, in drawing order (the selected one last, on top).
    public var pins: [ScenePin] = []
    /// The open callout, if a place is selected and in view.
    public var callout: SceneCallout?
    /// Outline of the hovered bubble's members (convex hull), if any.
    public var hull: [ScreenPoint] = []
    /// Legs of an open same-spot fan: from the bubble's centre to each fanned pin.
    public var fanLegs: [SceneLeg] = []
    /// Keyboard focus ring around an item, if the map has keyboard focus on one.
    public var focusRing: SceneFocusRing?
    /// Base-map names (seas, countries, cities), drawn first, under everything else.
    public var labels: [SceneLabel] = []
    /// The data's place names beside their pins at high zoom (`PlaceNamePlacer`), drawn over
    /// the base-map names and under the marks.
    public var placeNames: [SceneLabel] = []

    public init() {}

    /// Whether nothing is drawn over the base map.
    public var isEmpty: Bool { bubbles.isEmpty && pins.isEmpty && callout == nil }
}

/// Identifies a drawn item across frames: a cluster by its ClusterCore id, a place by its index in
/// the loaded point set.
public enum SceneItemID: Hashable, Sendable, CustomStringConvertible {
    case cluster(Int)
    case point(Int)

    /// A single integer for the event log: point indices as they are, clusters offset so the two
    /// never collide (cluster ids from ClusterCore are already distinct from point positions).
    public var logID: Int {
        switch self {
        case .cluster(let id): return id
        case .point(let index): return index
        }
    }

    public var description: String {
        switch self {
        case .cluster(let id): return "cluster \(id)"
        case .point(let i): return "point \(i)"
        }
    }
}

/// A count bubble.
public struct SceneBubble: Sendable, Equatable {
    public var id: SceneItemID
    public var center: ScreenPoint
    public var radius: Double
    public var count: Int
    /// Short count text drawn inside (`999`, `1.2k`).
    public var label: String
    /// Style step by count (0: < 100, 1: < 750, 2: ≥ 750).
    public var step: Int
    /// Opacity 0…1 (fades when splitting or merging).
    public var alpha: Double = 1
    /// Size factor (1: as is; a new bubble pops up from small).
    public var scale: Double = 1
    /// The selected place is inside this bubble.
    public var containsSelection = false
    /// The pointer is over this bubble.
    public var isHovered = false
    /// What its colour says about its members (SPEC §7), when the data carries meaning in colour.
    public var look = BubbleLook()

    public init(id: SceneItemID, center: ScreenPoint, radius: Double, count: Int, label: String, step: Int) {
        self.id = id; self.center = center; self.radius = radius; self.count = count
        self.label = label; self.step = step
    }
}

/// A single place.
public struct ScenePin: Sendable, Equatable {
    public var id: SceneItemID
    /// Index in the loaded point set.
    public var pointIndex: Int
    public var center: ScreenPoint
    public var name: String
    /// Short text drawn in a capsule beside the pin (e.g. a price), if the place has a `label`.
    public var label: String?
    /// Fill colour as 0xRRGGBB.
    public var color: UInt32
    public var isSelected = false
    public var isHovered = false
    public var alpha: Double = 1
    /// Size factor (1: as is; a new place pops up from small).
    public var scale: Double = 1

    public init(id: SceneItemID, pointIndex: Int, center: ScreenPoint, name: String, label: String?, color: UInt32) {
        self.id = id; self.pointIndex = pointIndex; self.center = center; self.name = name
        self.label = label; self.color = color
    }
}

/// The details box of the selected place.
public struct SceneCallout: Sendable, Equatable {
    public var pointIndex: Int
    /// The box, above the pin, in screen coordinates.
    public var frame: ScreenRect
    /// Tip of the pointer arrow (at the pin).
    public var anchor: ScreenPoint
    public var title: String
    /// Text lines after the title (label, description, other properties), already cut to fit.
    public var lines: [String]
    /// The close button and footer links, relative to the frame's top-left corner.
    public var buttons: [CalloutButton] = []
    /// The bubble whose card this is (issue 29 item 5), nil for a place's callout; its
    /// `pointIndex` is then −1.
    public var bubble: SceneItemID?
    /// A colour swatch drawn on the first character of each line (a category's colour), or nil.
    public var swatches: [UInt32?] = []
    /// Appearance progress 0…1 (grows, or fades under reduced motion).
    public var progress: Double = 1
    /// Whether a `progress` below 1 fades the callout in (reduced motion) instead of growing it
    /// from the anchor.
    public var fades = false

    public init(pointIndex: Int, frame: ScreenRect, anchor: ScreenPoint, title: String, lines: [String]) {
        self.pointIndex = pointIndex; self.frame = frame; self.anchor = anchor; self.title = title; self.lines = lines
    }
}

/// A thin line from a same-spot bubble to one of its fanned-out places.
public struct SceneLeg: Sendable, Equatable {
    public var from: ScreenPoint
    public var to: ScreenPoint
    public init(from: ScreenPoint, to: ScreenPoint) { self.from = from; self.to = to }
}

/// The keyboard focus ring.
public struct SceneFocusRing: Sendable, Equatable {
    public var id: SceneItemID
    public var center: ScreenPoint
    public var radius: Double
    public init(id: SceneItemID, center: ScreenPoint, radius: Double) { self.id = id; self.center = center; self.radius = radius }
}

/// A bubble's colour from its members (SPEC §7): a fill on the points' value ramp (e.g. the
/// strongest earthquake's magnitude), and/or a ring split by category share. The default look is
/// the fill of the count step and no ring.
public struct BubbleLook: Sendable, Hashable {
    /// Fill colour 0xRRGGBB, or nil for the count step's colour.
    public var fill: UInt32?
    /// Ring segments around the bubble, clockwise from the top: colour and share in 24ths
    /// (quantised so a few sprites serve every bubble).
    public var ring: [RingSegment] = []

    public init(fill: UInt32? = nil, ring: [RingSegment] = []) { self.fill = fill; self.ring = ring }

    /// One category's part of the ring.
    public struct RingSegment: Sendable, Hashable {
        public var color: UInt32
        public var twentyFourths: Int
        public init(color: UInt32, twentyFourths: Int) { self.color = color; self.twentyFourths = twentyFourths }
    }

    /// Ring segments for category counts (largest first), quantised to 24ths that add up to 24;
    /// categories too small for one 24th are folded into the last segment's colour `other`.
    public static func ring(_ shares: [(color: UInt32, count: Int)], other: UInt32) -> [RingSegment] {
        let total = shares.reduce(0) { $0 + $1.count }
        guard total > 0 else { return [] }
        var out: [RingSegment] = []
        var used = 0, rest = 0
        for s in shares {
            let n = Int((Double(s.count) * 24 / Double(total)).rounded())
            if n == 0 || out.count == 5 { rest += s.count; continue }
            out.append(RingSegment(color: s.color, twentyFourths: n))
            used += n
        }
        if rest > 0, used < 24 { out.append(RingSegment(color: other, twentyFourths: 24 - used)); used = 24 }
        if used != 24, !out.isEmpty { out[0].twentyFourths += 24 - used }
        return out.filter { $0.twentyFourths > 0 }
    }
}
