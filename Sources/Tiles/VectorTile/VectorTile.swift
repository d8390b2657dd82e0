/// A decoded Mapbox Vector Tile (MVT 2.x): named layers of features with geometry in tile units.
public struct VectorTile: Sendable {
    /// The layers in file order.
    public var layers: [VectorTileLayer]

    /// Creates a tile.
    public init(layers: [VectorTileLayer]) { self.layers = layers }

    /// The layer with a name, if present.
    public func layer(named name: String) -> VectorTileLayer? {
        layers.first { $0.name == name }
    }

    /// An estimate of the memory held, for the tile cache's byte budget.
    public var approximateByteCost: Int {
        layers.reduce(256) { $0 + $1.approximateByteCost }
    }
}

/// A property value in a vector tile.
public enum VectorTileValue: Sendable, Hashable {
    case string(String)
    case double(Double)
    case int(Int64)
    case bool(Bool)

    /// The value as text (numbers formatted plainly), e.g. for a class name compared as a string.
    public var stringValue: String? {
        if case let .string(s) = self { return s }
        return nil
    }

    /// The value as a number, if it is one.
    public var doubleValue: Double? {
        switch self {
        case let .double(d): return d
        case let .int(i): return Double(i)
        case let .bool(b): return b ? 1 : 0
        case .string: return nil
        }
    }
}

/// One layer: its features share the `keys` and `values` tables their tags index into.
public struct VectorTileLayer: Sendable {
    /// Layer name (e.g. `water`, `transportation`, `roads`).
    public var name: String
    /// Coordinate extent of a tile side (usually 4096).
    public var extent: Int
    /// Property names indexed by feature tags.
    public var keys: [String]
    /// Property values indexed by feature tags.
    public var values: [VectorTileValue]
    /// The features.
    public var features: [VectorTileFeature]

    /// Creates a layer.
    public init(name: String, extent: Int = 4096, keys: [String] = [], values: [VectorTileValue] = [],
                features: [VectorTileFeature] = []) {
        self.name = name; self.extent = extent; self.keys = keys; self.values = values; self.features = features
    }

    /// The index of a key in `keys`, for fast repeated property lookups.
    public func keyIndex(_ key: String) -> Int? { keys.firstIndex(of: key) }

    /// A feature's value for the key at `keyIndex`.
    public func value(of feature: VectorTileFeature, keyIndex: Int) -> VectorTileValue? {
        let tags = feature.tags
        var i = tags.startIndex
        while i + 1 < tags.endIndex {
            if Int(tags[i]) == keyIndex {
                let v = Int(tags[i + 1])
                return v < values.count ? values[v] : nil
            }
            i += 2
        }
        return nil
    }

    /// A feature's value for a property name.
    public func value(of feature: VectorTileFeature, key: String) -> VectorTileValue? {
        keyIndex(key).flatMap { value(of: feature, keyIndex: $0) }
    }

    var approximateByteCost: Int {
        var cost = 128 + keys.count * 32 + values.count * 32
        for f in features { cost += 48 + f.tags.count * 4 + f.points.count * 4 + f.parts.count * 4 }
        return cost
    }
}

/// One feature: a geometry type, tags, and geometry as flat point coordinates split into parts.
///
/// `tags`, `points` and `parts` are slices: a decoded layer keeps each in one array for all its
/// features (a dense street tile has thousands of features, and three arrays apiece were a third
/// of its decoding and most of freeing it). Their indices start at the slice's `startIndex`, not 0:
/// read them with `point(_:)`, `partRange(_:)` or `withUnsafeBufferPointer`.
public struct VectorTileFeature: Sendable {
    /// MVT geometry types.
    public enum GeometryType: UInt8, Sendable {
        case unknown = 0, point = 1, lineString = 2, polygon = 3
    }

    /// Feature id (0 when absent).
    public var id: UInt64
    /// Geometry type.
    public var type: GeometryType
    /// Alternating key and value indices into the layer's tables.
    public var tags: ArraySlice<UInt32>
    /// Coordinates in tile units, interleaved x, y (0…extent inside the tile; buffers go beyond).
    public var points: ArraySlice<Int32>
    /// Start index (in points, i.e. `points.count / 2` units, from the feature's first point) of
    /// each part: each point of a multipoint, each line, each polygon ring (rings close implicitly).
    public var parts: ArraySlice<Int32>

    /// Creates a feature.
    public init(id: UInt64 = 0, type: GeometryType, tags: [UInt32] = [], points: [Int32] = [], parts: [Int32] = []) {
        self.init(id: id, type: type, tags: tags[...], points: points[...], parts: parts[...])
    }

    /// Creates a feature over slices of a layer's shared arrays (the decoder).
    init(id: UInt64, type: GeometryType, tags: ArraySlice<UInt32>, points: ArraySlice<Int32>, parts: ArraySlice<Int32>) {
        self.id = id; self.type = type; self.tags = tags; self.points = points; self.parts = parts
    }

    /// Number of points.
    public var pointCount: Int { points.count / 2 }

    /// Point `i` (0-based within the feature).
    public func point(_ i: Int) -> (x: Int32, y: Int32) {
        (points[points.startIndex + 2 * i], points[points.startIndex + 2 * i + 1])
    }

    /// The point range of part `i` (0-based within the feature).
    public func partRange(_ i: Int) -> Range<Int> {
        let start = Int(parts[parts.startIndex + i])
        let end = i + 1 < parts.count ? Int(parts[parts.startIndex + i + 1]) : pointCount
        return start..<end
    }
}
