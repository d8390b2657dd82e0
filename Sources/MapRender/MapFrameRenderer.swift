import CCairo
import Foundation
import GeoData
import MapModel

/// Something drawn over the base map and under the scale bar and attribution (e.g. the scene of
/// bubbles, pins and callouts). Drawn in logical viewport coordinates, top-left at the origin.
public protocol MapOverlay: AnyObject {
    func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette)
    /// A number that changes whenever what the overlay draws for a camera changes, or nil if it
    /// can't tell (then frames with it are never reused; see `MapFrameRenderer`).
    var contentVersion: Int? { get }
    /// Draws as `draw(in:camera:palette:)`; `isAnimating` while the camera moves (an overlay may
    /// then leave costly new parts for a later frame). By default the same as at rest.
    func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette, isAnimating: Bool)
    /// Whether the overlay will cover the whole view with opaque pixels for this camera (then the
    /// base map under it isn't drawn). By default false.
    func hidesBaseMap(camera: Camera, palette: MapPalette, scale: Double) -> Bool
}

extension MapOverlay {
    public var contentVersion: Int? { nil }
    public func hidesBaseMap(camera: Camera, palette: MapPalette, scale: Double) -> Bool { false }
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette, isAnimating: Bool) {
        draw(in: cr, camera: camera, palette: palette)
    }
}

/// Draws a whole map frame: base map, overlays, scale bar and attribution.
///
/// The window's draw callback and headless rendering both use it, so they draw the same pixels.
public final class MapFrameRenderer {
    /// The base-map renderer (owns the base-map tile cache).
    public let baseMap: BaseMapRenderer
    /// Overlays drawn in order over the base map (`setOverlays`).
    public internal(set) var overlays: [any MapOverlay] = []
    /// Whether the last frame drawn was exact: the base map's exact tiles, or an overlay that hid it
    /// with everything in.
    public private(set) var lastFrameWasExact = false
    /// Attribution text for the data in use (plain text; `setAttribution`).
    public internal(set) var attribution: String
    /// Whether to draw the scale bar.
    public var showsScaleBar = true
    /// Inset of scale bar and attribution from the viewport edges, logical pixels.
    public var overlayMargin = 8.0
    /// Whether frames in motion paint the base map's tile copies with the scene's sprites, band
    /// by band (`DeferredBase`; the same pixels). On unless `CLUSTERMAP_DEFER_BASE=0` (for
    /// benchmarks comparing both in one build).
    public var deferBaseMap = MapFrameRenderer.defersBaseMapByDefault
    static let defersBaseMapByDefault = ProcessInfo.processInfo.environment["CLUSTERMAP_DEFER_BASE"] != "0"

    /// Default attribution for the bundled base map and cities.
    public static let defaultAttribution = MapCredits.builtIn

    /// Creates a frame renderer over base maps loaded so far (see `BaseMap.load`).
    public init(coarse: BaseMap?, detailed: BaseMap? = nil, fine: BaseMap? = nil, palette: MapPalette = .light,
                attribution: String = MapFrameRenderer.defaultAttribution) {
        baseMap = BaseMapRenderer(coarse: coarse, detailed: detailed, fine: fine, palette: palette)
        self.attribution = attribution
    }

    /// The palette (light/dark; `setPalette`).
    public internal(set) var palette: MapPalette {
        get { baseMap.palette }
        set { baseMap.palette = newValue }
    }

    /// Draws `overlays` in this order over the base map from the next frame on.
    public func setOverlays(_ overlays: [any MapOverlay]) { self.overlays = overlays }

    /// Draws `overlay` first, under the other overlays (a street map under the places).
    public func addOverlayUnderneath(_ overlay: any MapOverlay) { overlays.insert(overlay, at: 0) }

    /// Stops drawing `overlay`.
    public func removeOverlay(_ overlay: any MapOverlay) { overlays.removeAll { $0 === overlay } }

    /// Credits `attribution` (plain text) for the data in use from the next frame on.
    public func setAttribution(_ attribution: String) { self.attribution = attribution }

