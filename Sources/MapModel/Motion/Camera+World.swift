import Foundation
import ClusterCore

/// Conversions between a camera and the zoom-0 world plane (the 256-pixel-wide world) in which
/// camera paths are computed: distances there do not depend on the zoom, so a path can mix
/// panning and zooming.
extension Camera {
    /// Width of the world in pixels at zoom 0.
    static let world0Size = 256.0

    /// The centre in zoom-0 world pixels.
    var world0Center: (x: Double, y: Double) {
        let u = WebMercator.project(center)
        return (u.x * Camera.world0Size, u.y * Camera.world0Size)
    }

    /// Width of the visible area in zoom-0 world pixels (the `w` of van Wijk & Nuij).
    var visibleWorld0Width: Double {
        max(viewportSize.width, 1) / pow(2, zoom)
    }

    /// A copy of this camera (same viewport and limits) at a zoom-0 world position and zoom.
    /// The x coordinate may lie outside the world: the longitude is wrapped.
    func moved(toWorld0 x: Double, _ y: Double, zoom z: Double) -> Camera {
        var c = self
        c.setZoom(z)
        let ux = x / Camera.world0Size
        let uy = min(1, max(0, y / Camera.world0Size))
        c.setCenter(GeoCoordinate(latitude: WebMercator.latitude(y: uy),
                                  longitude: WebMercator.longitude(x: ux)))
        return c
    }

    /// The signed x offset from `a` to `b` in a world of width `width`, the short way round
    /// (so a path never crosses the whole world to go from 179° to −179°).
    static func shortestDelta(from a: Double, to b: Double, width: Double) -> Double {
        var d = b - a
        d -= (d / width).rounded() * width
        return d
    }
}
