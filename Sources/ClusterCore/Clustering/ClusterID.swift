/// Identifies a cluster of one index.
///
/// The value is supercluster's encoding, `(originIndex << 5) + (zoom + 1) + inputCount`, where
/// `originIndex` is the position, in its level, of the item the cluster grew from and `zoom`
/// is the zoom the cluster belongs to. Adding the input count keeps every cluster id apart from
/// every input point index (`0..<inputCount`), so the two can share one id space (GeoJSON ids).
/// Ids are stable for a given input and options.
public struct ClusterID: Hashable, Comparable, Sendable, RawRepresentable, CustomStringConvertible {
    /// The encoded value.
    public var rawValue: Int

    /// Wraps an encoded value.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Encodes an origin index and a zoom (0…30) for an index of `inputCount` points.
    public init(originIndex: Int, zoom: Int, inputCount: Int) {
        precondition(zoom >= 0 && zoom < 31, "cluster zoom must be 0…30")
        rawValue = (originIndex << 5) + (zoom + 1) + inputCount
    }

    /// The position of the item the cluster grew from, in the level above the cluster's zoom;
    /// nil when the value can't have come from an index of `inputCount` points.
    public func originIndex(inputCount: Int) -> Int? {
        let v = rawValue - inputCount
        return v >= 0 ? v >> 5 : nil
    }

    /// The zoom the cluster belongs to (its origin sits one level above); nil when the value
    /// can't have come from an index of `inputCount` points.
    public func zoom(inputCount: Int) -> Int? {
        let v = rawValue - inputCount
        guard v >= 0 else { return nil }
        let originZoom = v & 31
        return originZoom >= 1 ? originZoom - 1 : nil
    }

    public static func < (a: ClusterID, b: ClusterID) -> Bool { a.rawValue < b.rawValue }

    public var description: String { "cluster \(rawValue)" }
}
