import Foundation

/// A source of encoded tiles (PNG/JPEG/WebP bytes or MVT), addressed in XYZ.
///
/// Local sources (MBTiles, PMTiles) answer synchronously; call them off the GTK thread. Tiles
/// outside the source's zoom range or bounds, or simply absent, are `nil`: that is not an error.
public protocol TileSource: AnyObject, Sendable {
    /// What the source says about itself.
    var metadata: TileSourceMetadata { get }
    /// The tile's bytes as stored, after removing any gzip transfer compression; nil if absent.
    func tileData(for tile: TileID) throws -> Data?
}

/// The encoding of a source's tiles.
public enum TileFormat: String, Sendable, Hashable {
    case png, jpeg, webp, avif
    /// Mapbox Vector Tile (protobuf).
    case mvt
    case unknown

    /// From an MBTiles `format` value (`png`, `jpg`, `webp`, `pbf`, …).
    public init(mbtilesFormat: String) {
        switch mbtilesFormat.lowercased() {
        case "png": self = .png
        case "jpg", "jpeg": self = .jpeg
        case "webp": self = .webp
        case "avif": self = .avif
        case "pbf", "mvt": self = .mvt
        default: self = .unknown
        }
    }

    /// Whether the tiles are vector data (to be painted by the app's style) rather than images.
    public var isVector: Bool { self == .mvt }
}

/// A source's self-description: zooms, bounds, format, attribution and vector layers.
public struct TileSourceMetadata: Sendable, Hashable {
    /// A human-readable name, if given.
    public var name: String?
    /// Tile encoding.
    public var format: TileFormat
    /// Shallowest zoom with tiles.
    public var minZoom: Int
    /// Deepest zoom with tiles (deeper zooms are over-zoomed).
    public var maxZoom: Int
    /// Bounds west, south, east, north in degrees, if given.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)? {
        get { boundsArray.count == 4 ? (boundsArray[0], boundsArray[1], boundsArray[2], boundsArray[3]) : nil }
        set { boundsArray = newValue.map { [$0.west, $0.south, $0.east, $0.north] } ?? [] }
    }
    /// Centre longitude, latitude and zoom, if given.
    public var center: (longitude: Double, latitude: Double, zoom: Double)? {
        get { centerArray.count == 3 ? (centerArray[0], centerArray[1], centerArray[2]) : nil }
        set { centerArray = newValue.map { [$0.longitude, $0.latitude, $0.zoom] } ?? [] }
    }
    /// Attribution text (may contain HTML from the source; see `plainAttribution`).
    public var attribution: String?
    /// Names of the vector layers (`vector_layers[].id`), in the source's order.
    public var vectorLayers: [String]

    private var boundsArray: [Double] = []
    private var centerArray: [Double] = []

    /// Creates metadata.
    public init(name: String? = nil, format: TileFormat, minZoom: Int = 0, maxZoom: Int = 22,
                attribution: String? = nil, vectorLayers: [String] = []) {
        self.name = name
        self.format = format
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
        self.vectorLayers = vectorLayers
    }

    /// The attribution with HTML tags removed and entities decoded, for a plain text label
    /// (MBTiles attributions are often `<a href=…>© OpenMapTiles</a>`).
    public var plainAttribution: String? {
        guard let a = attribution else { return nil }
        var out = ""
        var inTag = false
        for ch in a {
            if ch == "<" { inTag = true } else if ch == ">" { inTag = false } else if !inTag { out.append(ch) }
        }
        for (entity, ch) in [("&copy;", "©"), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&nbsp;", " ")] {
            out = out.replacingOccurrences(of: entity, with: ch)
        }
        let trimmed = out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Reads `vector_layers`, `attribution` and `name` from a TileJSON-like JSON object (MBTiles
    /// `json` row, PMTiles metadata). Unknown or malformed parts are ignored.
    mutating func merge(json data: Data) {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return }
        if let layers = object["vector_layers"] as? [[String: Any]] {
            vectorLayers = layers.compactMap { $0["id"] as? String }
        }
        if attribution == nil, let a = object["attribution"] as? String { attribution = a }
        if name == nil, let n = object["name"] as? String { name = n }
    }
}
