/// The vector-tile schemas the built-in styles know, recognised from a source's `vector_layers`.
public enum TileSchema: String, Sendable, Hashable {
    /// OpenMapTiles (MapTiler, openmaptiles.org, tilemaker/planetiler OpenMapTiles profiles).
    case openMapTiles
    /// The Protomaps basemap schema (Protomaps' PMTiles builds).
    case protomaps
    /// Neither: drawn with the OpenMapTiles style, which still shows water and lines if names match.
    case unknown

    /// Recognises a schema from layer names.
    public init(vectorLayers: [String]) {
        let names = Set(vectorLayers)
        if names.contains("transportation") || names.contains("landcover") || names.contains("transportation_name") {
            self = .openMapTiles
        } else if names.contains("roads") || names.contains("earth") {
            self = .protomaps
        } else {
            self = .unknown
        }
    }

    /// Recognises a schema from a decoded tile's layers (when the source gave no `vector_layers`).
    public init(tile: VectorTile) {
        self.init(vectorLayers: tile.layers.map(\.name))
    }
}
