/// Which clustering algorithm to run, with its options: what a filtered or grouped index builds
/// for each group of points.
public enum ClusteringMethod: Sendable {
    case hierarchical(HierarchicalClusterer.Options)
    case grid(GridClusterer.Options)

    /// A fresh index of `points` with per-point categories and values (empty: none).
    public func build(points: [GeoCoordinate], categories: [Int32] = [], values: [Double] = []) -> any PointClusterer {
        build(points: points, categories: categories, values: values, prepared: nil)
    }

    /// As above, where `points` are exactly the chosen ones of `prepared` (in input order), when given.
    func build(points: [GeoCoordinate], categories: [Int32], values: [Double],
               prepared: LevelBuilder.PreparedSubset?) -> any PointClusterer {
        switch self {
        case .hierarchical(let o):
            return HierarchicalClusterer(points: points, categories: categories, values: values, options: o, maxBandLength: 8,
                                         prepared: prepared)
        case .grid(let o): return GridClusterer(points: points, categories: categories, values: values, options: o)
        }
    }
}
