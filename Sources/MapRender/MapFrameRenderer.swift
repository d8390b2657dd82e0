import CCairo
import Foundation
import GeoData
import MapModel

/// Something drawn over the base map and under the scale bar and attribution (e.g. the scene of
/// bubbles, pins and callouts). Drawn in logical viewport coordinates, top-left at the origin.
public protocol MapOverlay: AnyObject {
    func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette)
}

/// An overlay made from a closure.
public final class ClosureOverlay: MapOverlay {
    private let body: (OpaquePointer, Camera, MapPalette) -> Void
    public init(_ body: @escaping (OpaquePointer, Camera, MapPalette) -> Void) { self.body = body }
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) { body(cr, camera, palette) }
}

/// Draws a whole map frame: base map, overlays, scale bar and attribution.
///
/// The window's draw callback and headless rendering both use it, so they draw the same pixels.
public final class MapFrameRenderer {
    /// The base-map renderer (owns the base-map tile cache).
    public let baseMap: BaseMapRenderer
    /// Overlays drawn in order over the base map.
    public var overlays: [any MapOverlay] = []
    /// Attribution text for the data in use (plain text).
    public var attribution: String
    /// Whether to draw the scale bar.
    public var showsScaleBar = true
    /// Inset of scale bar and attribution from the viewport edges, logical pixels.
    public var overlayMargin = 8.0

    /// Default attribution for the bundled base map and cities.
    public static let defaultAttribution = "© Natural Earth · GeoNames CC BY 4.0"

    /// Creates a frame renderer over base maps loaded so far (see `BaseMap.load`).
    public init(coarse: BaseMap?, detailed: BaseMap? = nil, palette: MapPalette = .light,
                attribution: String = MapFrameRenderer.defaultAttribution) {
        baseMap = BaseMapRenderer(coarse: coarse, detailed: detailed, palette: palette)
        self.attribution = attribution
    }

    /// The palette (light/dark); switching drops cached base-map tiles.
    public var palette: MapPalette {
        get { baseMap.palette }
        set { baseMap.palette = newValue }
    }

    /// Draws a frame for `camera` into `cr` (top-left of the viewport at the user-space origin),
    /// as at rest: crisp base map.
    public func draw(in cr: OpaquePointer, camera: Camera) {
        draw(in: cr, camera: camera, isAnimating: false)
    }

    /// Draws a frame; pass `isAnimating: true` while a camera animation or a gesture runs: the
    /// base map then comes from scaled tiles of the nearest zoom level (fast, slightly soft),
    /// and the first frame at rest is crisp again.
    public func draw(in cr: OpaquePointer, camera: Camera, isAnimating: Bool) {
        cairo_save(cr)
        baseMap.draw(in: cr, camera: camera, isAnimating: isAnimating)
        for overlay in overlays {
            cairo_save(cr)
            overlay.draw(in: cr, camera: camera, palette: palette)
            cairo_restore(cr)
        }
        drawChrome(in: cr, camera: camera)
        cairo_restore(cr)
    }

    /// Scale bar (bottom-left) and attribution (bottom-right).
    func drawChrome(in cr: OpaquePointer, camera: Camera) {
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        var attributionWidth = 0.0
        if !attribution.isEmpty {
            attributionWidth = AttributionLabel.draw(attribution, in: cr, bottomRight: w, h, palette: palette).width
        }
        if showsScaleBar, let bar = ScaleBar.choose(metersPerPixel: camera.metersPerPixel,
                                                    maxPixels: min(110, max(30, w - attributionWidth - 40))) {
            bar.draw(in: cr, bottomLeft: overlayMargin, h - overlayMargin, palette: palette)
        }
    }

    /// Renders a frame headless into a new ARGB image of the camera's viewport size at `scale`.
    public func renderImage(camera: Camera, scale: Double = 1) -> ImageSurface {
        let image = ImageSurface(width: Int(camera.viewportSize.width.rounded()),
                                 height: Int(camera.viewportSize.height.rounded()), scale: scale)
        image.withContext { draw(in: $0, camera: camera) }
        return image
    }

    /// Renders a frame headless and writes it as a PNG.
    public func renderPNG(camera: Camera, scale: Double = 1, to url: URL) throws {
        try renderImage(camera: camera, scale: scale).writePNG(to: url)
    }
}
