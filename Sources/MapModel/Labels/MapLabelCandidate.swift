/// What a base-map label names: its style, and (by declaration order) its rank among labels of
/// equal data priority.
public enum MapLabelKind: Int, Sendable, CaseIterable, Comparable {
    case ocean, sea, country, capital, city
    /// A street map's city (its top class of settlement), in a bigger, bolder type than its towns
    /// and villages so that a zoom-12 view reads by importance.
    case majorCity
    case town, village, lake, river
    /// A district, suburb or neighbourhood, or a state (from a street map's tiles).
    case district
    /// A street's name, placed along it (from a street map's tiles).
    case road
    /// A landmark's name: a church, museum, monument, station (from a street map's tiles).
    case landmark
    /// The name of one of the data's places, beside its pin (drawn by the scene, not the base map).
    case place

    public static func < (a: MapLabelKind, b: MapLabelKind) -> Bool { a.rawValue < b.rawValue }

    /// Whether the label marks a point with a small dot and sits beside it (cities at low zoom);
    /// otherwise the text is centred on its anchor (seas, countries, lakes, neighbourhoods).
    public var isPointLabel: Bool { self == .capital || self == .city || self == .majorCity || self == .town }

    /// Names of long things (rivers, streets) that may be offered several times along them, and
    /// are kept from repeating close together.
    public var repeatsAlongLines: Bool { self == .river || self == .road }
}

/// One label the base map may show: text at an anchor, within a zoom range.
///
/// Candidates are kept in priority order (most important first) in a `MapLabelIndex`; their
/// position in that order is their priority, and their `id` is stable across frames.
public struct MapLabelCandidate: Sendable, Equatable {
    /// Stable identity (the candidate's index in priority order).
    public var id: Int
    /// Text to show (plain text; may contain a line break for long sea names).
    public var text: String
    /// Anchor in unit-square Web Mercator coordinates (x east, y south, 0…1).
    public var x: Double
    public var y: Double
    public var kind: MapLabelKind
    /// Zoom range in which the label shows fully (fading in over `fadeZooms` before `minZoom` and
    /// out over `fadeZooms` before `maxZoom`).
    public var minZoom: Double
    public var maxZoom: Double
    /// Direction of the text in radians (0 = left to right; a street name follows its street).
    public var angle: Double

    public init(id: Int = 0, text: String, x: Double, y: Double, kind: MapLabelKind,
                minZoom: Double, maxZoom: Double = 30, angle: Double = 0) {
        self.id = id; self.text = text; self.x = x; self.y = y; self.kind = kind
        self.minZoom = minZoom; self.maxZoom = maxZoom; self.angle = angle
    }

    /// Opacity at a zoom: 1 from `minZoom` until `fadeZooms` before `maxZoom`, ramping in and out.
    public func alpha(atZoom z: Double) -> Double {
        let fadeIn = (z - minZoom) / MapLabelCandidate.fadeZooms + 1
        let fadeOut = (maxZoom - z) / MapLabelCandidate.fadeZooms
        return min(1, max(0, min(fadeIn, fadeOut)))
    }

    /// Zoom levels over which a label fades in or out.
    public static let fadeZooms = 0.5

    /// At rest a name is drawn fully or not at all: fully from this far into its fade (half way),
    /// so a name faint at one zoom never looks disabled on a still map (fading is for zooming).
    public static let restingAlpha = 0.5
}

/// Logical size of a label's text block, as measured by the renderer.
public struct MapLabelSize: Sendable, Equatable {
    public var width: Double
    public var height: Double
    public init(width: Double, height: Double) { self.width = width; self.height = height }
}
