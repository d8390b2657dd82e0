/// An axis-aligned box in unit-square Web Mercator coordinates (x east, y south, both 0…1).
public struct UnitRect: Hashable, Sendable {
    public var minX: Double
    public var minY: Double
    public var maxX: Double
    public var maxY: Double

    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// An empty box that any `include` call will replace.
    public static let empty = UnitRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)

    /// Whether the box contains no point.
    public var isEmpty: Bool { minX > maxX || minY > maxY }

    /// Grows the box to contain a point.
    @inlinable public mutating func include(x: Double, y: Double) {
        if x < minX { minX = x }
        if x > maxX { maxX = x }
        if y < minY { minY = y }
        if y > maxY { maxY = y }
    }

    /// Whether the boxes overlap (touching edges count).
    @inlinable public func intersects(_ o: UnitRect) -> Bool {
        minX <= o.maxX && o.minX <= maxX && minY <= o.maxY && o.minY <= maxY
    }
}

/// One base-map layer (land, lakes, coastlines, rivers, borders, or label points) as flat arrays.
///
/// All vertices of all features live in one contiguous array of unit-square Mercator x, y pairs
/// (projected once at load time). Rings (polygon rings or line strings) are runs of vertices given
/// by `ringStarts`; features are runs of rings given by `featureRingStarts`. Both offset arrays end
/// with a sentinel, so ring `r` is vertices `ringStarts[r] ..< ringStarts[r + 1]`.
public struct BaseMapLayer: Sendable {
    /// Whether the rings are closed areas to fill, lines to stroke, or single points (one-vertex rings).
    public enum Kind: Sendable { case polygons, lines, points }

    /// A kept property value.
    public enum Value: Sendable, Equatable {
        case number(Double)
        case string(String)
    }

    /// Fill or stroke.
    public let kind: Kind
    /// Interleaved unit-square coordinates: x0, y0, x1, y1, …
    public internal(set) var coordinates: [Double] = []
    /// Vertex index of each ring's first vertex, plus a final sentinel (the vertex count).
    public internal(set) var ringStarts: [Int32] = [0]
    /// Ring index of each feature's first ring, plus a final sentinel (the ring count).
    public internal(set) var featureRingStarts: [Int32] = [0]
    /// Bounding box of each feature in unit coordinates.
    public internal(set) var featureBounds: [UnitRect] = []
    /// Features whose geometry was `null` or of a kind this layer can't use (skipped, counted).
    public internal(set) var skippedFeatureCount = 0
    /// Kept numeric properties, one column per key (NaN where a feature has none).
    public internal(set) var numberColumns: [String: [Double]] = [:]
    /// Kept string properties, one column per key.
    public internal(set) var stringColumns: [String: [String?]] = [:]
    /// Zoom from which each feature is drawn (Natural Earth `min_zoom`; empty: all from zoom 0).
    public var featureMinZoom: [Float] = []
    /// Relative stroke weight of each line feature (empty: all 1).
    public var featureWeight: [Float] = []
    /// Bounding boxes of runs of `chunkLength` vertices along each ring (see `indexingChunks()`),
    /// so a painter can skip the parts of a huge ring (a continent's coast) outside its window.
    public private(set) var chunkBounds: [UnitRect] = []
    /// Index of each ring's first chunk, plus a final sentinel (empty until indexed).
    public private(set) var ringChunkStarts: [Int32] = []
    /// Vertices per chunk.
    public static let chunkLength = 64

    public init(kind: Kind) { self.kind = kind }

    /// Number of features with geometry.
    public var featureCount: Int { featureBounds.count }
    /// Number of rings (polygon rings or line strings).
    public var ringCount: Int { ringStarts.count - 1 }
    /// Number of vertices.
    public var vertexCount: Int { coordinates.count / 2 }

    /// Bounding box of all features.
    public var bounds: UnitRect {
        var b = UnitRect.empty
        for f in featureBounds { b.include(x: f.minX, y: f.minY); b.include(x: f.maxX, y: f.maxY) }
        return b
    }

    /// Rings `first ..< end` of feature `f`.
    @inlinable public func rings(ofFeature f: Int) -> Range<Int> {
        Int(featureRingStarts[f]) ..< Int(featureRingStarts[f + 1])
    }

