/// A WGS84 position in degrees.
public struct GeoCoordinate: Hashable, Sendable, CustomStringConvertible {
    /// Degrees north of the equator, −90…90.
    public var latitude: Double
    /// Degrees east of Greenwich, usually −180…180 (the map wraps, so other values are allowed).
    public var longitude: Double

    /// Creates a coordinate from latitude and longitude in degrees.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both values are finite and inside the valid ranges (|lat| ≤ 90, |lon| ≤ 180).
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// The same place with the longitude wrapped into −180..<180.
    public var wrapped: GeoCoordinate {
        GeoCoordinate(latitude: latitude, longitude: GeoCoordinate.wrapLongitude(longitude))
    }

    /// Wraps any longitude into −180..<180.
    public static func wrapLongitude(_ lon: Double) -> Double {
        guard lon.isFinite else { return lon }
        if lon >= -180 && lon < 180 { return lon }
        let w = (lon + 180).truncatingRemainder(dividingBy: 360)
        return (w < 0 ? w + 360 : w) - 180
    }

    public var description: String { "(\(latitude), \(longitude))" }
}
