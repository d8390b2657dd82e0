import CCairo
import Foundation
import MapModel

/// Measures and paints base-map labels (halo text, city dots) from a sprite cache.
///
/// A label's text is laid out once per look (text, kind, palette, device scale) into a small
/// sprite; a frame only blits. Measuring (for placement) lays the text out once per label and
/// keeps the size. Not thread-safe: use it on the drawing thread.
public final class MapLabelRenderer {
    struct Key: Hashable, Sendable {
        var text: String
        var kind: MapLabelKind
        var dark: Bool
        var paletteName: String
        var scale: Double
        /// Whole degrees of turned text (0 for level text): each angle has its own sprite, so a
        /// frame still only copies pixels, never resamples them.
        var degrees: Int = 0
    }
    struct SizeKey: Hashable, Sendable { var text: String; var kind: MapLabelKind }

    private let sprites = SpriteCache<Key>(capacity: 1500)
    private var dots = SpriteCache<Key>(capacity: 64)
    private var sizes: [SizeKey: MapLabelSize] = [:]
    /// Room around the text for its halo, logical pixels.
    static let haloMargin = 3.0

    public init() {}

    /// Label and dot sprites made on the drawing thread since creation (for benchmarks).
    public var madeSpriteCount: Int { sprites.renderCount + dots.renderCount }

    /// Logical size of a label's text block (what placement keeps clear).
    public func size(of text: String, kind: MapLabelKind) -> MapLabelSize {
        let key = SizeKey(text: text, kind: kind)
        if let s = sizes[key] { return s }
        let size = Self.measure(key)
        keep(size, for: key)
        return size
    }

    private func keep(_ size: MapLabelSize, for key: SizeKey) {
        if sizes.count > 50_000 {
            sizes.removeAll(keepingCapacity: true)
            sizesByID.removeAll(keepingCapacity: true)
        }
        sizes[key] = size
    }

    /// Sizes known by a label's id (as a placement asks for them), each with the text and kind it
    /// was measured for. Why: a placement asks the size of every name in reach, two thousand on a
    /// dense street map, a few times a second in a zoom animation; looking them up by text hashed
    /// every text each time (a sixth of a placement). An id is only a shortcut: the entry counts
    /// only if its text and kind are the candidate's (ids of different layouts or overlays may
    /// name other texts), so it never gives a wrong size.
    private var sizesByID: [Int: (text: String, kind: MapLabelKind, size: MapLabelSize)] = [:]

    /// The size of the label with `id`, `text` and `kind` for a placement: known before (by id,
    /// else by text), or measured now when `measureNow` (at rest), or else nil and the text is
    /// wanted (measured off the drawing thread after `requestSizes`, as `sizeIfMeasured`).
    public func placementSize(id: Int, of text: String, kind: MapLabelKind, measureNow: Bool) -> MapLabelSize? {
        if let e = sizesByID[id], e.kind == kind, e.text.hasSameUTF8(as: text) { return e.size }
        guard let size = measureNow ? self.size(of: text, kind: kind) : sizeIfMeasured(of: text, kind: kind) else { return nil }
        if sizesByID.count > 100_000 { sizesByID.removeAll(keepingCapacity: true) }
        sizesByID[id] = (text, kind, size)
        return size
    }

    /// A text block's size, laid out on the calling thread (any thread: the scratch target is the
    /// thread's own, and Pango's font map is per thread), so both threads measure alike.
    static func measure(_ key: SizeKey) -> MapLabelSize {
        let scratch = Thread.perThread("clustermap.LabelMeasureScratch") { ImageSurface(width: 4, height: 4, scale: 1) }
        var size = MapLabelSize(width: 0, height: 0)
        scratch.withContext { cr in
            let layout = makeLayout(key.text, style: MapLabelStyle.style(for: key.kind, palette: .light), in: cr)
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_pixel_size(layout, &w, &h)
            g_object_unref(UnsafeMutableRawPointer(layout))
            size = MapLabelSize(width: Double(w), height: Double(h))
        }
        return size
    }

    // MARK: Measuring in motion

    /// Measures, off the drawing thread, the texts a placement in motion lacked (see `sizeIfMeasured`),
    /// at the label sprites' priority (below the drawing thread and the band helper).
    private let sizeWorker = WishListWorker<SizeKey, SizeKey, MapLabelSize>(
        name: "label sizes", niceness: 4, key: { $0 }, work: { MapLabelRenderer.measure($0) })

    deinit { sizeWorker.stop() }
    /// Texts the placements since the last `requestSizes` lacked, in the order they were wanted.
    private var wantedSizes: [SizeKey] = []
    /// Changes whenever sizes measured off the drawing thread were taken in (see `takeMeasuredSizes`).
    public private(set) var sizeRevision = 0

