import Foundation
import ClusterCore

/// What the map shows: a centre, a zoom and the viewport it is shown in.
///
/// A value (MapLibre's "transform"): every gesture is expressed through `put(_:under:)`, and all
/// pixel↔coordinate conversions need no widget. Zoom uses the 256-pixel convention. The centre's
/// longitude is kept in −180..<180 (the world wraps); its latitude is clamped so the view never
/// shows past the Mercator edge when the viewport is shorter than the world.
public struct Camera: Hashable, Sendable {
    /// Geographic centre of the viewport.
    public private(set) var center: GeoCoordinate
    /// Fractional zoom level, clamped to `minZoom…maxZoom`.
    public private(set) var zoom: Double
    /// Viewport size in logical pixels.
    public var viewportSize: ScreenSize { didSet { clampCenter() } }
    /// Smallest allowed zoom.
    public var minZoom: Double
    /// Largest allowed zoom.
    public var maxZoom: Double

    /// Creates a camera; the zoom and centre are clamped to the limits.
    public init(center: GeoCoordinate, zoom: Double, viewportSize: ScreenSize,
                minZoom: Double = 0, maxZoom: Double = 18) {
        self.center = center
        self.zoom = zoom
        self.viewportSize = viewportSize
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.zoom = clampedZoom(zoom)
        clampCenter()
    }

    /// Width of the whole world in logical pixels at the current zoom.
    public var worldSize: Double { WebMercator.worldSize(zoom: zoom) }

    /// The centre in world pixels at the current zoom.
    public var centerWorldPixel: (x: Double, y: Double) {
        let u = WebMercator.project(center)
        return (u.x * worldSize, u.y * worldSize)
    }

    /// Screen position of a coordinate, choosing the world copy nearest the viewport centre.
    public func screenPoint(for c: GeoCoordinate) -> ScreenPoint {
        let ws = worldSize
        let cw = centerWorldPixel
        let u = WebMercator.project(c)
        var dx = u.x * ws - cw.x
        // Nearest wrapped copy.
        dx -= (dx / ws).rounded() * ws
        return ScreenPoint(x: viewportSize.width / 2 + dx, y: viewportSize.height / 2 + (u.y * ws - cw.y))
    }

    /// Coordinate under a screen point (longitude wrapped into −180..<180, latitude unclamped
    /// beyond the Mercator edge is clamped to ±85.0511°).
    public func coordinate(at p: ScreenPoint) -> GeoCoordinate {
        let ws = worldSize
        let cw = centerWorldPixel
        let ux = (cw.x + p.x - viewportSize.width / 2) / ws
        let uy = min(1, max(0, (cw.y + p.y - viewportSize.height / 2) / ws))
        return GeoCoordinate(latitude: WebMercator.latitude(y: uy),
                             longitude: GeoCoordinate.wrapLongitude(WebMercator.longitude(x: ux)))
    }

    /// Moves the camera so that coordinate `c` appears at screen point `p` (zoom unchanged).
    public mutating func put(_ c: GeoCoordinate, under p: ScreenPoint) {
        let ws = worldSize
        let u = WebMercator.project(c)
        let cx = u.x * ws - (p.x - viewportSize.width / 2)
        let cy = u.y * ws - (p.y - viewportSize.height / 2)
        setCenterWorldPixel(x: cx, y: cy)
    }

