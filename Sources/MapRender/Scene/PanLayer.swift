import CCairo
import CSpriteBlend
import MapModel

/// The scene overlay, copied while the camera pans at one zoom instead of composited again.
///
/// A `MapOverlay` in place of its `SceneRenderer`. Each frame the caller asks `prepare` first: at
/// rest (and whenever no layer can serve) the scene is drawn directly as before, so frames at rest
/// and golden images never depend on it. While panning, the overlay is drawn into an image larger
/// than the view (`PanLayerPlan`: margins around it, most of them ahead of the motion), a band of
/// rows a frame, placed where the view is heading; once the view is inside a finished layer,
/// frames copy the view's part of it, at the pan offset rounded to device pixels, over the base
/// map (the image's rows as runs, like a sprite's: nothing drawn skipped, opaque copied, the rest
/// blended with the sprite kernels, on both cores), while the next layer is drawn ahead
/// in the same way. No frame draws a whole layer. A layer is dropped when the zoom, the size, the
/// device scale or the caller's content stamp change.
public final class PanLayer: MapOverlay {
    /// Draws the scene (directly, or into the layers).
    public let sceneRenderer: SceneRenderer
    /// Average margin around the view, logical pixels (see `PanLayerPlan.make`); 0: no layer.
    public var margin = 256.0
    /// Most bands a layer drawn ahead is split into.
    public static let maxBands = 16
    /// Bands of the first layer of a pan at most (frames are drawn directly until it is done).
    public static let firstLayerBands = 8
    /// Drawing-thread CPU a band should take, ms: bands are as many rows as the last ones drew in
    /// that time (new names and marks entering make some rows far costlier than others), and no
    /// more than the plan's share.
    public var bandBudgetMs = 3.0
    /// Drawing-thread CPU a band of a layer drawn at rest (`restStep`, in idle time) should take,
    /// ms: what an input arriving meanwhile waits at most.
    public var restBandBudgetMs = 4.0
    /// Largest device scale the layer is used at. At scale 2 (measured, 1,500 items, loaded) a
    /// layer has four times the pixels to draw ahead and to copy: at a 3 ms band budget it was
    /// ready for only 15–30 of 120 frames and the frames cost more than drawing directly.
    public var maxScale = 1.5
    /// Fewest marks (bubbles and pins) per million device pixels of view for which the layer is
    /// used. A copy costs by the pixel (the whole view is composited over the map: names are
    /// everywhere), a direct draw by the mark: with few marks drawing them is cheaper than the
    /// copy and the layers drawn ahead (see `isWorthwhile`).
    public var minimumMarksPerMegapixel = 400.0
    /// Rows of the first band when nothing is known yet.
    static let probeRows = 48
    /// Rows drawn per ms of CPU, learned from the bands drawn.
    private var rowsPerMs: Double?

    /// What the coming frame does.
    public enum Mode: Equatable, Sendable {
        /// The scene, built for the view, is drawn directly.
        case direct
        /// The layer is copied with the view starting at this device pixel of it.
        case copy(x: Int, y: Int)
    }
    /// The mode chosen by the last `prepare`.
    public private(set) var mode = Mode.direct
    /// The plan of the layer being copied (nil until one is shown).
    public private(set) var plan: PanLayerPlan?
    /// The scene drawn in the layer being copied (layer coordinates).
    public private(set) var layerScene = Scene()
    /// Layers drawn ahead and then shown (for tests and benchmarks).
    public private(set) var swapCount = 0
    /// Layers planned ahead (for tests and benchmarks).
    public private(set) var plannedCount = 0
    /// Layers drawn at rest (`restStep`) and then shown (for tests and benchmarks).
    public private(set) var restLayerCount = 0

