/// A built-in style as data: the fills and lines to paint, in order, and the label candidates to
/// offer, for one vector-tile schema. Light and dark variants share the rules (each colour is a pair).
public struct TileStyle: Sendable {
    /// A name for debugging.
    public var name: String
    /// The schema the rules are written for.
    public var schema: TileSchema
    /// Land colour painted first (matches the built-in base map's land).
    public var background: StyleColor
    /// Painting rules, bottom to top.
    public var layers: [StyleLayer] { didSet { keysBySourceLayer = Self.keysBySourceLayer(layers) } }
    /// Label candidate rules.
    public var labels: [LabelRule]
    /// `keys(ofSourceLayer:)`, worked out once: gathering them from every rule's filter for every
    /// layer of every tile painted was about 4 % of a dense tile's paint.
    private var keysBySourceLayer: [String: Set<String>]

    /// Creates a style.
    public init(name: String, schema: TileSchema, background: StyleColor, layers: [StyleLayer], labels: [LabelRule]) {
        self.name = name; self.schema = schema; self.background = background; self.layers = layers; self.labels = labels
        keysBySourceLayer = Self.keysBySourceLayer(layers)
    }

    private static func keysBySourceLayer(_ layers: [StyleLayer]) -> [String: Set<String>] {
        layers.reduce(into: [:]) { $0[$1.sourceLayer, default: []].formUnion($1.filter.keys) }
    }

    /// The vector-tile layers the style reads; pass to `MVTDecoder.decode(_:layers:)` to skip the rest.
    public var sourceLayers: Set<String> {
        Set(layers.map(\.sourceLayer)).union(labels.map(\.sourceLayer))
    }

    /// The property names the painting rules of a tile layer read (what `PreparedLayer` lays out).
    public func keys(ofSourceLayer name: String) -> Set<String> {
        keysBySourceLayer[name] ?? []
    }

    /// The built-in style for a schema.
    public static func builtIn(for schema: TileSchema) -> TileStyle {
        switch schema {
        case .openMapTiles, .unknown: return openMapTiles
        case .protomaps: return protomaps
        }
    }

    // Shared colours, so both schemas look the same. Land and water equal the built-in base map's
    // (MapPalette) so tiles fade in over it without a seam.
    static let land = StyleColor(0xF3F1EC, 0x2C3139)
    static let water = StyleColor(0xD3DDE2, 0x1B222C)
    static let waterway = StyleColor(0xC4D3DB, 0x222B36)
    static let park = StyleColor(0xDCE8D2, 0x2E3A33)
    static let wood = StyleColor(0xD5E3CB, 0x2C382F)
    static let grass = StyleColor(0xE2EBD8, 0x303B34)
    static let farmland = StyleColor(0xF0EFE3, 0x2F343A)
    static let residential = StyleColor(0xEEEBE5, 0x2F343C)
    static let commercial = StyleColor(0xF1E8E3, 0x33353D)
    static let industrial = StyleColor(0xEAE7EA, 0x30333B)
    static let institutional = StyleColor(0xF2EADF, 0x34363B)
    static let cemetery = StyleColor(0xDDE3D6, 0x2F3833)
    static let sand = StyleColor(0xF3EBD6, 0x393832)
    static let building = StyleColor(0xE4DFD7, 0x363B44)
    static let buildingEdge = StyleColor(0xD6D0C6, 0x3F454F)
    static let boundary = StyleColor(0xBFAFC6, 0x5E5668)
    /// Squares and pedestrian areas: paler and warmer than the buildings around them, so a
    /// city centre of lanes and piazzas reads as open ground, not one grey mass.
    static let pedestrianArea = StyleColor(0xF8F4EC, 0x57565A)

    /// Landmark classes named on the map (OpenMapTiles `poi` classes, Protomaps `kind`s and OSM
    /// tags): the buildings and sights people find their way by, not every shop and café.
    /// The sights people steer by come before a side street's name (18), the rest after it.
    static let landmarkPriorities: [String: Double] = [
        "place_of_worship": 19, "attraction": 19, "castle": 19, "railway": 19, "station": 19, "train_station": 19,
        "museum": 17, "monument": 17, "theatre": 17, "townhall": 17, "town_hall": 17, "stadium": 16, "zoo": 16,
        "memorial": 15, "art_gallery": 15, "gallery": 15, "viewpoint": 15, "university": 15,
    ]
}

/// The kinds of label a tile offers.
public enum TileLabelKind: String, Sendable, Hashable {
    /// A settlement or district (city, town, village, suburb, neighbourhood…).
    case place
    /// A sea, lake or river name.
    case water
    /// A street name (placed along its line).
    case road
    /// A landmark's name: a church, museum, monument, station or named building (the Duomo,
    /// the Thomaskirche, the Hauptbahnhof).
    case landmark
}

/// Which features give label candidates, and how important they are.
public struct LabelRule: Sendable, Hashable {
    /// The vector-tile layer it reads.
    public var sourceLayer: String
    /// Which features give candidates.
    public var filter: StyleFilter
    /// The kind of label.
    public var kind: TileLabelKind
    /// Shallowest tile zoom that offers these labels.
    public var minZoom: Double
    /// The property whose value picks a priority from `priorities` (e.g. `class`).
    public var classKeys: [String]
    /// Priority by class value; higher wins. Classes not listed use `defaultPriority`.
    public var priorities: [String: Double]
    /// Priority of classes not in `priorities`.
    public var defaultPriority: Double
    /// A property that lowers the priority by its value (OpenMapTiles `rank`, Protomaps `pmap:rank`).
    public var rankKey: String?
    /// For areas: the least size (the longer side of the outline's box, in pixels of a 512-px
    /// tile) that is named; 0 names every area. Only the big named buildings are landmarks.
    public var minimumSize: Double = 0

    /// Creates a rule.
    public init(_ sourceLayer: String, kind: TileLabelKind, filter: StyleFilter = .always, minZoom: Double = 0,
                classKeys: [String] = ["class"], priorities: [String: Double] = [:], defaultPriority: Double = 10,
                rankKey: String? = nil) {
        self.sourceLayer = sourceLayer; self.kind = kind; self.filter = filter; self.minZoom = minZoom
        self.classKeys = classKeys; self.priorities = priorities; self.defaultPriority = defaultPriority
        self.rankKey = rankKey
    }
}
