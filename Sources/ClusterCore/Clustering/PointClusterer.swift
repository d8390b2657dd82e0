/// The query interface both clustering algorithms share, so the app can switch between them.
public protocol PointClusterer: Sendable {
    /// The number of input points, skipped ones included (point indices are `0..<inputCount`).
    var inputCount: Int { get }
    /// How many input points were skipped (missing, NaN or out-of-range coordinates).
    var skippedCount: Int { get }
    /// The lowest zoom with its own clusters.
    var minZoom: Int { get }
    /// The highest zoom at which anything clusters; above it every point stands alone.
    var maxZoom: Int { get }

    /// The points and clusters inside `bounds` at `zoom` (rounded down and clamped to
    /// `minZoom…maxZoom + 1`). A box whose west edge is east of its east edge crosses 180°;
    /// a box 360° or wider is the whole world.
    func clusters(in bounds: GeoBounds, zoom: Double) -> [ClusterItem]
    /// Like `clusters(in:zoom:)`, but replaces the contents of `buffer`; with a buffer kept
    /// from frame to frame this does not allocate.
    func clusters(in bounds: GeoBounds, zoom: Double, into buffer: inout [ClusterItem])
    /// The items one zoom deeper that make up the cluster (empty for an unknown id).
    func children(of cluster: ClusterID) -> [ClusterItem]
    /// Input indices of the cluster's points, skipping `offset` and returning at most `limit`
    /// (empty for an unknown id).
    func leaves(of cluster: ClusterID, limit: Int, offset: Int) -> [Int]
    /// The lowest zoom at which the cluster splits into more than one item (`maxZoom + 1`
    /// when it never does); nil for an unknown id.
    func expansionZoom(of cluster: ClusterID) -> Int?
    /// The item a cluster id stands for (its centre and count), nil for an unknown id.
    func item(for cluster: ClusterID) -> ClusterItem?
    /// Category counts and numeric summaries of an item's points.
    func aggregates(of item: ClusterItem) -> ClusterAggregates
}

extension PointClusterer {
    /// The points and clusters inside `bounds` at `zoom` in a new array (see
    /// `clusters(in:zoom:into:)` for the allocation-free form).
    public func clusters(in bounds: GeoBounds, zoom: Double) -> [ClusterItem] {
        var result: [ClusterItem] = []
        clusters(in: bounds, zoom: zoom, into: &result)
        return result
    }

    /// All input indices of the cluster's points.
    public func leaves(of cluster: ClusterID) -> [Int] { leaves(of: cluster, limit: .max, offset: 0) }
}
