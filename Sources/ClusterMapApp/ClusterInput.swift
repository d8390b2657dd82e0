import ClusterCore
import GeoData

/// A loaded point set as clusterer input indexed by feature position (null geometries included,
/// as supercluster counts them), so point ids and cluster ids come out as `clusters` prints them.
/// (The same rule as `writeClusters`; shared by `tiles` so both commands number alike.)
struct ClusterInput {
    var coordinates: [GeoCoordinate]
    var categories: [Int32]
    var values: [Double]
    /// Input index → PointSet index (−1: none).
    var pointOfInput: [Int]
    /// Input index → feature position (−1: none).
    var positionOfInput: [Int]

    init(_ set: PointSet) {
        let positions = set.sourcePositions.map(Int.init)
        let byPosition = zip(positions, positions.dropFirst()).allSatisfy { $0 < $1 }
        let featureCount = max(set.report.itemsRead, (positions.last ?? -1) + 1)
        let nan = GeoCoordinate(latitude: .nan, longitude: .nan)
        if byPosition {
            coordinates = Array(repeating: nan, count: featureCount)
            pointOfInput = Array(repeating: -1, count: featureCount)
            for (i, p) in positions.enumerated() {
                coordinates[p] = set.coordinates[i]
                pointOfInput[p] = i
            }
            positionOfInput = Array(0..<featureCount)
        } else {
            // MultiPoint features: one input per point, padded so cluster ids stay above positions.
            coordinates = set.coordinates
            pointOfInput = Array(0..<set.count)
            positionOfInput = positions
            if coordinates.count < featureCount {
                let pad = featureCount - coordinates.count
                coordinates += Array(repeating: nan, count: pad)
                pointOfInput += Array(repeating: -1, count: pad)
                positionOfInput += Array(repeating: -1, count: pad)
            }
        }
        categories = pointOfInput.map { $0 >= 0 ? set.categoryIndices[$0] : -1 }
        values = set.numericValues.isEmpty ? [] : pointOfInput.map { $0 >= 0 ? set.numericValues[$0] : .nan }
    }

    /// Points in their own order (a database table's rows), every one a feature.
    init(coordinates: [GeoCoordinate], values: [Double]) {
        self.coordinates = coordinates
        self.categories = []
        self.values = values
        pointOfInput = Array(0..<coordinates.count)
        positionOfInput = pointOfInput
    }

    /// The clusterer `clusters` builds for these options, with category and value aggregates.
    func clusterer(_ o: ClustersCommandOptions) -> any PointClusterer {
        ClusterInput.method(o).build(points: coordinates, categories: categories, values: values)
    }

    /// The algorithm and options `clusters`, `tiles` and their filters build with.
    static func method(_ o: ClustersCommandOptions) -> ClusteringMethod {
        if o.algorithm == "grid" {
            var g = GridClusterer.Options()
            if let r = o.radius { g.cellSize = { _ in r } }
            if let v = o.minZoom { g.minZoom = v }
            if let v = o.maxZoom { g.maxZoom = v }
            if let v = o.minPoints { g.minCountForClustering = v }
            if let lo = o.minZoom, o.maxZoom == nil, lo > g.maxZoom { g.maxZoom = lo }
            return .grid(g)
        }
        var h = HierarchicalClusterer.Options()
        if let v = o.radius { h.radius = v }
        if let v = o.extent { h.extent = v }
        if let v = o.minZoom { h.minZoom = v }
        if let v = o.maxZoom { h.maxZoom = v }
        if let v = o.minPoints { h.minPoints = v }
        if let lo = o.minZoom, o.maxZoom == nil, lo > h.maxZoom { h.maxZoom = lo }
        return .hierarchical(h)
    }
}
