extension SubsetClusterer {
    /// The members (input indices, ascending) and build of a subset with one group built
    /// hierarchically: what a `LiveSubsetIndex` adopts. Nil for grouped or grid builds.
    var oneHierarchicalGroup: (members: [Int32], index: HierarchicalClusterer)? {
        guard groups.count == 1, let built = groups[0].index as? HierarchicalClusterer else { return nil }
        return (groups[0].members, built)
    }
}