    private var image: ImageSurface?
    /// The shown layer's rows as runs (`SpriteRuns`' form).
    private var runs = LayerRuns()
    /// The layer drawn ahead: its plan, scene (once the caller built it) and rows drawn so far.
    private struct Next {
        var plan: PanLayerPlan
        var bandRows: Int
        var scene: Scene?
        var image: ImageSurface?
        var rowsDone = 0
        /// Runs of the rows drawn so far.
        var runs = LayerRuns()
        var isDone = false
        /// Whether its scene was built this frame (its first band waits a frame).
        var sceneIsNew = false
    }
    private var next: Next?
    /// An image to reuse for the next layer.
    private var spare: ImageSurface?
    /// What the last `prepare` saw: the camera, its last step (world pixels), scale and stamp.
    private var frame: (camera: Camera, step: ScreenPoint?, scale: Double, content: Int?, moving: Bool)?
    private var lastCenter: ScreenPoint?
    /// Whether the last `prepare` found enough marks for a layer (`isWorthwhile`).
    private var worthwhile = false
    private var lastZoom: Double?

    /// Creates a layer over a scene renderer.
    public init(sceneRenderer: SceneRenderer = SceneRenderer()) {
        self.sceneRenderer = sceneRenderer
    }

    /// The scene drawn directly (`setScene`).
    public internal(set) var scene: Scene {
        get { sceneRenderer.scene }
        set { sceneRenderer.scene = newValue }
    }

    /// The scene of the layer drawn ahead (`setSceneAhead`).
    public internal(set) var sceneAhead: Scene? {
        get { next?.scene }
        set {
            next?.scene = newValue
            next?.sceneIsNew = true
        }
    }

    /// Draws `scene`, built for the camera `prepare` returned, directly.
    public func setScene(_ scene: Scene) { self.scene = scene }

    /// Gives the layer drawn ahead `scene`, built for `cameraAhead()`.
    public func setSceneAhead(_ scene: Scene?) { sceneAhead = scene }

    /// `MapOverlay`: the scene renderer's version (frames at rest are drawn directly).
    public var contentVersion: Int? { sceneRenderer.contentVersion }

    /// Chooses what the coming frame does and returns the camera to build its scene for (then set
    /// `scene`), or nil when it copies a layer. `content` stamps everything but the camera; nil,
    /// like `moving: false`, draws directly. Then ask `cameraAhead()`.
    public func prepare(camera: Camera, scale: Double, content: Int?, moving: Bool) -> Camera? {
        let c = camera.centerWorldPixel
        let step = lastZoom == camera.zoom ? lastCenter.map { ScreenPoint(x: c.x - $0.x, y: c.y - $0.y) } : nil
        lastCenter = ScreenPoint(x: c.x, y: c.y)
        lastZoom = camera.zoom
        frame = (camera, step, scale, content, moving)
        if let n = next, n.plan.content != content || n.plan.zoom != camera.zoom || n.plan.scale != scale { next = nil }
        worthwhile = isWorthwhile(camera: camera, scale: scale)
        if !worthwhile { next = nil }
        guard moving, let content, margin > 0, scale <= maxScale, worthwhile else { mode = .direct; return camera }
        if let plan, image != nil, let o = plan.viewOrigin(for: camera, scale: scale, content: content) {
            mode = .copy(x: o.x, y: o.y)
            return nil
        }
        // The view left the layer (or there is none yet): the one drawn ahead, if it is done and
        // holds the view; one done that the view is still heading for is kept, one it passed or
        // turned away from is dropped.
        if let n = next, n.isDone, let nextImage = n.image {
            if let o = n.plan.viewOrigin(for: camera, scale: scale, content: content) {
                adopt(n, image: nextImage)
                swapCount += 1
                mode = .copy(x: o.x, y: o.y)
                return nil
            }
            if !isApproaching(n.plan, camera: camera, step: step, scale: scale, content: content) { next = nil }
        }
        mode = .direct
        return camera
    }

