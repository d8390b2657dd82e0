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
    /// Whether bubbles give the total column's most common value (`--total most-common:COLUMN`,
    /// counted per value as text) instead of its sum, min and max.
    public var totalIsMostCommon = false
    /// Conditions, combined with AND.
    public var conditions: [PostGISCondition] = []
    /// A filter in the app's filter grammar (`--where`), ANDed with the conditions.
    public var filter: PostGISWhere?
    /// Whether grid views at the world's zooms may be summed from the whole-world cells of a finer
    /// zoom (one table pass for every coarser view, kept until the data changes); off: each view
    /// asks the server for its own box.
    public var rollsUp = true
    /// Whether the server finds a row's grid cell by the app's cell edges (`PostGISCellBuckets`, two
    /// binary searches) rather than by projecting the row; off only to compare the two (benchmark).
    public var findsCellsByEdges = true
    /// Whether any condition or filter narrows the rows.
    public var isFiltered: Bool { !conditions.isEmpty || filter != nil }

    /// Default options.
    public init() {}
}
