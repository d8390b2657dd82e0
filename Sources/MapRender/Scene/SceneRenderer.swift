import CCairo
import MapModel

/// Paints a `MapModel.Scene` over the base map: base-map labels, hover hull, fan legs, bubbles, pins
/// (the selected one last), the keyboard focus ring and the callout, in that order.
///
/// Bubbles, pins, label capsules and the callout come from a sprite cache (one small image per
/// look, made once at the device scale), so a frame never lays out text per item; anything outside
/// the clip is skipped before its sprite is even looked up. Not thread-safe: use it on the drawing
/// thread. As a `MapOverlay` it draws `scene`; set that before each frame.
public final class SceneRenderer: MapOverlay {
    /// What the overlay draws (`setScene`).
    public internal(set) var scene = Scene() {
        didSet { if scene != oldValue { version &+= 1 } }
    }

    /// Draws `scene` from the next frame on.
    public func setScene(_ scene: Scene) { self.scene = scene }
    /// Sizes (pin radius, label capsule geometry) shared with hit-testing.
    public var style: BubbleStyle {
        didSet { if style != oldValue { version &+= 1 } }
    }
    private var version = 0

    /// `MapOverlay`: changes whenever `scene` or `style` does.
    public var contentVersion: Int? { version }

    /// Sprites of bubbles, pins and label capsules.
    let sprites: SpriteCache<MarkKey>
    /// Measures and draws the base-map labels (drawn first, under everything else).
    public let labelRenderer = MapLabelRenderer()
    private var calloutSprite: (key: CalloutSprite.Key, sprite: Sprite)?
    /// Palette × device scale combinations seen, numbered; the number is part of sprite keys.
    private var styles: [StyleKey: Int] = [:]
    private struct StyleKey: Hashable { var palette: MapPalette; var scale: Double }
    private var lastStyle: (key: StyleKey, id: Int)?

    /// The sprites of the frame being drawn.
    let batch = SpriteBatch()
    /// Whether sprites may be composited on both cores (see `SpriteBatch`; same pixels either way).
    public var usesBothCores: Bool {
        get { batch.usesBothCores }
        set { batch.usesBothCores = newValue }
    }

    /// Items (bubbles and pins) painted by the last `draw`, after culling (for tests and benchmarks).
    public private(set) var lastDrawnItemCount = 0

    /// Creates a renderer; at most `spriteCapacity` sprites are kept.
    public init(style: BubbleStyle = BubbleStyle(), spriteCapacity: Int = 2000) {
        self.style = style
        sprites = SpriteCache(capacity: spriteCapacity)
    }

    /// Sprites currently cached (bubbles, pins, capsules).
    public var cachedSpriteCount: Int { sprites.count }
    /// Sprites made since creation: marks, then base-map labels (for benchmarks).
    public var madeSpriteCounts: (marks: Int, labels: Int) { (sprites.renderCount, labelRenderer.madeSpriteCount) }

