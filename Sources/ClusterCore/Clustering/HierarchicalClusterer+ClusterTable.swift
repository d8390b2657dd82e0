extension HierarchicalClusterer {
    /// Every cluster of every zoom, in creation order (zoom descending, then origin ascending).
    struct ClusterTable: Sendable {
        var x: [Double] = []
        var y: [Double] = []
        var count: [UInt32] = []
        /// Position of the origin item in its level's stored (visiting) order.
        var origin: [UInt32] = []
        /// `childItems[childStart[c]..<childStart[c + 1]]` are cluster c's children (item
        /// references at the zoom above): the origin and the neighbours it took.
        var childStart: [UInt32] = []
        var childItems: [UInt32] = []
        /// The zoom each cluster belongs to.
        var zoom: [UInt8] = []
        /// `zoomStart[z - minZoom]..<zoomStart[z - minZoom + 1]` are the clusters of zoom z.
        var zoomStart: [Int] = []

        /// Reserves room for every cluster `n` points can make: each cluster takes the place of
        /// at least two items, so there are at most n − 1 clusters and 2(n − 1) children. Growing
        /// by doubling instead copied the table while both copies were resident (~100 MB at 10M
        /// points, the build's peak); reserved pages that are never written stay unmapped.
        mutating func reserve(forValidPoints n: Int) {
            let clusters = max(n - 1, 0)
            x.reserveCapacity(clusters)
            y.reserveCapacity(clusters)
            count.reserveCapacity(clusters)
            origin.reserveCapacity(clusters)
            zoom.reserveCapacity(clusters)
            childStart.reserveCapacity(clusters + 1)
            childItems.reserveCapacity(2 * clusters)
        }
    }
}
