import Foundation
import ClusterCore

/// What the window needs to show a clustered tile file as data (issue 31.7): whether a tile file
/// is clustered data at all (a street map stays a base map), and each item's split zoom and card.
extension ClusterTileReader {
    /// Whether `source` holds clustered points: vector tiles whose shallowest zoom has a feature
    /// with `point_count` (ours and tippecanoe's `--cluster-distance` output; a street map has
    /// none). Reads at most `maxTiles` tiles of that zoom.
    public static func isClustered(_ source: any TileSource, maxTiles: Int = 16) -> Bool {
        guard source.metadata.format.isVector else { return false }
        let z = source.metadata.minZoom, side = 1 << min(z, 30)
        var read = 0
        for y in 0..<side {
            for x in 0..<side {
                guard read < maxTiles else { return false }
                guard let data = try? source.tileData(for: TileID(z: z, x: x, y: y)) else { continue }
                read += 1
                guard let tile = try? MVTDecoder.decode(data, layers: nil) else { return false }
                if tile.layers.contains(where: { $0.keyIndex("point_count") != nil }) { return true }
            }
        }
        return false
    }
}

extension ClusterTileReader.Item {
    /// A key that names the feature from view to view: its id, nil when the file gives none (0).
    public var key: Int64? { id == 0 || id > UInt64(Int64.max) ? nil : Int64(id) }

    /// The zoom at which a bubble splits (`expansion_zoom`, ours), nil when the file does not say.
    public var expansionZoom: Int? {
        guard isCluster, let v = properties.first(where: { $0.0 == "expansion_zoom" })?.1.doubleValue, v >= 0 else { return nil }
        return Int(v)
    }

    /// The properties as one JSON object in tile order (a place's card).
    public var propertiesJSON: String {
        "{" + properties.map { "\(JSONText.quoted($0.0)):\(Self.json($0.1))" }.joined(separator: ",") + "}"
    }

    private static func json(_ value: VectorTileValue) -> String {
        switch value {
        case .string(let s): return JSONText.quoted(s)
        case .int(let i): return String(i)
        case .bool(let b): return b ? "true" : "false"
        case .double(let d): return d.isFinite ? String(d) : "null"
        }
    }
}