    /// The text's size if it was measured before; else nil, and the text is wanted (measured on a
    /// background thread after `requestSizes`). Why: a zoom animation brings about a thousand new
    /// names into reach, and measuring each with Pango (~25 µs) held up the frames that placed them.
    public func sizeIfMeasured(of text: String, kind: MapLabelKind) -> MapLabelSize? {
        let key = SizeKey(text: text, kind: kind)
        if let s = sizes[key] { return s }
        wantedSizes.append(key)
        return nil
    }

    /// Hands the texts wanted since the last call to the background thread, most wanted first
    /// (replacing what it had not started yet); nothing if none were wanted.
    public func requestSizes() {
        guard !wantedSizes.isEmpty else { return }
        sizeWorker.request(wantedSizes)
        wantedSizes.removeAll(keepingCapacity: true)
    }

    /// Takes in the sizes measured off the drawing thread since the last call (then `sizeRevision`
    /// changes); returns whether there were any.
    @discardableResult
    public func takeMeasuredSizes() -> Bool {
        let done = sizeWorker.takeFinished()
        guard !done.isEmpty else { return false }
        for (key, size) in done { keep(size, for: key) }
        sizeRevision &+= 1
        return true
    }

    /// In motion, sizes measured off the drawing thread are taken in at most every this many
    /// frames (see `takeMeasuredSizes(inMotion:)`).
    public var motionSizeInterval = 4
    private var framesSinceSizesTaken = 0

    /// Takes in measured sizes once a frame: at rest always, in motion only when
    /// `motionSizeInterval` frames have passed since sizes were last taken in. Why: each new
    /// `sizeRevision` places the names again (about 1 ms at a new zoom), and while a zoom animation
    /// brings new names into reach the worker finishes some almost every frame; taken in every
    /// frame, a third of such a frame's time went to placing names again. Names wait at most a
    /// few frames longer to appear; at rest every name is placed at once as before.
    public func takeMeasuredSizes(inMotion: Bool) {
        framesSinceSizesTaken += 1
        guard !inMotion || framesSinceSizesTaken >= motionSizeInterval else { return }
        if takeMeasuredSizes() { framesSinceSizesTaken = 0 }
    }

    /// Draws the labels (screen coordinates) in order.
    public func draw(_ labels: [SceneLabel], in cr: OpaquePointer, palette: MapPalette, scale: Double) {
        let batch = SpriteBatch()
        draw(labels, in: cr, palette: palette, scale: scale, batch: batch)
        batch.flush(into: cr)
    }

    /// Makes the sprites a frame in motion lacks (see `LabelSpriteWorker`).
    private let worker = LabelSpriteWorker()
    /// What the frame being drawn lacks, most wanted first.
    private var wanted: [LabelSpriteWorker.Job] = []

    /// Called on a background thread when a sprite a frame in motion lacked is ready (ask for a
    /// frame; see `BaseMapTileWorker.onTileReady`; `notifyWhenSpriteReady`).
    public internal(set) var onSpriteReady: (@Sendable () -> Void)? {
        get { worker.onSpriteReady }
        set {
            worker.onSpriteReady = newValue
            sizeWorker.onFinished = newValue
        }
    }

    /// Calls `body` on a background thread whenever a sprite a frame in motion lacked is ready.
    public func notifyWhenSpriteReady(_ body: (@Sendable () -> Void)?) { onSpriteReady = body }

    /// Labels left out of the last frame because their sprites were still being made.
    public private(set) var deferredCount = 0

    /// Label sprites made off the drawing thread so far (for benchmarks).
    public var backgroundSpriteCount: Int { worker.madeCount }

    /// Starts a frame: takes the sprites the worker finished since the last one.
    func beginFrame() {
        for (key, sprite) in worker.takeFinished() { sprites.insert(sprite, for: key) }
        wanted.removeAll(keepingCapacity: true)
        deferredCount = 0
    }

    /// Ends a frame: hands the sprites it lacked to the worker (none at rest, which also drops
    /// what was still queued).
    func endFrame() {
        worker.request(wanted)
        wanted.removeAll(keepingCapacity: true)
    }