    /// The camera to build the next layer's scene for (then set `sceneAhead`), or nil when none is
    /// needed now: while the camera pans and no layer is being drawn ahead, one is planned where
    /// the view is heading.
    public func cameraAhead() -> Camera? {
        guard next == nil, worthwhile, let f = frame, f.moving, let content = f.content, margin > 0, f.scale <= maxScale, let step = f.step,
              abs(step.x) >= PanLayerPlan.steadyThreshold || abs(step.y) >= PanLayerPlan.steadyThreshold else { return nil }
        let ahead: (plan: PanLayerPlan, bandRows: Int)?
        if case .copy(let x, let y) = mode, let plan {
            ahead = planAhead(plan, view: (x, y), camera: f.camera, step: step)
        } else {
            // No layer yet: one done in a few frames, its trailing margin where the view will be
            // then (if it takes longer, the view runs on into the margin ahead).
            let rows = Int(((f.camera.viewportSize.height + 2 * margin) * f.scale).rounded())
            let bandRows = (rows + PanLayer.firstLayerBands - 1) / PanLayer.firstLayerBands
            let k = Double(bandsToDraw(rows: rows, share: bandRows) + 1)
            ahead = PanLayerPlan.make(camera: f.camera.panned(by: -step.x * k, -step.y * k), scale: f.scale,
                                      content: content, margin: margin, velocity: step).map { ($0, bandRows) }
        }
        guard let ahead else { return nil }
        next = Next(plan: ahead.plan, bandRows: ahead.bandRows)
        plannedCount += 1
        return ahead.plan.layerCamera
    }

    /// At rest, in idle time: one step towards a layer around the view with even margins, so that
    /// a pan copies it from its first frame (without one, a pan's first frames are drawn directly
    /// while its first layer is drawn in bands: most of the slow frames of a pan). The first step
    /// builds the layer's scene (`build`, given the layer's camera: as `cameraAhead`), each later
    /// one draws a band of rows (`restBandBudgetMs` of CPU); once the last is drawn the layer is
    /// the one frames copy. Returns whether more steps are due. Nothing is due while the camera
    /// moves or differs from the last frame's, without a content stamp, with too few marks, or when
    /// the layer shown already holds the view with at least half the margin on every side. Frames
    /// at rest are still drawn directly: this changes no frame's pixels.
    @discardableResult
    public func restStep(camera: Camera, content: Int?, palette: MapPalette, build: (Camera) -> Scene) -> Bool {
        guard let f = frame, !f.moving, f.camera == camera, let content, margin > 0, f.scale <= maxScale,
              isWorthwhile(camera: camera, scale: f.scale) else { return false }
        if let plan, image != nil, let o = plan.offset(for: camera, scale: f.scale, content: content) {
            let room = (margin * f.scale / 2).rounded(.down)
            let maxX = ((plan.left + plan.right) * f.scale).rounded(), maxY = ((plan.top + plan.bottom) * f.scale).rounded()
            if o.x >= room, o.y >= room, o.x <= maxX - room, o.y <= maxY - room { return false }
        }
        guard let wanted = PanLayerPlan.make(camera: camera, scale: f.scale, content: content, margin: margin) else { return false }
        guard let n = next, n.plan == wanted, n.scene != nil else {
            let rows = Int((wanted.layerSize.height * f.scale).rounded())
            next = Next(plan: wanted, bandRows: rows, scene: build(wanted.layerCamera))
            return true
        }
        drawBand(palette: palette, budgetMs: restBandBudgetMs)
        guard let done = next, done.isDone, let layer = done.image else { return true }
        adopt(done, image: layer)
        restLayerCount += 1
        return false
    }

    /// Makes the layer drawn ahead the one frames copy from (the old image kept as the spare).
    private func adopt(_ done: Next, image layer: ImageSurface) {
        spare = image
        image = layer
        runs = done.runs
        plan = done.plan
        layerScene = done.scene ?? Scene()
        next = nil
    }

