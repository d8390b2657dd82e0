import Foundation

/// Web Mercator (EPSG:3857) in unit-square form: x and y in 0…1, y growing southwards.
///
/// At zoom z the world is `256 · 2^z` logical pixels wide; multiply unit coordinates by that.
public enum WebMercator {
    /// Latitudes beyond this are clamped (the square Web Mercator world).
    public static let maxLatitude = 85.0511287798066

    /// Logical pixels across the whole world at a zoom level (256-pixel convention).
    @inlinable public static func worldSize(zoom: Double) -> Double { 256 * pow(2, zoom) }

    /// Unit x for a longitude: `lon/360 + 0.5` (not wrapped; 180° gives 1).
    @inlinable public static func x(longitude: Double) -> Double { longitude / 360 + 0.5 }

    /// Unit y for a latitude, clamped to 0…1 (supercluster's formula).
    @inlinable public static func y(latitude: Double) -> Double {
        let s = sin(latitude * .pi / 180)
        let y = 0.5 - 0.25 * log((1 + s) / (1 - s)) / .pi
        return y < 0 ? 0 : (y > 1 ? 1 : y)
    }

    /// Longitude for a unit x.
    @inlinable public static func longitude(x: Double) -> Double { (x - 0.5) * 360 }

    /// Latitude for a unit y.
    @inlinable public static func latitude(y: Double) -> Double {
        let y2 = (180 - y * 360) * .pi / 180
        return 360 * atan(exp(y2)) / .pi - 90
    }

    /// Unit point for a coordinate.
    @inlinable public static func project(_ c: GeoCoordinate) -> (x: Double, y: Double) {
        (x(longitude: c.longitude), y(latitude: c.latitude))
    }

    /// Coordinate for a unit point.
    @inlinable public static func unproject(x: Double, y: Double) -> GeoCoordinate {
        GeoCoordinate(latitude: latitude(y: y), longitude: longitude(x: x))
    }
}
