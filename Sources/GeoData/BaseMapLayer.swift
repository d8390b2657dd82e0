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

/// One base-map layer (land, lakes, coastlines or borders) as flat arrays.
///
/// All vertices of all features live in one contiguous array of unit-square Mercator x, y pairs
/// (projected once at load time). Rings (polygon rings or line strings) are runs of vertices given
/// by `ringStarts`; features are runs of rings given by `featureRingStarts`. Both offset arrays end
/// with a sentinel, so ring `r` is vertices `ringStarts[r] ..< ringStarts[r + 1]`.
public struct BaseMapLayer: Sendable {
    /// Whether the rings are closed areas to fill or lines to stroke.
    public enum Kind: Sendable { case polygons, lines }

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

    /// Vertices `first ..< end` of ring `r`.
    @inlinable public func vertices(ofRing r: Int) -> Range<Int> {
        Int(ringStarts[r]) ..< Int(ringStarts[r + 1])
    }
}
