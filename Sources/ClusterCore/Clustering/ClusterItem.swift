/// One thing to draw at a zoom: an input point or a cluster of them.
public struct ClusterItem: Hashable, Sendable {
    /// What the item stands for.
    public enum Kind: Hashable, Sendable {
        /// A single input point; the payload is its index in the input.
        case point(Int)
        /// A cluster of two or more points.
        case cluster(ClusterID)
    }

    /// What the item stands for.
    public var kind: Kind
    /// Where to draw it: a point's exact input coordinate, or a cluster's centre.
    public var coordinate: GeoCoordinate
    /// The number of input points it stands for (1 for a point).
    public var count: Int
    /// Row of the owning index's aggregate table (its cluster number), or −1 for a point.
    @usableFromInline var aggregateSlot: Int32

    /// Creates an item; `aggregateSlot` is the owning index's internal row (−1: none).
    @inlinable
    public init(kind: Kind, coordinate: GeoCoordinate, count: Int, aggregateSlot: Int32 = -1) {
        self.kind = kind
        self.coordinate = coordinate
        self.count = count
        self.aggregateSlot = aggregateSlot
    }

    /// Whether the item is a cluster.
    @inlinable public var isCluster: Bool {
        if case .cluster = kind { return true }
        return false
    }

    /// The input index when the item is a single point.
    @inlinable public var pointIndex: Int? {
        if case .point(let i) = kind { return i }
        return nil
    }

    /// The cluster id when the item is a cluster.
    @inlinable public var clusterID: ClusterID? {
        if case .cluster(let id) = kind { return id }
        return nil
    }

    /// One id for both kinds, as in the GeoJSON output: a point's input index, or a cluster's
    /// raw id (never equal to a point index).
    @inlinable public var featureID: Int {
        switch kind {
        case .point(let i): return i
        case .cluster(let id): return id.rawValue
        }
    }

    /// The count label drawn on the bubble (`999`, `1.2k`, `15k`, `1.2M`).
    public var abbreviatedCount: String { ClusterCore.abbreviatedCount(count) }
}
