import ClusterCore

/// One bubble or place of a view, as the server (or the in-process clusterer) gave it.
public struct PostGISItem: Sendable, Equatable {
    /// Where it is drawn (a cluster's mean position in Web Mercator).
    public var coordinate: GeoCoordinate
    /// Points it stands for.
    public var count: Int
    /// Whether it is a cluster.
    public var isCluster: Bool
    /// A point's primary key (nil without one); a cluster's id: its cell (`(iy·width+ix)·32 + zoom + 1`)
    /// for server cells, the in-process cluster id for fetched views.
    public var id: Int64?
    /// The total column's sum, min and max (nil without a total or values).
    public var totalSum: Double?
    public var totalMin: Double?
    public var totalMax: Double?
    /// Rows with a value in the total column (nil when not known): the mean is `totalSum / totalCount`.
    public var totalCount: Int?
    /// The zoom at which the cluster splits (nil for points and server cells not yet known).
    public var expansionZoom: Int?
    /// With a most-common total (`--total most-common:kind`): the value most of its rows have (ties:
    /// the one that sorts first byte by byte, SQL `mode() WITHIN GROUP (ORDER BY kind COLLATE "C")`),
    /// and how many rows have it; nil when no row has a value.
    public var mostCommon: String?
    public var mostCommonCount: Int?

    /// The total column's mean over the rows with a value (SQL `avg`); nil when none has one.
    public var totalMean: Double? {
        guard let totalSum, let totalCount, totalCount > 0 else { return nil }
        return totalSum / Double(totalCount)
    }
}
