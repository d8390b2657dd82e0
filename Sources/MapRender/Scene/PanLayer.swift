import CCairo
import MapModel

/// The scene overlay, copied while the camera pans at one zoom instead of composited again.
///
/// A `MapOverlay` in place of its `SceneRenderer`. Each frame the caller asks `prepare` first: at
/// rest (and whenever no layer can serve) the scene is drawn directly as before, so frames at rest
/// and golden images never depend on it. While panning, the overlay is drawn once into an image
/// larger than the view (`PanLayerPlan`: margins around it, most of them ahead of the motion) and
/// the following frames copy the view's part of it, at the pan offset rounded to device pixels,
/// over the base map. Blocks of the image with nothing drawn are skipped. While one layer is
/// copied, the next one (where the pan is heading) is drawn a band of rows a frame, so that when
/// the view leaves the layer the next one is ready; a layer is drawn whole in one frame only when
/// none is ready (the first frame of a pan, a turn, or a change of the zoom, size, scale or the
/// caller's content stamp).
public final class PanLayer: MapOverlay {
    /// Draws the scene (directly, or into the layer).
    public let sceneRenderer: SceneRenderer
    /// Average margin around the view, logical pixels (see `PanLayerPlan.make`); 0: no layer.
    public var margin = 256.0
    /// Side of the blocks whose emptiness is recorded, device pixels.
    public static let blockSize = 32
    /// Most bands a layer drawn ahead is split into.
    public static let maxBands = 12

    /// What the coming frame does.
    public enum Mode: Equatable, Sendable {
        /// The scene, built for the view, is drawn directly.
        case direct
        /// The scene, built for the layer camera, is drawn into a new layer, then copied.
        case rebuild
        /// The layer is copied with the view starting at this device pixel of it.
        case copy(x: Int, y: Int)
    }
    /// The mode chosen by the last `prepare`.
    public private(set) var mode = Mode.direct
    /// The plan of the layer being copied (nil until one is drawn).
    public private(set) var plan: PanLayerPlan?
    /// The scene drawn in the layer being copied (layer coordinates).
    public private(set) var layerScene = Scene()
    /// Layers drawn whole in one frame so far (for tests and benchmarks).
    public private(set) var rebuildCount = 0
    /// Layers drawn ahead, band by band, that were then shown (for tests and benchmarks).
    public private(set) var swapCount = 0

    private var image: ImageSurface?
    private var blocks = LayerBlocks()
    /// The layer drawn ahead: its plan, scene (once the caller built it) and rows drawn so far.
    private struct Next {
        var plan: PanLayerPlan
        var bandRows: Int
        var scene: Scene?
        var image: ImageSurface?
        var rowsDone = 0
        var blocks: LayerBlocks?
    }
    private var next: Next?
    /// An image to reuse for the next layer.
    private var spare: ImageSurface?
    /// Whether the scene the caller builds now is for the layer drawn ahead.
    private var awaitingNextScene = false
    private var lastCenter: ScreenPoint?
    private var lastZoom: Double?

    /// Creates a layer over a scene renderer.
    public init(sceneRenderer: SceneRenderer = SceneRenderer()) {
        self.sceneRenderer = sceneRenderer
    }

    /// The scene to draw: set it to the scene built for the camera `prepare` returned (the view,
    /// a new layer's camera, or the camera of the layer drawn ahead).
    public var scene: Scene {
        get { sceneRenderer.scene }
        set {
            if awaitingNextScene {
                awaitingNextScene = false
                next?.scene = newValue
                return
            }
            sceneRenderer.scene = newValue
            if mode == .rebuild { layerScene = newValue }
        }
    }

    /// Whether the scene asked for by the last `prepare` is for the layer drawn ahead (the frame
    /// itself copies the current layer).
    public var isPreparingNext: Bool { awaitingNextScene }

    /// `MapOverlay`: the scene renderer's version (frames at rest are drawn directly).
    public var contentVersion: Int? { sceneRenderer.contentVersion }