    /// Whether the view holds enough marks for a layer to pay (`minimumMarksPerMegapixel`): those
    /// of the scene drawn last, or while copying the layer's share for the view's area.
    private func isWorthwhile(camera: Camera, scale: Double) -> Bool {
        var marks = Double(sceneRenderer.scene.bubbles.count + sceneRenderer.scene.pins.count)
        if case .copy = mode, let plan {
            let share = plan.viewportSize.width * plan.viewportSize.height / (plan.layerSize.width * plan.layerSize.height)
            marks = Double(layerScene.bubbles.count + layerScene.pins.count) * share
        }
        let megapixels = camera.viewportSize.width * camera.viewportSize.height * scale * scale / 1e6
        return marks >= minimumMarksPerMegapixel * megapixels
    }

    /// Whether the view, short of `plan`'s layer, moves towards it on every axis it is outside.
    private func isApproaching(_ plan: PanLayerPlan, camera: Camera, step: ScreenPoint?, scale: Double, content: Int) -> Bool {
        guard let step, let o = plan.offset(for: camera, scale: scale, content: content) else { return false }
        let maxX = ((plan.left + plan.right) * scale).rounded(), maxY = ((plan.top + plan.bottom) * scale).rounded()
        // The origin grows as the camera centre moves right or down.
        func towards(_ v: Double, _ hi: Double, _ d: Double) -> Bool { v < 0 ? d > 0 : v > hi ? d < 0 : true }
        return towards(o.x, maxX, step.x) && towards(o.y, maxY, step.y)
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
        var f = max(0, frames.rounded(.down))
        let rows = Int((plan.layerSize.height * s).rounded())
        let bands = max(1, min(PanLayer.maxBands, Int(f / 2)))
        let bandRows = (rows + bands - 1) / bands
        // Where the view will be when it is done, if that is after the view leaves this one.
        f = max(f, Double(bandsToDraw(rows: rows, share: bandRows) + 1))
        guard let ahead = PanLayerPlan.make(camera: camera.panned(by: -step.x * f, -step.y * f), scale: s,
                                            content: plan.content, margin: margin, velocity: step) else { return nil }
        return (ahead, bandRows)
    }

    /// Rows of the next band: what the CPU budget allowed the last ones, at most `share`.
    private func bandRows(share: Int, budgetMs: Double? = nil) -> Int {
        min(share, rowsPerMs.map { max(8, Int($0 * (budgetMs ?? bandBudgetMs))) } ?? PanLayer.probeRows)
    }

    /// Frames needed to draw a layer of `rows` rows, `share` at most a frame (at the pace learned).
    private func bandsToDraw(rows: Int, share: Int) -> Int {
        let perBand = bandRows(share: share)
        return (rows + perBand - 1) / perBand
    }

