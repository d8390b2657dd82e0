import ClusterCore

/// How a PostGIS source clusters a view.
public struct PostGISViewOptions: Sendable {
    /// The algorithm: `hierarchical` (exact in-process below `fetchLimit` points, server grid cells
    /// above) or `grid` (always the server's cells: exactly `clusters --algorithm grid`).
    public enum Algorithm: String, Sendable { case hierarchical, grid }

    public var algorithm: Algorithm = .hierarchical
    /// Hierarchical options (radius, extent, zooms, min points) for fetched views.
    public var hierarchical = HierarchicalClusterer.Options()
    /// Grid cell side in pixels (as `--radius` for `clusters --algorithm grid`).
    public var cellSize = 64.0
    /// Highest zoom at which the grid clusters (above it every point stands alone).
    public var gridMaxZoom = 16
    /// Lowest zoom with its own grid cells.
    public var gridMinZoom = 0
    /// Fewest points in a cell that make a cluster.
    public var minCountForClustering = 2
    /// Most points a view fetches to cluster them in process (SPEC §4.2: about 20,000).
    public var fetchLimit = 20_000
    /// A numeric column summed (and min/max) per cluster.
    public var total: String?
    /// Conditions, combined with AND.
    public var conditions: [PostGISCondition] = []

    /// Default options.
    public init() {}
}

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
    /// The zoom at which the cluster splits (nil for points and server cells not yet known).
    public var expansionZoom: Int?
}

/// What a view query returned and how it was computed.
public struct PostGISViewResult: Sendable {
    /// How the items were computed.
    public enum Method: Sendable, Equatable {
        /// The view's points were fetched and clustered in process.
        case fetched(points: Int)
        /// The server grouped the view's points into grid cells.
        case aggregated(cells: Int)
        /// Read from the per-zoom pyramid table.
        case pyramid(cells: Int)
    }
    public var items: [PostGISItem]
    public var method: Method
    /// Seconds the queries took.
    public var seconds: Double
}