    /// Chooses what the coming frame does and returns the camera to build a scene for (then set
    /// `scene`), or nil when nothing needs building. `content` stamps everything but the camera;
    /// nil, like `moving: false`, draws directly.
    public func prepare(camera: Camera, scale: Double, content: Int?, moving: Bool) -> Camera? {
        awaitingNextScene = false
        let c = camera.centerWorldPixel
        let step = lastZoom == camera.zoom ? lastCenter.map { ScreenPoint(x: c.x - $0.x, y: c.y - $0.y) } : nil
        lastCenter = ScreenPoint(x: c.x, y: c.y)
        lastZoom = camera.zoom
        guard moving, let content, margin > 0 else { mode = .direct; return camera }
        if let plan, image != nil, let o = plan.viewOrigin(for: camera, scale: scale, content: content) {
            mode = .copy(x: o.x, y: o.y)
            if let n = next, n.plan.content != content || n.plan.zoom != camera.zoom || n.plan.scale != scale { next = nil }
            if next == nil, let step, let ahead = planAhead(plan, view: o, camera: camera, step: step) {
                next = Next(plan: ahead.plan, bandRows: ahead.bandRows)
                awaitingNextScene = true
                return ahead.plan.layerCamera
            }
            return nil
        }
        // The view left the layer: the one drawn ahead, if it is ready and holds the view.
        if let n = next, let done = n.blocks, let nextImage = n.image,
           let o = n.plan.viewOrigin(for: camera, scale: scale, content: content) {
            spare = image
            image = nextImage
            blocks = done
            plan = n.plan
            layerScene = n.scene ?? Scene()
            next = nil
            swapCount += 1
            mode = .copy(x: o.x, y: o.y)
            return nil
        }
        next = nil
        // Only a pan at one zoom is worth a layer: not the first frame at a new zoom.
        guard let step, let fresh = PanLayerPlan.make(camera: camera, scale: scale, content: content,
                                                      margin: margin, velocity: step) else {
            mode = .direct
            return camera
        }
        plan = fresh
        mode = .rebuild
        return fresh.layerCamera
    }

    /// The layer to draw ahead: around where the view will be when it leaves `plan` at this pace,
    /// and how many rows to draw a frame so that it is done in about half the frames left.
    private func planAhead(_ plan: PanLayerPlan, view o: (x: Int, y: Int), camera: Camera,
                           step: ScreenPoint) -> (plan: PanLayerPlan, bandRows: Int)? {
        let s = plan.scale
        let spanX = ((plan.left + plan.right) * s).rounded(), spanY = ((plan.top + plan.bottom) * s).rounded()
        var frames = Double.infinity
        if abs(step.x) >= PanLayerPlan.steadyThreshold {
            frames = min(frames, (step.x > 0 ? spanX - Double(o.x) : Double(o.x)) / (abs(step.x) * s))
        }
        if abs(step.y) >= PanLayerPlan.steadyThreshold {
            frames = min(frames, (step.y > 0 ? spanY - Double(o.y) : Double(o.y)) / (abs(step.y) * s))
        }
        guard frames.isFinite else { return nil }
        let f = max(0, frames.rounded(.down))
        guard let ahead = PanLayerPlan.make(camera: camera.panned(by: -step.x * f, -step.y * f), scale: s,
                                            content: plan.content, margin: margin, velocity: step) else { return nil }
        let rows = Int((ahead.layerSize.height * s).rounded())
        let bands = max(1, min(PanLayer.maxBands, Int(f / 2)))
        return (ahead, (rows + bands - 1) / bands)
    }

    /// Forgets the layers (e.g. to free their memory).
    public func discard() {
        plan = nil
        image = nil
        spare = nil
        next = nil
        blocks = LayerBlocks()
        layerScene = Scene()
    }

