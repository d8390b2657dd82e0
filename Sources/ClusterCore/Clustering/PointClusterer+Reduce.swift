extension PointClusterer {
    /// Aggregates any property over an item's points, like supercluster's `map`/`reduce` options:
    /// `map` turns one input point into a value, `reduce` folds another value into the running one.
    ///
    /// Computed on demand from the item's leaves rather than stored at indexing time, so an
    /// index built once serves any number of aggregations (the built-in category counts and
    /// min/max/sum are stored: see `aggregates(of:)`).
    /// - Complexity: O(*k*) for an item of *k* points.
    public func reduce<Value>(_ item: ClusterItem, map: (Int) -> Value,
                              reduce: (inout Value, Value) -> Void) -> Value {
        guard let id = item.clusterID else { return map(item.pointIndex ?? 0) }
        let leaves = self.leaves(of: id, limit: .max, offset: 0)
        var result = map(leaves[0])
        for i in leaves.dropFirst() { reduce(&result, map(i)) }
        return result
    }
}
