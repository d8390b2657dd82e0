import ClusterCore
import Foundation

/// A cluster tile file being written: PMTiles (`.pmtiles`) or MBTiles (`.mbtiles`), chosen by the
/// path's extension; tiles are gzipped MVT, metadata describes the `clusters` layer.
public final class ClusterTileArchive {
    private var pmtiles: PMTilesArchiveWriter?
    private let mbtiles: MBTilesArchiveWriter?
    /// The output path.
    public let path: String

    /// Starts a file at `path`; throws for an extension other than .pmtiles/.mbtiles or an
    /// MBTiles file that can't be created.
    public init(path: String) throws {
        self.path = path
        switch (path as NSString).pathExtension.lowercased() {
        case "pmtiles":
            pmtiles = PMTilesArchiveWriter()
            mbtiles = nil
        case "mbtiles":
            pmtiles = nil
            mbtiles = try MBTilesArchiveWriter(path: path)
        default:
            throw TileSourceError.cannotOpen(path: path, reason: "not a .pmtiles or .mbtiles name")
        }
    }

    /// Adds one gzipped MVT tile.
    public func add(_ tile: TileID, bytes: [UInt8]) throws {
        if pmtiles != nil { pmtiles!.add(tile, bytes: bytes) } else { try mbtiles?.add(tile, bytes: bytes) }
    }

    /// The TileJSON-style `vector_layers` entry for the clusters layer.
    static func vectorLayers(zooms: ClosedRange<Int>, extraFields: [String], textFields: [String] = []) -> [[String: Any]] {
        var fields: [String: String] = ["cluster": "Boolean", "cluster_id": "Number", "point_count": "Number",
                                        "point_count_abbreviated": "String", "expansion_zoom": "Number",
                                        "category": "String"]
        for f in extraFields { fields[f] = "Number" }
        for f in textFields { fields[f] = "String" }
        return [["id": "clusters", "fields": fields, "minzoom": zooms.lowerBound, "maxzoom": zooms.upperBound,
                 "description": "ClusterMap's exact clusters (supercluster's) of each zoom, and lone points"]]
    }

    /// Writes the metadata (and, for PMTiles, the whole archive) and closes the file.
    /// `fields` are numbers, `textFields` strings (a `--by` value, an abbreviated or most common total).
    public func finish(name: String, zooms: ClosedRange<Int>, bounds: GeoBounds, fields: [String], textFields: [String] = []) throws {
        let layers = Self.vectorLayers(zooms: zooms, extraFields: fields, textFields: textFields)
        let centre = GeoCoordinate(latitude: (bounds.south + bounds.north) / 2, longitude: (bounds.west + bounds.east) / 2)
        if let pm = pmtiles {
            var d = PMTilesArchiveWriter.Description()
            d.bounds = (bounds.west, bounds.south, bounds.east, bounds.north)
            d.center = (centre.longitude, centre.latitude, zooms.lowerBound)
            let meta: [String: Any] = ["name": name, "format": "pbf", "generator": "ClusterMap", "vector_layers": layers]
            d.metadataJSON = Array(try JSONSerialization.data(withJSONObject: meta, options: [.sortedKeys]))
            try pm.write(to: path, d)
        } else if let mb = mbtiles {
            let json = String(decoding: try JSONSerialization.data(withJSONObject: ["vector_layers": layers], options: [.sortedKeys]),
                              as: UTF8.self)
            try mb.finish(metadata: [("name", name), ("format", "pbf"), ("type", "overlay"), ("version", "1"),
                                     ("generator", "ClusterMap"),
                                     ("minzoom", String(zooms.lowerBound)), ("maxzoom", String(zooms.upperBound)),
                                     ("bounds", "\(bounds.west),\(bounds.south),\(bounds.east),\(bounds.north)"),
                                     ("center", "\(centre.longitude),\(centre.latitude),\(zooms.lowerBound)"),
                                     ("json", json)])
        }
    }
}