    /// This layer with `chunkBounds` computed (done once when a map is assembled).
    /// - Complexity: O(vertices).
    public func indexingChunks() -> BaseMapLayer {
        var copy = self
        copy.chunkBounds = []
        copy.chunkBounds.reserveCapacity(vertexCount / BaseMapLayer.chunkLength + ringCount)
        copy.ringChunkStarts = [0]
        copy.ringChunkStarts.reserveCapacity(ringCount + 1)
        for r in 0..<ringCount {
            var v = Int(ringStarts[r])
            let end = Int(ringStarts[r + 1])
            while v < end {
                var b = UnitRect.empty
                for k in v..<min(end, v + BaseMapLayer.chunkLength) { b.include(x: coordinates[2 * k], y: coordinates[2 * k + 1]) }
                copy.chunkBounds.append(b)
                v += BaseMapLayer.chunkLength
            }
            copy.ringChunkStarts.append(Int32(copy.chunkBounds.count))
        }
        return copy
    }

    /// Numeric property `key` of feature `f`, if it was kept and present.
    public func number(_ key: String, feature f: Int) -> Double? {
        guard let v = numberColumns[key]?[f], !v.isNaN else { return nil }
        return v
    }

    /// String property `key` of feature `f`, if it was kept and present.
    public func string(_ key: String, feature f: Int) -> String? { stringColumns[key]?[f] ?? nil }

    /// The first vertex of feature `f` (its position, for point layers).
    public func firstVertex(ofFeature f: Int) -> (x: Double, y: Double) {
        let v = Int(ringStarts[Int(featureRingStarts[f])])
        return (coordinates[2 * v], coordinates[2 * v + 1])
    }

    /// Records the kept values of the feature just appended (columns stay one entry per feature).
    mutating func appendValues(_ values: [String: Value]) {
        let n = featureCount - 1
        for (key, value) in values {
            switch value {
            case .number(let d):
                if numberColumns[key] == nil { numberColumns[key] = Array(repeating: .nan, count: n) }
                numberColumns[key]!.append(d)
            case .string(let text):
                if stringColumns[key] == nil { stringColumns[key] = Array(repeating: nil, count: n) }
                stringColumns[key]!.append(text)
            }
        }
        for key in numberColumns.keys where numberColumns[key]!.count == n { numberColumns[key]!.append(.nan) }
        for key in stringColumns.keys where stringColumns[key]!.count == n { stringColumns[key]!.append(nil) }
    }

    /// Appends another layer's features (e.g. a detail file to its main file).
    public mutating func append(contentsOf other: BaseMapLayer) {
        let n = featureCount, vertexBase = Int32(vertexCount), ringBase = Int32(ringCount)
        coordinates.append(contentsOf: other.coordinates)
        ringStarts.append(contentsOf: other.ringStarts.dropFirst().map { $0 + vertexBase })
        featureRingStarts.append(contentsOf: other.featureRingStarts.dropFirst().map { $0 + ringBase })
        featureBounds.append(contentsOf: other.featureBounds)
        skippedFeatureCount += other.skippedFeatureCount
        for key in Set(numberColumns.keys).union(other.numberColumns.keys) {
            let mine = numberColumns[key] ?? Array(repeating: .nan, count: n)
            numberColumns[key] = mine + (other.numberColumns[key] ?? Array(repeating: .nan, count: other.featureCount))
        }
        for key in Set(stringColumns.keys).union(other.stringColumns.keys) {
            let mine = stringColumns[key] ?? Array(repeating: nil, count: n)
            stringColumns[key] = mine + (other.stringColumns[key] ?? Array(repeating: nil, count: other.featureCount))
        }
        if !featureMinZoom.isEmpty || !other.featureMinZoom.isEmpty {
            featureMinZoom = (featureMinZoom.isEmpty ? Array(repeating: 0, count: n) : featureMinZoom)
                + (other.featureMinZoom.isEmpty ? Array(repeating: 0, count: other.featureCount) : other.featureMinZoom)
        }
        if !featureWeight.isEmpty || !other.featureWeight.isEmpty {
            featureWeight = (featureWeight.isEmpty ? Array(repeating: 1, count: n) : featureWeight)
                + (other.featureWeight.isEmpty ? Array(repeating: 1, count: other.featureCount) : other.featureWeight)
        }
    }

    /// Vertices `first ..< end` of ring `r`.
    @inlinable public func vertices(ofRing r: Int) -> Range<Int> {
        Int(ringStarts[r]) ..< Int(ringStarts[r + 1])
    }
}
