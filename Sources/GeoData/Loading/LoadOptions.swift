/// How to read a file.
public struct LoadOptions: Sendable, Equatable {
    /// Which reader to use.
    public enum Format: String, Sendable, Equatable {
        /// By extension (`.geojson`, `.json` / `.csv`, `.tsv`), else by the first byte
        /// (`{` → GeoJSON, anything else → CSV).
        case automatic
        case geoJSON
        /// Delimited text with a header row: comma-separated, or tab / semicolon when the header
        /// line has no comma.
        case csv
        /// Through GDAL, whatever the extension (benchmarks compare it with our own readers).
        case gdal
    }

    /// Which reader to use.
    public var format: Format = .automatic
    /// CSV: the latitude column's name (case-insensitive), instead of looking for lat/latitude/y.
    public var latitudeColumn: String?
    /// CSV: the longitude column's name (case-insensitive), instead of lon/lng/long/longitude/x.
    public var longitudeColumn: String?
    /// A numeric property to read for every point (e.g. `mag`, `population`).
    public var numericProperty: String?
    /// A property to use as the category instead of `category` / `marker-symbol`.
    public var categoryProperty: String?
    /// Display names for category values (e.g. `["1": "With IATA code"]`); others are kept as is.
    public var categoryLabels: [String: String] = [:]
    /// GeoJSON: read features by the layout of the ones before them (`FeatureLayout`); off only
    /// in tests that compare with the general reader.
    var learnsFeatureLayouts = true

    public init(format: Format = .automatic, latitudeColumn: String? = nil, longitudeColumn: String? = nil,
                numericProperty: String? = nil, categoryProperty: String? = nil,
                categoryLabels: [String: String] = [:]) {
        self.format = format
        self.latitudeColumn = latitudeColumn
        self.longitudeColumn = longitudeColumn
        self.numericProperty = numericProperty
        self.categoryProperty = categoryProperty
        self.categoryLabels = categoryLabels
    }
}
