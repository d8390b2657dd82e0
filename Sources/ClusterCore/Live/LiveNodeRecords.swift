/// The repair state of one point of a `LiveClusterIndex`, in one 24-byte record.
///
/// A repair visits each neighbour of each changed item and reads its position, level range,
/// liveness and base range; as separate arrays (one per field, 1M entries each) that was five or
/// six scattered cache misses per visit, most of a repair's time. As one record it is one.
struct PointNode: Sendable {
    /// Projected position (Float-rounded, as the base's).
    var x: Double
    var y: Double
    /// The cluster number it joins at zoom `low` (−1: none).
    var parent: Int32 = -1
    /// The zoom at which it joins a cluster (`minZoom - 1`: never).
    var low: Int8
    /// The base holds it at levels `baseLow + 1 … maxZoom + 1` (`notInBase`: nowhere).
    var baseLow: Int8
    var alive: Bool
}

/// The state of one cluster of a `LiveClusterIndex` (the base's or one made by changes), in one
/// 32-byte record, for the same reason as `PointNode`.
struct ClusterNode: Sendable {
    /// Projected position: the count-weighted mean of its children.
    var x: Double
    var y: Double
    var count: UInt32
    /// The cluster number it joins at zoom `low` (−1: none).
    var parent: Int32 = -1
    /// The zoom it was made at: it is on levels `low + 1 … top`.
    var top: Int8
    var low: Int8
    /// The base holds it at levels `baseLow + 1 … top` (`notInBase`: nowhere).
    var baseLow: Int8
    var alive = true
}
