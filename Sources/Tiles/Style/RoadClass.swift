/// Road classes shared by the built-in styles: one look for the same kind of road whatever the
/// schema calls it.
public enum RoadClass: String, CaseIterable, Sendable {
    case motorway, trunk, primary, secondary, tertiary, minor, service, pedestrian, path, rail

    /// Fill width in logical pixels on a 512-px tile, by tile zoom. Roads stay thin at city scale
    /// so the data on top reads first; they widen toward street level, and keep widening past
    /// zoom 16 (over-zoomed tiles, map zoom 17–19) as the streets themselves do on screen.
    public var width: ZoomFunction {
        typealias S = ZoomFunction.Stop
        switch self {
        case .motorway: return ZoomFunction([S(5, 0.6), S(8, 1.2), S(11, 2.2), S(14, 5.5), S(16, 11), S(18, 30)])
        case .trunk: return ZoomFunction([S(6, 0.5), S(9, 1.0), S(11, 2.0), S(14, 5.0), S(16, 10), S(18, 27)])
        case .primary: return ZoomFunction([S(7, 0.5), S(10, 1.0), S(12, 2.0), S(14, 4.6), S(16, 9), S(18, 25)])
        case .secondary: return ZoomFunction([S(9, 0.5), S(12, 1.4), S(14, 3.8), S(16, 8), S(18, 22)])
        case .tertiary: return ZoomFunction([S(10, 0.5), S(12, 1.0), S(14, 3.2), S(16, 7), S(18, 19)])
        case .minor: return ZoomFunction([S(12, 0.4), S(13, 0.9), S(14, 2.2), S(16, 5.5), S(18, 15)])
        case .service: return ZoomFunction([S(13, 0.4), S(14, 1.1), S(16, 3), S(18, 8)])
        // As wide as a street: a lane of the old town is walked, not a footpath.
        case .pedestrian: return ZoomFunction([S(13, 0.6), S(14, 1.8), S(16, 5), S(18, 14)])
        case .path: return ZoomFunction([S(13, 0.5), S(14, 0.8), S(16, 1.4), S(18, 2.6)])
        case .rail: return ZoomFunction([S(10, 0.5), S(14, 1.0), S(16, 1.6), S(18, 2.6)])
        }
    }

    /// Shallowest tile zoom the class is drawn at.
    public var minZoom: Double {
        switch self {
        case .motorway: return 4
        case .trunk: return 5
        case .primary: return 7
        case .secondary: return 9
        case .tertiary: return 10
        case .minor: return 12
        case .service, .pedestrian, .path: return 13
        case .rail: return 10
        }
    }

    /// Fill colour: white streets, a soft sand for the big roads (in the spirit of GNOME Maps and
    /// OSM Bright, but muted so it never competes with the bubbles).
    public var fill: StyleColor {
        switch self {
        case .motorway: return StyleColor(0xF7D9A8, 0x6B5A40)
        case .trunk: return StyleColor(0xF9E3BC, 0x625541)
        case .primary: return StyleColor(0xFBEDD3, 0x58504A)
        case .secondary, .tertiary, .minor, .service: return StyleColor(0xFFFFFF, 0x474D57)
        case .pedestrian: return TileStyle.pedestrianArea
        case .path: return StyleColor(0xD2C9BE, 0x50565F)
        case .rail: return StyleColor(0xB3ADA8, 0x5A606B)
        }
    }

    /// Casing colour (drawn wider, under every fill), or nil for lines without an edge.
    public var casing: StyleColor? {
        switch self {
        case .motorway: return StyleColor(0xDDB77E, 0x3A352E)
        case .trunk: return StyleColor(0xE0C497, 0x37332E)
        case .primary: return StyleColor(0xE0CFB2, 0x35343A)
        case .secondary, .tertiary, .minor, .service: return StyleColor(0xDCD6CD, 0x30343B)
        case .pedestrian: return StyleColor(0xE2D9CB, 0x33353A)
        case .path, .rail: return nil
        }
    }

    /// Dash pattern (in multiples of the line's width, at least 1 px): footpaths are dashed, as
    /// on every street map, from the zoom they get wide enough to read as dashes.
    public var dash: [Double] { self == .path ? [2.4, 1.6] : [] }

    /// Whether tunnels of this class are drawn (faint and dashed, under the open roads): roads
    /// only; rail and footpath tunnels would be clutter.
    var drawsTunnels: Bool { self != .path && self != .rail }

    /// Extra width of the casing beyond the fill, per side pair, in logical pixels.
    static let casingExtra = 1.3

    /// Tunnel rules (faint, dashed, no casing), then casing rules for `classes` (least important
    /// first), then fill rules, so that every road's edge lies under every road's fill, crossings
    /// look joined, and a tunnel shows where it runs without cutting through what is above it.
    /// `open` and `tunnel` tell the two apart (each schema marks tunnels its own way).
    static func rules(sourceLayer: String, filters: [(RoadClass, StyleFilter)], open: StyleFilter = .always,
                      tunnel: StyleFilter? = nil) -> [StyleLayer] {
        var tunnels: [StyleLayer] = []
        var casings: [StyleLayer] = []
        var fills: [StyleLayer] = []
        for (cls, classFilter) in filters.reversed() {
            if let tunnel, cls.drawsTunnels {
                let fill = StyleColor(cls.casing?.light ?? cls.fill.light, cls.casing?.dark ?? cls.fill.dark, opacity: 0.55)
                tunnels.append(StyleLayer("\(sourceLayer)-\(cls.rawValue)-tunnel", sourceLayer, filter: .all([classFilter, tunnel]),
                                          minZoom: max(cls.minZoom, 12), paint: .line(fill, width: cls.width, dash: [3, 2])))
            }
            let filter = StyleFilter.all([classFilter, open])
            if let casing = cls.casing {
                // Casings appear a little after the fill: at low zoom a cased hairline looks muddy.
                casings.append(StyleLayer("\(sourceLayer)-\(cls.rawValue)-casing", sourceLayer, filter: filter,
                                          minZoom: max(cls.minZoom, 11),
                                          paint: .line(casing, width: cls.width.adding(casingExtra))))
            }
            fills.append(StyleLayer("\(sourceLayer)-\(cls.rawValue)", sourceLayer, filter: filter, minZoom: cls.minZoom,
                                    paint: .line(cls.fill, width: cls.width, dash: cls.dash)))
        }
        return tunnels + casings + fills
    }
}
