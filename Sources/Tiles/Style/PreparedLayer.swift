/// A tile layer laid out for painting many style rules over it: per feature its geometry type,
/// bounding box and the value indices of the properties the style reads, in flat arrays.
///
/// Why: a dense street tile has thousands of features and each is tested by a dozen or more
/// rules. Looking through a feature's tags and walking its points for its bounds once per rule
/// (and retaining its arrays each time) was a fifth of a tile's paint; with this table a rule's
/// test is a few loads from flat memory (`FilterProgram`).
public struct PreparedLayer: Sendable {
    /// Number of features (indices `0..<count` into the layer's `features`).
    public let count: Int
    /// Geometry type per feature (`VectorTileFeature.GeometryType` raw values).
    public let types: [UInt8]
    /// Bounds per feature in tile units: minX, minY, maxX, maxY (an empty geometry gets an empty box).
    public let bounds: [Int32]
    /// Per feature, `columns.count` value indices (−1: the feature lacks the property, or its
    /// value index is past the layer's table).
    let table: [Int32]
    /// The layer key index of each column.
    let columns: [Int]
    /// Entries per feature row of the property table (`columns.count`).
    public var width: Int { columns.count }
    /// Column of a property name (the names the style reads that the layer has).
    let columnOfKey: [String: Int]
    /// The layer's values as the text filters compare, converted on first use.
    let texts: LayerTexts
    /// Per feature, its kind: features of one geometry type with the same row of the table pass
    /// the same filters, so a rule tests each kind once (a dense street tile has thousands of
    /// features and a few dozen kinds).
    let kinds: [Int32]
    /// Number of kinds, and per kind its row (`width` entries) and geometry type.
    public let kindCount: Int
    let kindRows: [Int32]
    let kindTypes: [UInt8]

    /// Lays out `layer` for filters that read the properties `keys`.
    public init(_ layer: VectorTileLayer, keys: Set<String>) {
        let keyIndex = layer.keyIndex
        var columns: [Int] = []
        var columnOfKey: [String: Int] = [:]
        for k in keys.sorted() {
            guard let i = keyIndex[k] else { continue }
            columnOfKey[k] = columns.count
            columns.append(i)
        }
        let n = layer.features.count, width = columns.count, valueCount = layer.values.count
        // At least one entry each, so `withRows` always has buffers to hand out.
        var types = [UInt8](repeating: 0, count: max(1, n))
        var bounds = [Int32](repeating: 0, count: max(1, 4 * n))
        var table = [Int32](repeating: -1, count: max(1, n * width))
        layer.features.withUnsafeBufferPointer { features in
            for fi in 0..<features.count {
                // Through a pointer into the array: a copy of the feature retained and released
                // its three arrays.
                let f = features.baseAddress! + fi
                types[fi] = f.pointee.type.rawValue
                f.pointee.points.withUnsafeBufferPointer { p in
                    var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
                    var i = 0
                    while i + 1 < p.count {
                        minX = min(minX, p[i]); maxX = max(maxX, p[i]); minY = min(minY, p[i + 1]); maxY = max(maxY, p[i + 1])
                        i += 2
                    }
                    bounds[4 * fi] = minX; bounds[4 * fi + 1] = minY; bounds[4 * fi + 2] = maxX; bounds[4 * fi + 3] = maxY
                }
                guard width > 0 else { continue }
                f.pointee.tags.withUnsafeBufferPointer { tags in
                    // Backwards, so the first occurrence of a key wins, and a value index past the
                    // table reads as absent, both as in `VectorTileLayer.value(of:keyIndex:)`.
                    var t = tags.count / 2 * 2 - 2
                    while t >= 0 {
                        let key = Int(tags[t]), value = Int(tags[t + 1])
                        for c in 0..<width where columns[c] == key {
                            table[fi * width + c] = value < valueCount ? Int32(value) : -1
                        }
                        t -= 2
                    }
                }
            }
        }
        (kinds, kindCount, kindRows, kindTypes) = Self.kinds(table: table, types: types, count: n, width: width)
        count = n
        self.types = types
        self.bounds = bounds
        self.table = table
        self.columns = columns
        self.columnOfKey = columnOfKey
        texts = LayerTexts(layer)
    }

    /// Calls `body` with the property table (feature `i`'s row at `i * width`), the geometry types
    /// and the bounds (4 per feature), as raw buffers for the painter's inner loop.
    public func withRows<R>(_ body: (_ rows: UnsafePointer<Int32>, _ types: UnsafePointer<UInt8>,
                                     _ bounds: UnsafePointer<Int32>) throws -> R) rethrows -> R {
        try table.withUnsafeBufferPointer { t in
            try types.withUnsafeBufferPointer { ty in
                try bounds.withUnsafeBufferPointer { b in try body(t.baseAddress!, ty.baseAddress!, b.baseAddress!) }
            }
        }
    }

    /// Calls `body` with each feature's kind, geometry type and bounds (4 per feature).
    public func withKinds<R>(_ body: (_ kinds: UnsafePointer<Int32>, _ types: UnsafePointer<UInt8>,
                                      _ bounds: UnsafePointer<Int32>) throws -> R) rethrows -> R {
        try kinds.withUnsafeBufferPointer { k in
            try types.withUnsafeBufferPointer { ty in
                try bounds.withUnsafeBufferPointer { b in try body(k.baseAddress!, ty.baseAddress!, b.baseAddress!) }
            }
        }
    }

    /// Groups features by (type, row): an open-addressing hash over the flat table.
    private static func kinds(table: [Int32], types: [UInt8], count n: Int,
                              width: Int) -> (kinds: [Int32], count: Int, rows: [Int32], types: [UInt8]) {
        var kinds = [Int32](repeating: 0, count: max(1, n))
        var rows: [Int32] = []
        var kindTypes: [UInt8] = []
        var capacity = 16
        while capacity < 2 * n { capacity <<= 1 }
        var slots = [Int32](repeating: -1, count: capacity)
        var count = 0
        table.withUnsafeBufferPointer { t in
            for i in 0..<n {
                var h = UInt32(types[i]) &+ 0x9E37_79B9
                for c in 0..<width { h = (h ^ UInt32(bitPattern: t[i * width + c])) &* 0x0100_0193 }
                var slot = Int(h) & (capacity - 1)
                while true {
                    let k = Int(slots[slot])
                    if k < 0 {
                        slots[slot] = Int32(count)
                        kinds[i] = Int32(count)
                        rows.append(contentsOf: t[(i * width)..<(i * width + width)])
                        kindTypes.append(types[i])
                        count += 1
                        break
                    }
                    if kindTypes[k] == types[i] && (0..<width).allSatisfy({ rows[k * width + $0] == t[i * width + $0] }) {
                        kinds[i] = Int32(k)
                        break
                    }
                    slot = (slot + 1) & (capacity - 1)
                }
            }
        }
        if rows.isEmpty { rows = [-1] }
        if kindTypes.isEmpty { kindTypes = [0] }
        return (kinds, count, rows, kindTypes)
    }
}