    /// Draws in `palette` from the next frame on; switching drops cached base-map tiles.
    public func setPalette(_ palette: MapPalette) { self.palette = palette }

    /// Draws a frame for `camera` into `cr` (top-left of the viewport at the user-space origin),
    /// as at rest: crisp base map.
    public func draw(in cr: OpaquePointer, camera: Camera) {
        draw(in: cr, camera: camera, isAnimating: false)
    }

    /// Draws a frame; pass `isAnimating: true` while a camera animation or a gesture runs: the
    /// base map then comes from scaled tiles of the nearest zoom level (fast, slightly soft),
    /// and the first frame at rest is crisp again.
    public func draw(in cr: OpaquePointer, camera: Camera, isAnimating: Bool) {
        let key = isAnimating ? nil : restingFrameKey(cr, camera: camera)
        if let key, let frame = restingFrame, frame.key == key {
            // The same frame as the last one at rest (e.g. a redraw with nothing changed): one copy.
            cairo_save(cr)
            cairo_rectangle(cr, 0, 0, camera.viewportSize.width, camera.viewportSize.height)
            cairo_clip(cr)
            cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(cr, frame.image.surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
            cairo_paint(cr)
            cairo_restore(cr)
            return
        }
        // The helper stays awake for this frame's bands (see `BandHelper`).
        if baseMap.usesBothCores { BandHelper.shared.frameBegins() }
        defer { if baseMap.usesBothCores { BandHelper.shared.frameEnds() } }
        cairo_save(cr)
        let t0 = BandHelper.threadCPU()
        // Under a street map whose tiles are all in, the built-in map would be painted only to be
        // covered (28 % of a zoom-animation frame's drawing over Florence's tiles).
        let scale = BaseMapRenderer.deviceScale(of: cr)
        let hidden = overlays.contains { $0.hidesBaseMap(camera: camera, palette: palette, scale: scale) }
        // In motion, the base map's tile copies may be left to the scene's sprite batch (the first
        // overlay's), painted band by band with its sprites (see `DeferredBase`).
        let sceneBatch = (overlays.first as? PanLayer)?.sceneRenderer.batch ?? (overlays.first as? SceneRenderer)?.batch
        if isAnimating, baseMap.usesBothCores, deferBaseMap { baseMap.blits.deferral = sceneBatch }
        if !hidden { baseMap.draw(in: cr, camera: camera, isAnimating: isAnimating) }
        baseMap.blits.deferral = nil
        lastFrameWasExact = hidden || baseMap.lastFrameWasExact
        let t1 = BandHelper.threadCPU()
        for (n, overlay) in overlays.enumerated() {
            cairo_save(cr)
            overlay.draw(in: cr, camera: camera, palette: palette, isAnimating: isAnimating)
            cairo_restore(cr)
            // The first overlay's batch paints the deferred copies at its first flush; should it
            // return without one, they are finished here, before a later overlay draws over rows
            // the helper may still be writing (a no-op when they are done).
            if n == 0 { sceneBatch?.finishPendingBase() }
        }
        sceneBatch?.finishPendingBase()
        let t2 = BandHelper.threadCPU()
        drawChrome(in: cr, camera: camera)
        cairo_restore(cr)
        lastFramePhases = FramePhases(baseMap: t1 - t0, overlays: t2 - t1, chrome: BandHelper.threadCPU() - t2)
        // Keep a copy once the same frame at rest comes twice in a row (the base map has settled
        // on exact tiles), so that further redraws of it are a single copy.
        if let key, key == lastRestingKey, lastFrameWasExact {
            keepRestingFrame(from: cr, key: key)
        } else if restingFrame?.key != key {
            restingFrame = nil
        }
        lastRestingKey = lastFrameWasExact ? key : nil
    }

    /// Drawing-thread CPU milliseconds of the parts of a frame (for benchmarks).
    public struct FramePhases: Sendable {
        public var baseMap = 0.0, overlays = 0.0, chrome = 0.0
    }
    /// The parts of the last frame drawn in full (not a copy of the frame before).
    public private(set) var lastFramePhases = FramePhases()

    /// Whether a frame just drawn at rest may be reused for an identical request.
    private struct RestingFrameKey: Equatable {
        var camera: Camera
        var palette: MapPalette
        var scale: Double
        var baseMapVersion: Int
        var overlays: [ObjectIdentifier]
        var overlayVersions: [Int]
        var attribution: String
        var showsScaleBar: Bool
        var overlayMargin: Double
        // Not the target itself: a window drawing into two images in turn (`OffscreenFrame`)
        // reuses one resting frame for both.
        var originX: Double, originY: Double
    }
    private var lastRestingKey: RestingFrameKey?
    private var restingFrame: (key: RestingFrameKey, image: ImageSurface)?

    /// The key of a frame at rest into `cr`, or nil if it can't be reused (a transformed or clipped
    /// context, an overlay that can't tell whether it changed, a base map drawn without tiles).
    private func restingFrameKey(_ cr: OpaquePointer, camera: Camera) -> RestingFrameKey? {
        guard baseMap.usesTileCache, cairo_get_target(cr) != nil else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xx == 1, m.yy == 1, m.xy == 0, m.yx == 0 else { return nil }
        var versions: [Int] = []
        versions.reserveCapacity(overlays.count)
        for overlay in overlays {
            guard let v = overlay.contentVersion else { return nil }
            versions.append(v)
        }
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        var c = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
        cairo_clip_extents(cr, &c.x0, &c.y0, &c.x1, &c.y1)
        guard c.x0 <= 0, c.y0 <= 0, c.x1 >= w, c.y1 >= h else { return nil }
        let scale = BaseMapRenderer.deviceScale(of: cr)
        guard (w * scale).rounded() == w * scale, (h * scale).rounded() == h * scale else { return nil }
        var ox = 0.0, oy = 0.0
        cairo_user_to_device(cr, &ox, &oy)
        return RestingFrameKey(camera: camera, palette: palette, scale: scale,
                               baseMapVersion: baseMap.contentVersion,
                               overlays: overlays.map { ObjectIdentifier($0) }, overlayVersions: versions,
                               attribution: attribution, showsScaleBar: showsScaleBar, overlayMargin: overlayMargin,
                               originX: ox, originY: oy)
    }

    private func keepRestingFrame(from cr: OpaquePointer, key: RestingFrameKey) {
        guard let target = cairo_get_target(cr) else { return }
        let w = Int(key.camera.viewportSize.width), h = Int(key.camera.viewportSize.height)
        let image: ImageSurface
        if let old = restingFrame?.image, old.pixelWidth == Int((Double(w) * key.scale).rounded()),
           old.pixelHeight == Int((Double(h) * key.scale).rounded()), old.scale == key.scale {
            image = old
        } else {
            image = ImageSurface(width: w, height: h, scale: key.scale)
        }
        cairo_surface_flush(target)
        image.withContext { icr in
            cairo_set_operator(icr, CAIRO_OPERATOR_SOURCE)
            cairo_set_source_surface(icr, target, -key.originX, -key.originY)
            cairo_pattern_set_filter(cairo_get_source(icr), CAIRO_FILTER_NEAREST)
            cairo_paint(icr)
        }
        cairo_surface_flush(image.surface)
        restingFrame = (key, image)
    }

    /// The scale bar's and attribution's texts, laid out once.
    private let chromeTexts = ChromeText()

    /// Scale bar (bottom-left) and attribution (bottom-right).
    func drawChrome(in cr: OpaquePointer, camera: Camera) {
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        var attributionWidth = 0.0
        if !attribution.isEmpty {
            attributionWidth = AttributionLabel.draw(attribution, in: cr, bottomRight: w, h, palette: palette,
                                                     texts: chromeTexts).width
        }
        if showsScaleBar, let bar = ScaleBar.choose(metersPerPixel: camera.metersPerPixel,
                                                    maxPixels: min(110, max(30, w - attributionWidth - 40))) {
            bar.draw(in: cr, bottomLeft: overlayMargin, h - overlayMargin, palette: palette, texts: chromeTexts)
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