    /// `MapOverlay`: draws `scene`.
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) {
        draw(scene, in: cr, palette: palette)
    }

    /// `MapOverlay`: draws `scene`; in motion, base-map labels whose sprites are not made yet
    /// wait for a background thread to make them (see `LabelSpriteWorker`).
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette, isAnimating: Bool) {
        draw(scene, in: cr, palette: palette, isAnimating: isAnimating)
    }

    /// Draws `scene` (screen coordinates = the context's user space) in `palette`; `isAnimating`
    /// as in `draw(in:camera:palette:isAnimating:)`.
    public func draw(_ scene: Scene, in cr: OpaquePointer, palette: MapPalette, isAnimating: Bool = false) {
        let scale = BaseMapRenderer.deviceScale(of: cr)
        let styleID = self.styleID(palette: palette, scale: scale)
        var clip = ScreenBox(minX: 0, minY: 0, maxX: 0, maxY: 0)
        cairo_clip_extents(cr, &clip.minX, &clip.minY, &clip.maxX, &clip.maxY)
        cairo_save(cr)
        // Sprites are collected and composited together (see `SpriteBatch`); anything cairo draws
        // itself paints the batch so far first, so the order stays.
        let batch = self.batch
        labelRenderer.beginFrame()
        labelRenderer.draw(scene.labels, in: cr, palette: palette, scale: scale, batch: batch, inMotion: isAnimating)
        labelRenderer.draw(scene.placeNames, in: cr, palette: palette, scale: scale, batch: batch, inMotion: isAnimating)
        labelRenderer.endFrame()
        if scene.hull.count >= 2 || !scene.fanLegs.isEmpty { batch.flush(into: cr) }
        drawHull(scene.hull, in: cr, palette: palette, clip: clip)
        drawLegs(scene.fanLegs, in: cr, palette: palette, clip: clip)
        // One batch for every mark, at any scale: `SpriteBatch` composites it a band of rows at
        // a time, so the pixels being blended stay in the cache even in a 16 MB HiDPI frame.
        var drawn = drawBubbles(scene.bubbles, in: cr, palette: palette, scale: scale, styleID: styleID, clip: clip)
        drawn += drawPins(scene.pins, in: cr, palette: palette, scale: scale, styleID: styleID, clip: clip)
        if let ring = scene.focusRing {
            batch.flush(into: cr)
            drawFocusRing(ring, in: cr, palette: palette, clip: clip)
        }
        if let callout = scene.callout {
            drawCallout(callout, in: cr, palette: palette, scale: scale, styleID: styleID, clip: clip)
        }
        batch.flush(into: cr)
        cairo_restore(cr)
        lastDrawnItemCount = drawn
    }

    private func styleID(palette: MapPalette, scale: Double) -> Int {
        let key = StyleKey(palette: palette, scale: scale)
        if let last = lastStyle, last.key.scale == scale, last.key.palette.name == palette.name, last.key == key {
            return last.id
        }
        let id = styles[key] ?? styles.count
        styles[key] = id
        lastStyle = (key, id)
        return id
    }

    // MARK: Items

    /// Draws the bubbles that show in `clip`; returns how many.
    private func drawBubbles(_ bubbles: [SceneBubble], in cr: OpaquePointer, palette: MapPalette,
                             scale: Double, styleID: Int, clip: ScreenBox) -> Int {
        var drawn = 0
        // At scale 2 a sprite per count label would be tens of megabytes that no longer stay in
        // the CPU caches: bodies are shared and counts are small sprites on top. At scale 1 the
        // whole bubble in one sprite is cheaper (one paint instead of two).
        let splitLabels = scale > 1.5
        for b in bubbles where b.alpha > 0.004 {
            let extent = b.radius + MarkSprites.bubbleMargin
            let box = ScreenBox(minX: -extent, minY: -extent, maxX: extent, maxY: extent)
            guard box.intersects(at: b.center.x, b.center.y, clip) else { continue }
            // Quarter-pixel radii: animated sizes reuse a bounded set of sprites.
            let rq = Int((b.radius * 4).rounded())
            let flags = (b.containsSelection ? MarkSprites.selectedFlag : 0) | (b.isHovered ? MarkSprites.hoveredFlag : 0)
            if !splitLabels {
                let key = MarkKey.labelledBubble(style: styleID, step: b.step, label: b.label, radiusQuarterPixels: rq,
                                                 flags: flags, look: b.look)
                let sprite = sprites.sprite(for: key) {
                    MarkSprites.bubble(step: b.step, radius: Double(rq) / 4, hovered: b.isHovered,
                                       selected: b.containsSelection, label: b.label, look: b.look, palette: palette, scale: scale)
                }
                sprite.paint(into: batch, in: cr, x: b.center.x, y: b.center.y, alpha: b.alpha, deviceScale: scale,
                             zoom: b.scale)
                drawn += 1
                continue
            }
            let key = MarkKey.bubble(style: styleID, step: b.step, radiusQuarterPixels: rq, flags: flags, look: b.look)
            let sprite = sprites.sprite(for: key) {
                MarkSprites.bubble(step: b.step, radius: Double(rq) / 4, hovered: b.isHovered,
                                   selected: b.containsSelection, look: b.look, palette: palette, scale: scale)
            }
            sprite.paint(into: batch, in: cr, x: b.center.x, y: b.center.y, alpha: b.alpha, deviceScale: scale, zoom: b.scale)
            if !b.label.isEmpty {
                let labelKey = MarkKey.bubbleLabel(style: styleID, step: b.step, label: b.label, radiusQuarterPixels: rq,
                                                   fill: b.look.fill)
                let text = sprites.sprite(for: labelKey) {
                    MarkSprites.bubbleLabel(step: b.step, label: b.label, radius: Double(rq) / 4, fill: b.look.fill,
                                            palette: palette, scale: scale)
                }
                text.paint(into: batch, in: cr, x: b.center.x, y: b.center.y, alpha: b.alpha, deviceScale: scale, zoom: b.scale)
            }
            drawn += 1
        }
        return drawn
    }

    private func drawPins(_ pins: [ScenePin], in cr: OpaquePointer, palette: MapPalette,
                          scale: Double, styleID: Int, clip: ScreenBox) -> Int {
        var drawn = 0
        // Selected pins last, on top of everything else.
        var selected: [Int] = []
        for (i, p) in pins.enumerated() {
            if p.isSelected { selected.append(i); continue }
            if drawPin(p, in: cr, palette: palette, scale: scale, styleID: styleID, clip: clip) {
                drawn += 1
            }
        }
        for i in selected where drawPin(pins[i], in: cr, palette: palette, scale: scale, styleID: styleID, clip: clip) {
            drawn += 1
        }
        return drawn
    }

    /// Draws a pin if it shows in `clip`; true if it did.
    private func drawPin(_ p: ScenePin, in cr: OpaquePointer, palette: MapPalette, scale: Double,
                         styleID: Int, clip: ScreenBox) -> Bool {
        guard p.alpha > 0.004 else { return false }
        let extent = style.pinRadius + 8
        var box = ScreenBox(minX: -extent, minY: -extent, maxX: extent, maxY: extent)
        if let label = p.label, !label.isEmpty {
            let r = SceneHitTester.labelRect(for: .zero, text: label, style: style)
            box.minX = min(box.minX, r.minX - MarkSprites.capsuleMargin)
            box.maxX = max(box.maxX, r.maxX + MarkSprites.capsuleMargin)
            box.minY = min(box.minY, r.minY - MarkSprites.capsuleMargin)
            box.maxY = max(box.maxY, r.maxY + MarkSprites.capsuleMargin)
        }
        guard box.intersects(at: p.center.x, p.center.y, clip) else { return false }
        if let label = p.label, !label.isEmpty {
            let key = MarkKey.capsule(style: styleID, text: label, selected: p.isSelected)
            let capsule = sprites.sprite(for: key) {
                MarkSprites.capsule(text: label, selected: p.isSelected, style: style, palette: palette, scale: scale)
            }
            capsule.paint(into: batch, in: cr, x: p.center.x, y: p.center.y, alpha: p.alpha, deviceScale: scale, zoom: p.scale)
            // A price capsule is the marker itself: no round pin under it.
            if PinLabel.isMarker(label) { return true }
        }
        let flags = (p.isSelected ? MarkSprites.selectedFlag : 0) | (p.isHovered ? MarkSprites.hoveredFlag : 0)
        let key = MarkKey.pin(style: styleID, color: p.color, flags: flags)  // a selected pin keeps its colour
        let sprite = sprites.sprite(for: key) {
            MarkSprites.pin(color: p.color, selected: p.isSelected, hovered: p.isHovered, style: style,
                            palette: palette, scale: scale)
        }
        sprite.paint(into: batch, in: cr, x: p.center.x, y: p.center.y, alpha: p.alpha, deviceScale: scale, zoom: p.scale)
        return true
    }

    // MARK: Vector parts (few per frame)

    private func drawHull(_ hull: [ScreenPoint], in cr: OpaquePointer, palette: MapPalette, clip: ScreenBox) {
        guard hull.count >= 2 else { return }
        var b = ScreenBox(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
        for p in hull { b.minX = min(b.minX, p.x); b.minY = min(b.minY, p.y); b.maxX = max(b.maxX, p.x); b.maxY = max(b.maxY, p.y) }
        let pad = 4.0
        guard b.maxX + pad > clip.minX, b.minX - pad < clip.maxX, b.maxY + pad > clip.minY, b.minY - pad < clip.maxY else { return }
        cairo_new_path(cr)
        cairo_move_to(cr, hull[0].x, hull[0].y)
        for p in hull.dropFirst() { cairo_line_to(cr, p.x, p.y) }
        cairo_close_path(cr)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        palette.hullFill.setSource(on: cr)
        cairo_fill_preserve(cr)
        palette.hullStroke.setSource(on: cr)
        cairo_set_line_width(cr, 1.5)
        cairo_stroke(cr)
    }

    private func drawLegs(_ legs: [SceneLeg], in cr: OpaquePointer, palette: MapPalette, clip: ScreenBox) {
        guard !legs.isEmpty else { return }
        cairo_new_path(cr)
        for leg in legs {
            guard max(leg.from.x, leg.to.x) > clip.minX, min(leg.from.x, leg.to.x) < clip.maxX,
                  max(leg.from.y, leg.to.y) > clip.minY, min(leg.from.y, leg.to.y) < clip.maxY else { continue }
            cairo_move_to(cr, leg.from.x, leg.from.y)
            cairo_line_to(cr, leg.to.x, leg.to.y)
        }
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        // A light casing under a dark line reads on both land and water.
        (palette.isDark ? MapColor(hex: 0x000000, alpha: 0.45) : MapColor(hex: 0xFFFFFF, alpha: 0.85)).setSource(on: cr)
        cairo_set_line_width(cr, 3)
        cairo_stroke_preserve(cr)
        palette.overlayText.withAlpha(palette.isDark ? 0.75 : 0.7).setSource(on: cr)
        cairo_set_line_width(cr, 1.25)
        cairo_stroke(cr)
    }

    private func drawFocusRing(_ ring: SceneFocusRing, in cr: OpaquePointer, palette: MapPalette, clip: ScreenBox) {
        let r = ring.radius + 3.5
        let box = ScreenBox(minX: -r - 3, minY: -r - 3, maxX: r + 3, maxY: r + 3)
        guard box.intersects(at: ring.center.x, ring.center.y, clip) else { return }
        cairo_new_path(cr)
        cairo_arc(cr, ring.center.x, ring.center.y, r, 0, 2 * .pi)
        palette.selectionHalo.setSource(on: cr)
        cairo_set_line_width(cr, 4.5)
        cairo_stroke_preserve(cr)
        palette.selection.setSource(on: cr)
        cairo_set_line_width(cr, 2)
        cairo_stroke(cr)
    }

    private func drawCallout(_ c: SceneCallout, in cr: OpaquePointer, palette: MapPalette, scale: Double,
                             styleID: Int, clip: ScreenBox) {
        let progress = min(max(c.progress, 0), 1)
        guard progress > 0.004, c.frame.width > 1, c.frame.height > 1 else { return }
        let f = c.frame
        let tip = CalloutSprite.arrowTip(frame: f, anchor: c.anchor)
        let key = CalloutSprite.Key(style: styleID, title: c.title, lines: c.lines,
                                    size: ScreenSize(width: f.width, height: f.height),
                                    buttons: c.buttons.map { $0.action.rawValue + $0.title },
                                    swatches: c.swatches,
                                    tipX: Int(((tip?.x ?? -1) * 4).rounded()), tipY: Int(((tip?.y ?? -1) * 4).rounded()))
        let sprite: Sprite
        if let cached = calloutSprite, cached.key == key {
            sprite = cached.sprite
        } else {
            sprite = CalloutSprite.make(c, palette: palette, scale: scale)
            calloutSprite = (key, sprite)
        }
        guard sprite.bounds.intersects(at: f.minX, f.minY, clip) else { return }
        if progress >= 1 || c.fades {
            sprite.paint(into: batch, in: cr, x: f.minX, y: f.minY, alpha: progress, deviceScale: scale)
            return
        }
        batch.flush(into: cr)
        // Grow from the arrow tip (or the anchor): scale the finished sprite about that point.
        let origin = tip.map { ScreenPoint(x: f.minX + $0.x, y: f.minY + $0.y) } ?? c.anchor
        cairo_save(cr)
        cairo_translate(cr, origin.x, origin.y)
        cairo_scale(cr, progress, progress)
        cairo_translate(cr, -origin.x, -origin.y)
        cairo_set_source_surface(cr, sprite.image.surface, f.minX - sprite.anchorX, f.minY - sprite.anchorY)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_BILINEAR)
        cairo_paint_with_alpha(cr, min(1, 0.35 + progress))
        cairo_restore(cr)
    }
}