    /// `MapOverlay`: draws the scene as `prepare` chose.
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) {
        draw(in: cr, camera: camera, palette: palette, isAnimating: false)
    }

    /// `MapOverlay`: draws the scene as `prepare` chose, then a band of the layer drawn ahead.
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette, isAnimating: Bool) {
        switch mode {
        case .direct:
            sceneRenderer.draw(in: cr, camera: camera, palette: palette, isAnimating: isAnimating)
        case .copy(let x, let y):
            copy(into: cr, camera: camera, x: x, y: y)
        }
        drawNextBand(palette: palette)
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

    /// Draws the next band of rows of the layer drawn ahead (clipped to the band, a draw gives the
    /// band's pixels of a whole draw), and records its rows as runs. Names
    /// are made at once (not left to the background worker as in motion): the layer is complete.
    private func drawNextBand(palette: MapPalette) {
        guard let n = next, n.scene != nil, !n.isDone else { return }
        // The frame that built its scene (names placed for new ground) draws no band.
        if n.sceneIsNew {
            next?.sceneIsNew = false
            return
        }
        drawBand(palette: palette, budgetMs: bandBudgetMs)
    }

    /// Draws the next band of the layer drawn ahead: as many rows as `budgetMs` of CPU drew
    /// lately, at most its share.
    private func drawBand(palette: MapPalette, budgetMs: Double) {
        guard var n = next, let scene = n.scene, !n.isDone else { return }
        next = nil  // n's runs alone: appending to them copies nothing
        let layer = n.image ?? clearedImage(n.plan, reusing: spare)
        spare = nil
        let s = n.plan.scale
        let rows = min(layer.pixelHeight - n.rowsDone, bandRows(share: n.bandRows, budgetMs: budgetMs))
        let t0 = BandHelper.threadCPU()
        layer.withContext { cr in
            cairo_rectangle(cr, 0, Double(n.rowsDone) / s, Double(layer.pixelWidth) / s, Double(rows) / s)
            cairo_clip(cr)
            sceneRenderer.draw(scene, in: cr, palette: palette, isAnimating: false)
        }
        cairo_surface_flush(layer.surface)
        if let raw = cairo_image_surface_get_data(layer.surface) {
            let stride = Int(cairo_image_surface_get_stride(layer.surface)) / 4
            let data = UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: stride * layer.pixelHeight)
            SpriteRuns.appendRuns(of: data, stride: stride, width: layer.pixelWidth, rows: n.rowsDone..<(n.rowsDone + rows),
                                  to: &n.runs.runs, rowEnds: &n.runs.rowStart)
        }
        let rate = Double(rows) / max(0.05, BandHelper.threadCPU() - t0)
        rowsPerMs = rowsPerMs.map { ($0 + rate) / 2 } ?? rate
        n.rowsDone += rows
        n.image = layer
        n.isDone = n.rowsDone >= layer.pixelHeight
        next = n
    }

    /// Copies the layer's part for the view (origin at device pixel (x, y) of the layer) over
    /// what `cr` holds: its runs with the sprite kernels (pixman's OVER, so the pixels are
    /// cairo's), the bottom half of the rows on the helper thread; through cairo where the target
    /// isn't a plain image.
    private func copy(into cr: OpaquePointer, camera: Camera, x: Int, y: Int) {
        guard let image else { return }
        let s = image.scale
        let batch = sceneRenderer.batch
        guard let t = SpriteBatch.Target(cr), let raw = cairo_image_surface_get_data(image.surface),
              runs.rowStart.count == image.pixelHeight + 1 else {
            batch.finishPendingBase(before: cr)
            cairo_save(cr)
            cairo_rectangle(cr, 0, 0, camera.viewportSize.width, camera.viewportSize.height)
            cairo_set_source_surface(cr, image.surface, -Double(x) / s, -Double(y) / s)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
            cairo_fill(cr)
            cairo_restore(cr)
            return
        }
        let stride = Int(cairo_image_surface_get_stride(image.surface)) / 4
        cairo_surface_flush(t.surface)
        runs.rowStart.withUnsafeBufferPointer { starts in
            runs.runs.withUnsafeBufferPointer { list in
                let item = csb_item(pixels: UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: stride * image.pixelHeight),
                                    row_start: starts.baseAddress, runs: list.baseAddress, stride: stride,
                                    width: image.pixelWidth, height: image.pixelHeight, x: -x, y: -y, alpha: 255)
                // With the base map's pending copies, band by band (`DeferredBase`).
                if let base = batch.pendingBase, base.surface == t.surface, base.covers(t.pixels) {
                    batch.pendingBase = nil
                    base.finish(sprites: [item], into: t.pixels, kernel: SpriteBatch.defaultKernel)
                } else {
                    batch.finishPendingBase(before: cr)
                    SpriteBatch.composite([item], into: t.pixels, bothCores: sceneRenderer.usesBothCores, kernel: SpriteBatch.defaultKernel)
                }
            }
        }
        cairo_surface_mark_dirty(t.surface)
    }
}

/// A layer image's rows as runs of pixels to composite (`SpriteRuns`' form, built a band of rows
/// at a time): runs of row y are `runs[rowStart[y] ..< rowStart[y + 1]]`.
private struct LayerRuns {
    var rowStart: [Int32] = [0]
    var runs: [csb_run] = []
}
