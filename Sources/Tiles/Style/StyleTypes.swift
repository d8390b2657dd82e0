/// A colour for the light and the dark map, `0xRRGGBB` plus opacity. Kept as plain numbers so the
/// style stays display-free; the painter turns it into a cairo source.
public struct StyleColor: Sendable, Hashable {
    /// Light-map colour `0xRRGGBB`.
    public var light: UInt32
    /// Dark-map colour `0xRRGGBB`.
    public var dark: UInt32
    /// Opacity 0…1 (both variants).
    public var opacity: Double

    /// Creates a colour pair.
    public init(_ light: UInt32, _ dark: UInt32, opacity: Double = 1) {
        self.light = light; self.dark = dark; self.opacity = opacity
    }

    /// The variant for a palette.
    public func hex(dark isDark: Bool) -> UInt32 { isDark ? dark : light }
}

/// A value that changes with zoom: linear interpolation between stops, constant outside them.
public struct ZoomFunction: Sendable, Hashable {
    /// (zoom, value) pairs, zooms ascending.
    public var stops: [Stop]

    /// One stop.
    public struct Stop: Sendable, Hashable {
        /// Tile zoom of the stop.
        public var zoom: Double
        /// Value at that zoom.
        public var value: Double
        /// Creates a stop.
        public init(_ zoom: Double, _ value: Double) { self.zoom = zoom; self.value = value }
    }

    /// Creates a function from stops.
    public init(_ stops: [Stop]) { self.stops = stops }

    /// A constant.
    public static func constant(_ v: Double) -> ZoomFunction { ZoomFunction([Stop(0, v)]) }

    /// The value at a zoom.
    public func value(at zoom: Double) -> Double {
        guard let first = stops.first, let last = stops.last else { return 0 }
        if zoom <= first.zoom { return first.value }
        if zoom >= last.zoom { return last.value }
        for i in 1..<stops.count where zoom <= stops[i].zoom {
            let a = stops[i - 1], b = stops[i]
            let t = (zoom - a.zoom) / max(1e-9, b.zoom - a.zoom)
            return a.value + (b.value - a.value) * t
        }
        return last.value
    }

    /// This function plus a constant (e.g. a road casing: the fill's width plus an edge).
    public func adding(_ d: Double) -> ZoomFunction {
        ZoomFunction(stops.map { Stop($0.zoom, $0.value + d) })
    }

    /// This function scaled (e.g. a casing 1.3× the fill).
    public func scaled(_ f: Double) -> ZoomFunction {
        ZoomFunction(stops.map { Stop($0.zoom, $0.value * f) })
    }
}

/// Which features a style layer takes.
public indirect enum StyleFilter: Sendable, Hashable {
    /// Every feature.
    case always
    /// The first present of `keys` has one of `values` (string compare). Several keys let one
    /// rule read `pmap:kind` in older Protomaps builds and `kind` in newer ones.
    case equals(keys: [String], values: Set<String>)
    /// Not `equals` (also true when none of the keys is present).
    case notEquals(keys: [String], values: Set<String>)
    /// A property is present.
    case has(String)
    /// Geometry type.
    case geometry(VectorTileFeature.GeometryType)
    case all([StyleFilter])
    case any([StyleFilter])

    /// `key` is one of `values`.
    public static func `in`(_ key: String, _ values: String...) -> StyleFilter {
        .equals(keys: [key], values: Set(values))
    }

    /// The property names the filter reads.
    public var keys: Set<String> {
        switch self {
        case .always, .geometry: return []
        case let .equals(k, _), let .notEquals(k, _): return Set(k)
        case let .has(k): return [k]
        case let .all(fs), let .any(fs): return fs.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        }
    }

    /// Whether a feature passes, given a property lookup.
    public func matches(type: VectorTileFeature.GeometryType, property: (String) -> VectorTileValue?) -> Bool {
        switch self {
        case .always: return true
        case let .geometry(t): return type == t
        case let .has(k): return property(k) != nil
        case let .equals(keys, values): return Self.first(keys, property).map { values.contains($0) } ?? false
        case let .notEquals(keys, values): return !(Self.first(keys, property).map { values.contains($0) } ?? false)
        case let .all(fs): return fs.allSatisfy { $0.matches(type: type, property: property) }
        case let .any(fs): return fs.contains { $0.matches(type: type, property: property) }
        }
    }

    private static func first(_ keys: [String], _ property: (String) -> VectorTileValue?) -> String? {
        for k in keys {
            if let v = property(k) { return text(of: v) }
        }
        return nil
    }

    /// A value as the text filters compare with: strings as they are, whole numbers without a
    /// fraction (`admin_level` 2 and "2" are the same), booleans as `true`/`false`.
    static func text(of v: VectorTileValue) -> String? {
        switch v {
        case let .string(s): return s
        case let .int(i): return String(i)
        case let .double(d): return d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case let .bool(b): return b ? "true" : "false"
        }
    }
}

/// How a style layer paints its features.
public enum StylePaint: Sendable, Hashable {
    /// Fill polygons.
    case fill(StyleColor)
    /// Stroke lines (and polygon outlines) `width` logical pixels wide on a 512-px tile, optionally
    /// dashed (on/off lengths in the same pixels).
    case line(StyleColor, width: ZoomFunction, dash: [Double] = [])
}

/// One drawing rule: features of `sourceLayer` passing `filter`, between `minZoom` and `maxZoom`
/// (tile zooms, MapLibre's 512-px convention), painted with `paint`.
public struct StyleLayer: Sendable, Hashable {
    /// A name for debugging and tests.
    public var id: String
    /// The vector-tile layer it reads.
    public var sourceLayer: String
    /// Which features the rule takes.
    public var filter: StyleFilter
    /// Shallowest tile zoom drawn (inclusive).
    public var minZoom: Double
    /// Deepest tile zoom drawn (exclusive).
    public var maxZoom: Double
    /// Fill or line.
    public var paint: StylePaint

    /// Creates a rule.
    public init(_ id: String, _ sourceLayer: String, filter: StyleFilter = .always,
                minZoom: Double = 0, maxZoom: Double = 99, paint: StylePaint) {
        self.id = id; self.sourceLayer = sourceLayer; self.filter = filter
        self.minZoom = minZoom; self.maxZoom = maxZoom; self.paint = paint
    }

    /// Whether the rule draws at a zoom.
    public func isVisible(atZoom z: Double) -> Bool { z >= minZoom && z < maxZoom }
}
