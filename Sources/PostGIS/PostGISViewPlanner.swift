import ClusterCore
import Foundation

/// Decides which view the window asks a PostGIS source for as its camera moves (pure: tested
/// without a server or a display).
///
/// The asked-for box is the visible one widened by a tile on every side and snapped outward to
/// the 256-pixel tiles of the camera's whole zoom: a small pan stays inside the box already asked
/// for (no query at all), and coming back to a place asks for the very same box, which the view
/// queue's cache then answers. Views within one whole zoom share their clusters' zoom, so only a
/// change of whole zoom or a box leaving the last one asks again.
public struct PostGISViewPlanner: Sendable {
    /// The view last asked for (nil before the first, or after `reset()`).
    public private(set) var lastRequested: PostGISViewQueue.View?

    /// A planner that has asked for nothing yet.
    public init() {}

    /// The view to ask for when `visible` (longitudes may run past ±180 when the camera shows the
    /// antimeridian) shows at `zoom`: padded by one tile and snapped to tiles of the whole zoom;
    /// the whole world once that covers every longitude.
    public static func view(visible: GeoBounds, zoom: Double) -> PostGISViewQueue.View {
        let z = zoom.isFinite ? max(0, min(Int(zoom.rounded(.down)), 24)) : 0
        let tiles = Double(1 << z)
        guard visible.west.isFinite, visible.east.isFinite, visible.south.isFinite, visible.north.isFinite,
              visible.east - visible.west < 360 else {
            return PostGISViewQueue.View(bounds: .world, zoom: Double(z))
        }
        let x0 = (WebMercator.x(longitude: visible.west) * tiles).rounded(.down) - 1
        let x1 = (WebMercator.x(longitude: visible.east) * tiles).rounded(.up) + 1
        // North is the smaller y.
        let y0 = max(0, (WebMercator.y(latitude: min(visible.north, 90)) * tiles).rounded(.down) - 1)
        let y1 = min(tiles, (WebMercator.y(latitude: max(visible.south, -90)) * tiles).rounded(.up) + 1)
        let north = y0 <= 0 ? 90 : WebMercator.latitude(y: y0 / tiles)
        let south = y1 >= tiles ? -90 : WebMercator.latitude(y: y1 / tiles)
        if x1 - x0 >= tiles {
            return PostGISViewQueue.View(bounds: GeoBounds(west: -180, south: south, east: 180, north: north), zoom: Double(z))
        }
        return PostGISViewQueue.View(bounds: GeoBounds(west: WebMercator.longitude(x: x0 / tiles), south: south,
                                                       east: WebMercator.longitude(x: x1 / tiles), north: north),
                                     zoom: Double(z))
    }

    /// The view to ask for now, or nil when the last one asked for already covers `visible` at
    /// this whole zoom (the map shows what it has).
    public mutating func viewToRequest(visible: GeoBounds, zoom: Double) -> PostGISViewQueue.View? {
        let wanted = PostGISViewPlanner.view(visible: visible, zoom: zoom)
        if let last = lastRequested, last.zoom == wanted.zoom, PostGISViewPlanner.box(last.bounds, covers: visible) {
            return nil
        }
        lastRequested = wanted
        return wanted
    }

    /// Forgets the last view (the data or the options changed, or a query failed): the next
    /// camera change asks again.
    public mutating func reset() { lastRequested = nil }

    /// Whether `outer` holds `inner` (both unwrapped; a box spanning every longitude holds any).
    static func box(_ outer: GeoBounds, covers inner: GeoBounds) -> Bool {
        guard inner.south >= outer.south, inner.north <= outer.north else { return false }
        if outer.coversAllLongitudes { return true }
        return inner.west >= outer.west && inner.east <= outer.east
    }
}
