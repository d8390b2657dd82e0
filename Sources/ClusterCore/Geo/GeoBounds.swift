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

extension GeoBounds {
    /// Calls `body` with the box as index queries see it (supercluster's `getClusters` rules):
    /// longitudes wrapped into −180…180 (an east edge of exactly 180 is kept), latitudes clamped to
    /// ±90; a box whose wrapped west edge is east of its east edge is split at 180° (eastern part
    /// first); a box 360° or wider is the whole world. Nothing is called for NaN or infinite edges.
    @inlinable
    public func forEachQueryBox(_ body: (_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> Void) {
        let w = west, s = south, e = east, n = north
        guard !w.isNaN, !s.isNaN, !e.isNaN, !n.isNaN else { return }
        var minLng = ((w + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        var maxLng = e == 180 ? 180
            : ((e + 180).truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) - 180
        let minLat = max(-90, min(90, s)), maxLat = max(-90, min(90, n))
        if e - w >= 360 {
            minLng = -180
            maxLng = 180
        } else if minLng > maxLng {
            body(minLng, minLat, 180, maxLat)
            body(-180, minLat, maxLng, maxLat)
            return
        }
        guard minLng.isFinite, maxLng.isFinite else { return }
        body(minLng, minLat, maxLng, maxLat)
    }
}