    /// Adds the labels' sprites (screen coordinates) to `batch`, in order. With `inMotion`,
    /// labels whose sprites are not made yet are left out and asked of the worker (see
    /// `LabelSpriteWorker`); at rest they are made here.
    func draw(_ labels: [SceneLabel], in cr: OpaquePointer, palette: MapPalette, scale: Double, batch: SpriteBatch,
              inMotion: Bool = false) {
        for label in labels where label.alpha > 0.004 {
            let degrees = Int((label.angle * 180 / .pi).rounded())
            let key = Key(text: label.text, kind: label.kind, dark: palette.isDark, paletteName: palette.name, scale: scale,
                          degrees: degrees)
            let text: Sprite
            if let cached = sprites.cachedSprite(for: key) {
                text = cached
            } else if inMotion {
                deferredCount += 1
                wanted.append(LabelSpriteWorker.Job(key: key, size: size(of: label.text, kind: label.kind), palette: palette))
                continue
            } else {
                let size = size(of: label.text, kind: label.kind)
                text = sprites.sprite(for: key) {
                    Self.makeText(label.text, kind: label.kind, size: size, palette: palette, scale: scale, degrees: degrees)
                }
            }
            if let d = label.dot {
                let key = Key(text: "", kind: label.kind, dark: palette.isDark, paletteName: palette.name, scale: scale)
                let sprite = dots.sprite(for: key) { makeDot(label.kind, palette: palette, scale: scale) }
                sprite.paint(into: batch, in: cr, x: d.x, y: d.y, alpha: label.alpha, deviceScale: scale)
            }
            if degrees == 0 {
                text.paint(into: batch, in: cr, x: label.frame.x, y: label.frame.y, alpha: label.alpha, deviceScale: scale)
            } else {
                text.paint(into: batch, in: cr, x: label.frame.x + label.frame.width / 2,
                           y: label.frame.y + label.frame.height / 2, alpha: label.alpha, deviceScale: scale)
            }
        }
    }

    private static func makeLayout(_ text: String, style: MapLabelStyle, in cr: OpaquePointer) -> OpaquePointer {
        let layout = pango_cairo_create_layout(cr)!
        let desc = pango_font_description_from_string(style.font)
        pango_layout_set_font_description(layout, desc)
        pango_font_description_free(desc)
        pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
        if style.letterSpacing > 0 {
            let attrs = pango_attr_list_new()
            pango_attr_list_insert(attrs, pango_attr_letter_spacing_new(Int32(style.letterSpacing * Double(PANGO_SCALE))))
            pango_layout_set_attributes(layout, attrs)
            pango_attr_list_unref(attrs)
        }
        pango_layout_set_text(layout, text, -1)
        return layout
    }

    /// A label's sprite: level text anchored at its top-left, or text turned by `degrees`
    /// anchored at its centre.
    /// (Any thread: it touches nothing shared; `size` is the text block's, from `size(of:kind:)`.)
    static func makeText(_ text: String, kind: MapLabelKind, size s: MapLabelSize, palette: MapPalette, scale: Double,
                         degrees: Int = 0) -> Sprite {
        let style = MapLabelStyle.style(for: kind, palette: palette)
        let m = MapLabelRenderer.haloMargin
        if degrees != 0 {
            let side = (s.width * s.width + s.height * s.height).squareRoot() + 2 * m
            return Sprite(width: side, height: side, anchorX: side / 2, anchorY: side / 2, scale: scale) { cr in
                cairo_translate(cr, side / 2, side / 2)
                cairo_rotate(cr, Double(degrees) * .pi / 180)
                cairo_translate(cr, -s.width / 2 - m, -s.height / 2 - m)
                drawText(text, style: style, margin: m, in: cr)
            }
        }
        return Sprite(width: s.width + 2 * m, height: s.height + 2 * m, anchorX: m, anchorY: m, scale: scale) { cr in
            drawText(text, style: style, margin: m, in: cr)
        }
    }

    /// Halo, then ink, with the text's top-left at (`m`, `m`).
    private static func drawText(_ text: String, style: MapLabelStyle, margin m: Double, in cr: OpaquePointer) {
        let layout = makeLayout(text, style: style, in: cr)
        cairo_move_to(cr, m, m)
        pango_cairo_layout_path(cr, layout)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(cr, style.haloWidth)
        style.halo.setSource(on: cr)
        cairo_stroke(cr)
        cairo_move_to(cr, m, m)
        style.ink.setSource(on: cr)
        pango_cairo_show_layout(cr, layout)
        g_object_unref(UnsafeMutableRawPointer(layout))
    }

    private func makeDot(_ kind: MapLabelKind, palette: MapPalette, scale: Double) -> Sprite {
        let colors = MapLabelStyle.dotColors(for: kind, palette: palette)
        let r = kind == .capital ? 3.2 : 2.5
        return Sprite(width: 12, height: 12, anchorX: 6, anchorY: 6, scale: scale) { cr in
            cairo_arc(cr, 6, 6, r, 0, 2 * .pi)
            colors.fill.setSource(on: cr)
            cairo_fill_preserve(cr)
            colors.ring.setSource(on: cr)
            cairo_set_line_width(cr, kind == .capital ? 1.4 : 1.1)
            cairo_stroke(cr)
            if kind == .capital {
                cairo_arc(cr, 6, 6, 1.1, 0, 2 * .pi)
                palette.land.setSource(on: cr)
                cairo_fill(cr)
            }
        }
    }
}
