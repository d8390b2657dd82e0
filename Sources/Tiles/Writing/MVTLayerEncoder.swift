/// Builds one MVT 2.1 layer of point features and encodes it (spec: github.com/mapbox/vector-tile-spec).
///
/// Keys and values are shared through the layer's tables (each distinct key or value stored once),
/// geometry is one MoveTo per feature in tile units (0…extent inside the tile; a buffer beyond).
public struct MVTLayerEncoder {
    /// The layer's name (`clusters` for ours).
    public let name: String
    /// Tile units per side.
    public let extent: Int

    private var keys: [String] = []
    private var keyIndex: [String: UInt32] = [:]
    private var values: [VectorTileValue] = []
    private var valueIndex: [VectorTileValue: UInt32] = [:]
    private var features = ProtobufWriter()
    /// Number of features added.
    public private(set) var featureCount = 0

    /// Creates an empty layer.
    public init(name: String, extent: Int = 4096) {
        self.name = name
        self.extent = extent
    }

    /// Adds a point feature at tile coordinates (x, y) with an id (nil: none) and properties in order.
    public mutating func addPoint(x: Int32, y: Int32, id: UInt64?, properties: [(String, VectorTileValue)]) {
        var tags: [UInt32] = []
        tags.reserveCapacity(properties.count * 2)
        for (k, v) in properties {
            // NaN is not a value a reader can compare; such properties are left out.
            if case .double(let d) = v, d.isNaN { continue }
            tags.append(index(ofKey: k))
            tags.append(index(ofValue: v))
        }
        var f = ProtobufWriter()
        if let id { f.varintField(1, id) }
        f.packedField(2, tags)
        f.varintField(3, 1)  // POINT
        let moveTo: UInt32 = 1 | 1 << 3
        f.packedField(4, [moveTo, UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(Int64(x))),
                          UInt32(truncatingIfNeeded: ProtobufWriter.zigzag(Int64(y)))])
        features.bytesField(2, f.bytes)
        featureCount += 1
    }

    private mutating func index(ofKey k: String) -> UInt32 {
        if let i = keyIndex[k] { return i }
        let i = UInt32(keys.count)
        keys.append(k)
        keyIndex[k] = i
        return i
    }

    private mutating func index(ofValue v: VectorTileValue) -> UInt32 {
        if let i = valueIndex[v] { return i }
        let i = UInt32(values.count)
        values.append(v)
        valueIndex[v] = i
        return i
    }

    /// The layer message (field 3 of a tile), ready to be appended to a tile's bytes.
    public func encodedLayer() -> [UInt8] {
        var layer = ProtobufWriter()
        layer.varintField(15, 2)  // version
        layer.stringField(1, name)
        var all = layer.bytes
        all.append(contentsOf: features.bytes)
        var tail = ProtobufWriter()
        for k in keys { tail.stringField(3, k) }
        for v in values {
            var value = ProtobufWriter()
            switch v {
            case .string(let s): value.stringField(1, s)
            case .double(let d): value.doubleField(3, d)
            case .int(let i):
                // Negative integers as sint (zig-zag), others as uint: the smallest encodings.
                if i < 0 { value.varintField(6, ProtobufWriter.zigzag(i)) } else { value.varintField(5, UInt64(i)) }
            case .bool(let b): value.varintField(7, b ? 1 : 0)
            }
            tail.bytesField(4, value.bytes)
        }
        tail.varintField(5, UInt64(extent))
        all.append(contentsOf: tail.bytes)
        var tile = ProtobufWriter()
        tile.bytesField(3, all)
        return tile.bytes
    }
}
