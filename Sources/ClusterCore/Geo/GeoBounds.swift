/// A longitude/latitude box. When `west > east` the box crosses the antimeridian (180°).
public struct GeoBounds: Hashable, Sendable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    /// Creates a box from its edges in degrees.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// The whole world.
    public static let world = GeoBounds(west: -180, south: -90, east: 180, north: 90)

    /// Whether the box crosses 180° (its west edge is east of its east edge).
    public var crossesAntimeridian: Bool { west > east }

    /// Whether the box spans every longitude.
    public var coversAllLongitudes: Bool { east - west >= 360 }

    /// Whether the coordinate lies inside (edges included), honouring antimeridian crossing.
    public func contains(_ c: GeoCoordinate) -> Bool {
        guard c.latitude >= south && c.latitude <= north else { return false }
        if coversAllLongitudes { return true }
        if crossesAntimeridian { return c.longitude >= west || c.longitude <= east }
        return c.longitude >= west && c.longitude <= east
    }
}
