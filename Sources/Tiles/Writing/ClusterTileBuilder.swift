import ClusterCore

/// Turns a clusterer's exact clusters into vector tiles, zoom by zoom: tile zoom z shows the
/// clusters the index gives for zoom z (as supercluster's `getTile`), clusters as points with
/// `cluster`, `cluster_id`, `point_count`, `point_count_abbreviated`, `expansion_zoom` and the
/// totals the caller adds, lone points with their own properties.
///
/// A feature near a tile's edge is also written into the neighbouring tiles (within `buffer`
/// tile units) so that bubbles drawn over the edge are not cut; readers that count features
/// keep those whose position lies inside 0…extent.
public struct ClusterTileBuilder {
    /// How tiles are laid out.
    public struct Options: Sendable {
        /// Layer name.
        public var layerName = "clusters"
        /// Tile units per side.
        public var extent = 4096
        /// Tile units beyond each edge that neighbouring features are copied into.
        public var buffer = 256
        public init() {}
    }

    /// What a point or cluster contributes to its feature.
    public typealias Properties = [(String, VectorTileValue)]

    let clusterer: any PointClusterer
    let options: Options
    let pointID: (Int) -> UInt64?
    let pointProperties: (Int) -> Properties
    let clusterTotals: (ClusterItem) -> Properties

    /// A builder over `clusterer`; `pointID` gives a point's feature id (nil: none),
    /// `pointProperties` its properties, `clusterTotals` the extra properties of a cluster.
    public init(clusterer: any PointClusterer, options: Options = Options(),
                pointID: @escaping (Int) -> UInt64? = { UInt64($0) },
                pointProperties: @escaping (Int) -> Properties = { _ in [] },
                clusterTotals: @escaping (ClusterItem) -> Properties = { _ in [] }) {
        self.clusterer = clusterer
        self.options = options
        self.pointID = pointID
        self.pointProperties = pointProperties
        self.clusterTotals = clusterTotals
    }

    /// The tile zooms with their own content: 0 up to the first zoom at which every point stands
    /// alone (deeper tiles would repeat it; map libraries over-zoom the last level).
    public var zooms: ClosedRange<Int> { 0...(clusterer.maxZoom + 1) }

    /// The properties of a cluster feature (supercluster's names) followed by its totals.
    public func clusterProperties(_ item: ClusterItem, id: ClusterID) -> Properties {
        let n = item.count
        var p: Properties = [("cluster", .bool(true)), ("cluster_id", .int(Int64(id.rawValue))),
                             ("point_count", .int(Int64(n))),
                             ("point_count_abbreviated", n < 1000 ? .int(Int64(n)) : .string(abbreviatedCount(n))),
                             ("expansion_zoom", .int(Int64(clusterer.expansionZoom(of: id) ?? -1)))]
        p += clusterTotals(item)
        return p
    }

    /// Every non-empty tile of zoom `z`, sorted by column then row, as uncompressed MVT bytes.
    /// - Complexity: O(items at the zoom · log tiles).
    public func tiles(atZoom z: Int) -> [(tile: TileID, bytes: [UInt8])] {
        let side = 1 << z
        let scale = Double(side)
        let extent = Double(options.extent)
        let buffer = Double(options.buffer)
        var layers: [TileID: MVTLayerEncoder] = [:]
        for item in clusterer.clusters(in: .world, zoom: Double(z)) {
            let (ux, uy) = WebMercator.project(item.coordinate)
            let tx = ux * scale, ty = uy * scale
            let x0 = min(max(Int(tx.rounded(.down)), 0), side - 1)
            let y0 = min(max(Int(ty.rounded(.down)), 0), side - 1)
            let id: UInt64?
            let properties: Properties
            switch item.kind {
            case .point(let i):
                id = pointID(i)
                properties = pointProperties(i)
            case .cluster(let c):
                id = UInt64(c.rawValue)
                properties = clusterProperties(item, id: c)
            }
            // Positions round half up (floor(v + 0.5)), the same in every column, so a point on an
            // edge is inside exactly one tile. Every copy within the buffer; where wrapped columns meet (zoom 0, or a point at
            // 180°) one tile gets one copy, the one inside its 0…extent square when there is one.
            var copies: [(tile: TileID, x: Double, y: Double)] = []
            for dy in -1...1 {
                let row = y0 + dy
                guard row >= 0 && row < side else { continue }
                let ly = ((ty - Double(row)) * extent + 0.5).rounded(.down)
                guard ly >= -buffer && ly <= extent + buffer else { continue }
                for dx in -1...1 {
                    // Columns wrap around the antimeridian; the local x is measured against the
                    // unwrapped column so a point just west of 180° lands in column 0's west buffer.
                    let column = x0 + dx
                    let lx = ((tx - Double(column)) * extent + 0.5).rounded(.down)
                    guard lx >= -buffer && lx <= extent + buffer else { continue }
                    let tile = TileID(z: z, x: column, y: row).wrapped
                    if let k = copies.firstIndex(where: { $0.tile == tile }) {
                        if !(copies[k].x >= 0 && copies[k].x < extent) && lx >= 0 && lx < extent { copies[k].x = lx }
                    } else {
                        copies.append((tile, lx, ly))
                    }
                }
            }
            for c in copies {
                layers[c.tile, default: MVTLayerEncoder(name: options.layerName, extent: options.extent)]
                    .addPoint(x: Int32(c.x), y: Int32(c.y), id: id, properties: properties)
            }
        }
        return layers.sorted { ($0.key.x, $0.key.y) < ($1.key.x, $1.key.y) }
            .map { ($0.key, $0.value.encodedLayer()) }
    }
}
