import ClusterCore
import Foundation

/// Reads a clustered tile file (ours, or tippecanoe's `--cluster-distance` output) back as data:
/// for a box and zoom, the point features of the covering tiles as bubbles (those with a
/// `point_count` property) and places (the rest, with their properties). Copies in tile buffers
/// are left out (a feature belongs to the tile its position lies in), so each appears once.
/// Zooms past the file's deepest read its deepest tiles (where every place stands alone).
public struct ClusterTileReader: Sendable {
    /// One bubble or place from a tile.
    public struct Item: Sendable {
        public var coordinate: GeoCoordinate
        /// `point_count` for a cluster, 1 for a place.
        public var count: Int
        public var isCluster: Bool
        /// The feature id (0 when absent).
        public var id: UInt64
        /// Properties in tile order (a cluster's totals, a place's own properties).
        public var properties: [(String, VectorTileValue)]
    }

    /// The tile file read.
    public let source: any TileSource
    /// The layer read (nil: every layer).
    public let layerName: String?

    /// A reader over an opened MBTiles/PMTiles source of vector tiles.
    public init(source: any TileSource, layerName: String? = nil) {
        self.source = source
        self.layerName = layerName
    }

    /// The tile zoom a map zoom reads (floor, clamped to the file's zooms).
    public func tileZoom(for zoom: Double) -> Int {
        let z = zoom.isFinite ? Int(zoom.rounded(.down)) : 0
        return min(max(z, source.metadata.minZoom), source.metadata.maxZoom)
    }

    /// The tiles a view reads: those covering `bounds` at the tile zoom of `zoom`, each once
    /// (a box across the antimeridian reads both sides), west to east, north to south.
    public func tiles(in bounds: GeoBounds, zoom: Double) -> [TileID] {
        let z = tileZoom(for: zoom)
        let side = 1 << z
        var result: [TileID] = [], seen = Set<TileID>()
        bounds.forEachQueryBox { w, s, e, n in
            let x0 = max(0, Int(WebMercator.x(longitude: w) * Double(side))), x1 = min(side - 1, Int(WebMercator.x(longitude: e) * Double(side)))
            let y0 = max(0, Int(WebMercator.y(latitude: n) * Double(side))), y1 = min(side - 1, Int(WebMercator.y(latitude: s) * Double(side)))
            guard x0 <= x1, y0 <= y1 else { return }
            for x in x0...x1 { for y in y0...y1 where seen.insert(TileID(z: z, x: x, y: y)).inserted { result.append(TileID(z: z, x: x, y: y)) } }
        }
        return result
    }

    /// The items inside `bounds` at `zoom`.
    /// - Complexity: decodes every tile covering the box at the tile zoom.
    public func items(in bounds: GeoBounds, zoom: Double) throws -> [Item] {
        var boxes: [(Double, Double, Double, Double)] = []
        bounds.forEachQueryBox { w, s, e, n in
            boxes.append((WebMercator.x(longitude: w), WebMercator.x(longitude: e), WebMercator.y(latitude: n), WebMercator.y(latitude: s)))
        }
        return try items(of: tiles(in: bounds, zoom: zoom)).filter { item in
            let ux = WebMercator.x(longitude: item.coordinate.longitude), uy = WebMercator.y(latitude: item.coordinate.latitude)
            let eps = 1e-12
            return boxes.contains { ux >= $0.0 - eps && ux <= $0.1 + eps && uy >= $0.2 - eps && uy <= $0.3 + eps }
        }
    }

    /// Every item of `tiles` (missing tiles give none; buffer copies are left to their own tile).
    public func items(of tiles: [TileID]) throws -> [Item] {
        var result: [Item] = []
        for tile in tiles {
            guard let data = try source.tileData(for: tile) else { continue }
            let decoded = try MVTDecoder.decode(data, layers: layerName.map { [$0] })
            let side = Double(1 << tile.z)
            for layer in decoded.layers {
                let extent = Double(layer.extent)
                let countKey = layer.keyIndex("point_count")
                for f in layer.features where f.type == .point {
                    for i in 0..<f.pointCount {
                        let (px, py) = f.point(i)
                        // Buffer copies belong to the neighbouring tile.
                        guard px >= 0, py >= 0, Double(px) < extent, Double(py) < extent else { continue }
                        let ux = (Double(tile.x) + Double(px) / extent) / side
                        let uy = (Double(tile.y) + Double(py) / extent) / side
                        let count = countKey.flatMap { layer.value(of: f, keyIndex: $0)?.doubleValue }.map { Int($0) }
                        var props: [(String, VectorTileValue)] = []
                        var t = f.tags.startIndex
                        while t + 1 < f.tags.endIndex {
                            let k = Int(f.tags[t]), v = Int(f.tags[t + 1])
                            if k < layer.keys.count, v < layer.values.count { props.append((layer.keys[k], layer.values[v])) }
                            t += 2
                        }
                        result.append(Item(coordinate: WebMercator.unproject(x: ux, y: uy), count: max(1, count ?? 1),
                                           isCluster: count != nil, id: f.id, properties: props))
                    }
                }
            }
        }
        return result
    }
}
