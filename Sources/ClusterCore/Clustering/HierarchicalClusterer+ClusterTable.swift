extension HierarchicalClusterer {
    /// Every cluster of every zoom, in creation order (zoom descending, then origin ascending).
    struct ClusterTable: Sendable {
        /// One cluster's centre, point count and origin together: a query reads all four for
        /// each cluster it returns, and at 10M points the table is far beyond the cache, so one
        /// row is one cache miss where four columns were four.
        struct Row {
            var x: Double
            var y: Double
            var count: UInt32
            /// Position of the origin item in its level's stored (visiting) order.
            var origin: UInt32
        }

        var rows: [Row] = []
        /// `childItems[childStart[c]..<childStart[c + 1]]` are cluster c's children (item
        /// references at the zoom above): the origin and the neighbours it took.
        var childStart: [UInt32] = []
        var childItems: [UInt32] = []
        /// The zoom each cluster belongs to (for the build and the live index; queries find it
        /// from `zoomStart`, without touching another column).
        var zoom: [UInt8] = []
        /// `zoomStart[maxZoom - z]..<zoomStart[maxZoom - z + 1]` are the clusters of zoom z.
        var zoomStart: [Int] = []

        /// Reserves room for every cluster `n` points can make: each cluster takes the place of
        /// at least two items, so there are at most n − 1 clusters and 2(n − 1) children. Growing
        /// by doubling instead copied the table while both copies were resident (~100 MB at 10M
        /// points, the build's peak); reserved pages that are never written stay unmapped.
        mutating func reserve(forValidPoints n: Int) {
            let clusters = max(n - 1, 0)
            rows.reserveCapacity(clusters)
            zoom.reserveCapacity(clusters)
            childStart.reserveCapacity(clusters + 1)
            childItems.reserveCapacity(2 * clusters)
        }
    }
}