    /// `MapOverlay`: draws the scene as `prepare` chose.
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) {
        draw(in: cr, camera: camera, palette: palette, isAnimating: false)
    }

    /// `MapOverlay`: draws the scene as `prepare` chose.
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette, isAnimating: Bool) {
        switch mode {
        case .direct:
            sceneRenderer.draw(in: cr, camera: camera, palette: palette, isAnimating: isAnimating)
        case .rebuild:
            guard let plan else { return }
            drawLayer(plan, palette: palette)
            let o = (x: Int((plan.left * plan.scale).rounded()), y: Int((plan.top * plan.scale).rounded()))
            copy(into: cr, camera: camera, x: o.x, y: o.y)
            mode = .copy(x: o.x, y: o.y)
        case .copy(let x, let y):
            copy(into: cr, camera: camera, x: x, y: y)
            drawNextBand(palette: palette)
        }
    }

    /// A cleared image for `plan` (reusing `old` if it fits).
    private func clearedImage(_ plan: PanLayerPlan, reusing old: ImageSurface?) -> ImageSurface {
        let pw = Int((plan.layerSize.width * plan.scale).rounded()), ph = Int((plan.layerSize.height * plan.scale).rounded())
        if let old, old.pixelWidth == pw, old.pixelHeight == ph, old.scale == plan.scale {
            old.withContext { cr in
                cairo_set_operator(cr, CAIRO_OPERATOR_CLEAR)
                cairo_paint(cr)
            }
            return old
        }
        return ImageSurface(pixelWidth: pw, pixelHeight: ph, scale: plan.scale)
    }

    /// Draws the scene into a cleared layer image and records its empty blocks. Names are made
    /// at once (not left to the background worker as in motion): the layer is then complete.
    private func drawLayer(_ plan: PanLayerPlan, palette: MapPalette) {
        let layer = clearedImage(plan, reusing: image)
        layer.withContext { cr in
            sceneRenderer.draw(sceneRenderer.scene, in: cr, palette: palette, isAnimating: false)
        }
        cairo_surface_flush(layer.surface)
        image = layer
        rebuildCount += 1
        blocks = LayerBlocks(layer)
    }

    /// Draws the next band of rows of the layer drawn ahead (clipped to the band, a draw gives the
    /// band's pixels of a whole draw), and records its blocks once the last band is drawn.
    private func drawNextBand(palette: MapPalette) {
        guard var n = next, let scene = n.scene, n.blocks == nil else { return }
        let layer = n.image ?? clearedImage(n.plan, reusing: spare)
        spare = nil
        let s = n.plan.scale
        let rows = min(layer.pixelHeight - n.rowsDone, n.bandRows)
        layer.withContext { cr in
            cairo_rectangle(cr, 0, Double(n.rowsDone) / s, Double(layer.pixelWidth) / s, Double(rows) / s)
            cairo_clip(cr)
            sceneRenderer.draw(scene, in: cr, palette: palette, isAnimating: false)
        }
        n.rowsDone += rows
        n.image = layer
        if n.rowsDone >= layer.pixelHeight {
            cairo_surface_flush(layer.surface)
            n.blocks = LayerBlocks(layer)
        }
        next = n
    }

    /// Copies the layer's part for the view (origin at device pixel (x, y) of the layer) over
    /// what `cr` holds, runs of blocks with something drawn only.
    private func copy(into cr: OpaquePointer, camera: Camera, x: Int, y: Int) {
        guard let image else { return }
        let s = image.scale, b = PanLayer.blockSize
        let vw = Int((camera.viewportSize.width * s).rounded()), vh = Int((camera.viewportSize.height * s).rounded())
        cairo_save(cr)
        cairo_new_path(cr)
        let across = blocks.across
        let bx0 = x / b, bx1 = min(across - 1, (x + vw - 1) / b)
        let by0 = y / b, by1 = min(blocks.down - 1, (y + vh - 1) / b)
        if bx0 <= bx1, by0 <= by1 {
            for by in by0...by1 {
                let top = max(y, by * b), bottom = min(y + vh, (by + 1) * b)
                var bx = bx0
                while bx <= bx1 {
                    guard blocks.occupied[by * across + bx] else { bx += 1; continue }
                    var end = bx
                    while end + 1 <= bx1, blocks.occupied[by * across + end + 1] { end += 1 }
                    let left = max(x, bx * b), right = min(x + vw, (end + 1) * b)
                    cairo_rectangle(cr, Double(left - x) / s, Double(top - y) / s,
                                    Double(right - left) / s, Double(bottom - top) / s)
                    bx = end + 1
                }
            }
        }
        cairo_set_source_surface(cr, image.surface, -Double(x) / s, -Double(y) / s)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_fill(cr)
        cairo_restore(cr)
    }
}

/// Which blocks of a layer image have anything drawn (row-major, `across` a row).
private struct LayerBlocks {
    var across = 0, down = 0
    var occupied: [Bool] = []

    init() {}

    /// Scans `layer` (premultiplied: a pixel with nothing drawn is all zero).
    init(_ layer: ImageSurface) {
        let b = PanLayer.blockSize, w = layer.pixelWidth, h = layer.pixelHeight
        across = (w + b - 1) / b
        down = (h + b - 1) / b
        occupied = [Bool](repeating: false, count: across * down)
        guard let data = cairo_image_surface_get_data(layer.surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(layer.surface))
        for by in 0..<down {
            let y0 = by * b, y1 = min(h, y0 + b)
            for bx in 0..<across {
                let x0 = bx * b, x1 = min(w, x0 + b)
                var any = false
                rows: for y in y0..<y1 {
                    let row = UnsafeRawPointer(data + y * stride)
                    var x = x0
                    while x + 1 < x1 {
                        if row.loadUnaligned(fromByteOffset: x * 4, as: UInt64.self) != 0 { any = true; break rows }
                        x += 2
                    }
                    if x < x1, row.load(fromByteOffset: x * 4, as: UInt32.self) != 0 { any = true; break rows }
                }
                occupied[by * across + bx] = any
            }
        }
    }
}
