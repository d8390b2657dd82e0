import Foundation
import ClusterCore

extension Camera {
    /// Default margin kept around fitted bounds, in screen pixels.
    public static let fitPaddingPixels = 40.0

    /// The zoom at which `bounds` fits in the viewport inside `paddingPixels` on every side
    /// (unclamped; +∞ for a single point). Honours boxes that cross 180°.
    public func zoomToFit(_ bounds: GeoBounds, paddingPixels: Double = Camera.fitPaddingPixels) -> Double {
        let ext = Camera.unitExtent(of: bounds)
        let availW = max(1, viewportSize.width - 2 * paddingPixels)
        let availH = max(1, viewportSize.height - 2 * paddingPixels)
        let scaleW = ext.width > 0 ? availW / (ext.width * Camera.world0Size) : .infinity
        let scaleH = ext.height > 0 ? availH / (ext.height * Camera.world0Size) : .infinity
        return log2(min(scaleW, scaleH))
    }

    /// The camera (same viewport and limits) centred on `bounds` at the zoom that fits it with
    /// `paddingPixels` around it, no deeper than `maxZoom` (the camera's own limit by default) and
    /// never so shallow that the world would repeat side by side (`zoomFillingWidth`): a global
    /// file shows each place once. `0`/Home ("show all data") and opening data use this.
    public func fitting(_ bounds: GeoBounds, paddingPixels: Double = Camera.fitPaddingPixels,
                        maxZoom: Double? = nil) -> Camera {
        let z = min(max(zoomToFit(bounds, paddingPixels: paddingPixels), zoomFillingWidth), maxZoom ?? self.maxZoom)
        var c = self
        c.setZoom(z)
        c.setCenter(Camera.center(of: bounds))
        return c
    }

    /// The zoom at which the world is exactly as wide as the viewport (shallower, it repeats
    /// side by side).
    public var zoomFillingWidth: Double {
        max(0, log2(viewportSize.width / Camera.world0Size))
    }

    /// The middle of a box in Web Mercator (so the fitted box is centred on screen), taking
    /// boxes across 180° into account.
    static func center(of b: GeoBounds) -> GeoCoordinate {
        let ext = unitExtent(of: b)
        let lon = GeoCoordinate.wrapLongitude(b.west + ext.width * 180)
        let yMid = (WebMercator.y(latitude: b.north) + WebMercator.y(latitude: b.south)) / 2
        return GeoCoordinate(latitude: WebMercator.latitude(y: yMid), longitude: lon)
    }

    /// Width and height of a box in unit Mercator (width 1 = the whole world).
    static func unitExtent(of b: GeoBounds) -> (width: Double, height: Double) {
        var degrees = b.east - b.west
        if b.crossesAntimeridian { degrees += 360 }
        degrees = min(360, max(0, degrees))
        let h = abs(WebMercator.y(latitude: b.south) - WebMercator.y(latitude: b.north))
        return (degrees / 360, h)
    }
}