    /// Moves the camera's centre to a coordinate.
    public mutating func setCenter(_ c: GeoCoordinate) {
        center = GeoCoordinate(latitude: min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, c.latitude)),
                               longitude: GeoCoordinate.wrapLongitude(c.longitude))
        clampCenter()
    }

    /// Sets the zoom (clamped), keeping the centre.
    public mutating func setZoom(_ z: Double) {
        zoom = clampedZoom(z)
        clampCenter()
    }

    /// Pans by a screen delta: content moves with the pointer (drag right → map moves right).
    public mutating func pan(by dx: Double, _ dy: Double) {
        let cw = centerWorldPixel
        setCenterWorldPixel(x: cw.x - dx, y: cw.y - dy)
    }

    /// Returns a copy panned by a screen delta.
    public func panned(by dx: Double, _ dy: Double) -> Camera {
        var c = self; c.pan(by: dx, dy); return c
    }

    /// Changes zoom by `delta` levels keeping the coordinate under `p` fixed on screen.
    public mutating func zoom(by delta: Double, around p: ScreenPoint) {
        let anchor = coordinate(atUnclamped: p)
        zoom = clampedZoom(zoom + delta)
        put(anchor, under: p)
    }

    /// Returns a copy zoomed by `delta` levels around `p`.
    public func zoomed(by delta: Double, around p: ScreenPoint) -> Camera {
        var c = self; c.zoom(by: delta, around: p); return c
    }

    /// The visible geographic box (west may be greater than east when it crosses 180°;
    /// a view wider than the world gives the whole longitude range).
    public var visibleBounds: GeoBounds {
        let ws = worldSize
        let cw = centerWorldPixel
        let halfW = viewportSize.width / 2, halfH = viewportSize.height / 2
        let north = WebMercator.latitude(y: max(0, (cw.y - halfH) / ws))
        let south = WebMercator.latitude(y: min(1, (cw.y + halfH) / ws))
        if viewportSize.width >= ws {
            return GeoBounds(west: -180, south: south, east: 180, north: north)
        }
        let west = GeoCoordinate.wrapLongitude(WebMercator.longitude(x: (cw.x - halfW) / ws))
        var east = GeoCoordinate.wrapLongitude(WebMercator.longitude(x: (cw.x + halfW) / ws))
        if east == -180 { east = 180 }
        return GeoBounds(west: west, south: south, east: east, north: north)
    }

    /// Logical metres per pixel at the centre's latitude (for the scale bar).
    public var metersPerPixel: Double {
        40_075_016.686 * cos(center.latitude * .pi / 180) / worldSize
    }

    // MARK: - Private

    private func clampedZoom(_ z: Double) -> Double {
        guard z.isFinite else { return minZoom }
        return min(maxZoom, max(minZoom, z))
    }

    /// Coordinate under a point without wrapping or clamping the latitude beyond the world edge
    /// (keeps zoom-around-pointer exact near the edges).
    private func coordinate(atUnclamped p: ScreenPoint) -> GeoCoordinate {
        let ws = worldSize
        let cw = centerWorldPixel
        let ux = (cw.x + p.x - viewportSize.width / 2) / ws
        let uy = min(1, max(0, (cw.y + p.y - viewportSize.height / 2) / ws))
        return GeoCoordinate(latitude: WebMercator.latitude(y: uy), longitude: WebMercator.longitude(x: ux))
    }

    private mutating func setCenterWorldPixel(x: Double, y: Double) {
        let ws = worldSize
        let lon = GeoCoordinate.wrapLongitude(WebMercator.longitude(x: x / ws))
        let lat = WebMercator.latitude(y: min(1, max(0, y / ws)))
        center = GeoCoordinate(latitude: lat, longitude: lon)
        clampCenter()
    }

    /// Keeps the view inside the Mercator square vertically: when the viewport is shorter than the
    /// world, its top and bottom edges stay within the world; otherwise the centre is the equator.
    private mutating func clampCenter() {
        let ws = worldSize
        let halfH = viewportSize.height / 2
        var cy = WebMercator.y(latitude: center.latitude) * ws
        if viewportSize.height >= ws {
            cy = ws / 2
        } else {
            cy = min(ws - halfH, max(halfH, cy))
        }
        let lat = WebMercator.latitude(y: cy / ws)
        if abs(lat - center.latitude) > 1e-12 {
            center = GeoCoordinate(latitude: lat, longitude: center.longitude)
        }
    }
}
