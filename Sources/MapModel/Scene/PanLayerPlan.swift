/// Where a pan layer sits and which frames may show it by copying. Pure: MapRender's `PanLayer`
/// holds the pixels, this decides.
///
/// While the camera pans at one zoom, everything over the base map (names, bubbles, pins, hull,
/// callout) is anchored to the world: each frame is the last one moved. A pan layer is that
/// overlay drawn once for an area larger than the view (the view plus margins, more of them ahead
/// of the motion), then copied at the pan offset frame after frame. A frame may copy it when:
/// - the zoom, viewport size, device scale and content stamp are those it was drawn for (the
///   content stamp stands for everything else the scene shows: data, selection, hover, fades,
///   palette, style);
/// - the view, at the offset rounded to whole device pixels, lies inside the layer.
/// Offsets are rounded as sprites are (`x + 0.5` rounded down), so at whole-device-pixel offsets
/// the copy equals a direct draw; in between, marks sit at most one device pixel from where a
/// direct draw puts them. Frames at rest are never copied (the caller draws them directly).
public struct PanLayerPlan: Equatable, Sendable {
    /// The zoom the layer was drawn at.
    public let zoom: Double
    /// The view's size (logical pixels).
    public let viewportSize: ScreenSize
    /// Device pixels per logical pixel.
    public let scale: Double
    /// The caller's stamp for everything but the camera.
    public let content: Int
    /// The camera's centre in world pixels when the layer was drawn.
    public let origin: ScreenPoint
    /// Margins around the view at `origin`, logical pixels (whole device pixels each).
    public let left: Double, top: Double, right: Double, bottom: Double
    /// The camera to build the layer's scene for: its viewport is the layer, and its screen
    /// coordinates are the layer's (the view at `origin` starts at (`left`, `top`)).
    public let layerCamera: Camera

    /// The layer's size, logical pixels.
    public var layerSize: ScreenSize { layerCamera.viewportSize }

    /// Motion (world pixels per frame, either axis) below which the margins stay even.
    public static let steadyThreshold = 0.5
    /// Share of the two margins of an axis left behind the motion (the rest goes ahead).
    public static let trailingShare = 0.25

    /// A layer for `camera`, `margin` logical pixels on each side on average; along an axis the
    /// camera moves on (`velocity`: the camera centre's last step, world pixels), most of the two
    /// margins go ahead of the motion. Nil when a layer can't serve: a world narrower or shorter
    /// than the layer (copies of the world side by side, or the view clamped at the Mercator edge).
    public static func make(camera: Camera, scale: Double, content: Int, margin: Double,
                            velocity: ScreenPoint = .zero) -> PanLayerPlan? {
        guard scale > 0, margin >= 0 else { return nil }
        // Whole device pixels, so the view's place in the layer is exact when it is drawn.
        func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
        func split(_ v: Double) -> (before: Double, after: Double) {
            let total = snap(2 * margin)
            guard abs(v) >= steadyThreshold else { let b = snap(margin); return (b, total - b) }
            let behind = snap(2 * margin * trailingShare)
            return v > 0 ? (behind, total - behind) : (total - behind, behind)
        }
        let (left, right) = split(velocity.x), (top, bottom) = split(velocity.y)
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        let size = ScreenSize(width: w + left + right, height: h + top + bottom)
        let ws = camera.worldSize
        guard size.width <= ws, size.height <= ws else { return nil }
        let c = camera.centerWorldPixel
        let lc = ScreenPoint(x: c.x + (right - left) / 2, y: c.y + (bottom - top) / 2)
        let layerCamera = Camera(center: camera.coordinate(at: ScreenPoint(x: w / 2 + (right - left) / 2,
                                                                                 y: h / 2 + (bottom - top) / 2)),
                             zoom: camera.zoom, viewportSize: size, minZoom: camera.minZoom, maxZoom: camera.maxZoom)
        // The Mercator clamp moved it: the layer would not be the view's surroundings.
        let got = layerCamera.centerWorldPixel
        var dx = got.x - lc.x
        dx -= (dx / ws).rounded() * ws
        guard abs(dx) < 1e-6, abs(got.y - lc.y) < 1e-6 else { return nil }
        return PanLayerPlan(zoom: camera.zoom, viewportSize: camera.viewportSize, scale: scale, content: content,
                            origin: ScreenPoint(x: c.x, y: c.y), left: left, top: top, right: right, bottom: bottom,
                            layerCamera: layerCamera)
    }

    /// Where the view of `camera` starts in the layer, whole device pixels, or nil if this frame
    /// can't copy the layer (another zoom, size, scale or content, or the view leaves the layer).
    public func viewOrigin(for camera: Camera, scale: Double, content: Int) -> (x: Int, y: Int)? {
        guard let o = offset(for: camera, scale: scale, content: content) else { return nil }
        guard o.x >= 0, o.y >= 0, o.x <= ((left + right) * scale).rounded(), o.y <= ((top + bottom) * scale).rounded() else {
            return nil
        }
        return (Int(o.x), Int(o.y))
    }

    /// Where the view of `camera` starts in the layer, whole device pixels, inside the layer or
    /// not; nil for another zoom, size, scale or content.
    public func offset(for camera: Camera, scale: Double, content: Int) -> (x: Double, y: Double)? {
        guard camera.zoom == zoom, camera.viewportSize == viewportSize, scale == self.scale, content == self.content else {
            return nil
        }
        let c = camera.centerWorldPixel, ws = camera.worldSize
        var dx = c.x - origin.x
        dx -= (dx / ws).rounded() * ws  // across the antimeridian the world repeats
        return (((dx + left) * scale + 0.5).rounded(.down), ((c.y - origin.y + top) * scale + 0.5).rounded(.down))
    }

    public static func == (a: PanLayerPlan, b: PanLayerPlan) -> Bool {
        a.zoom == b.zoom && a.viewportSize == b.viewportSize && a.scale == b.scale && a.content == b.content
            && a.origin == b.origin && a.left == b.left && a.top == b.top && a.right == b.right && a.bottom == b.bottom
    }
}
