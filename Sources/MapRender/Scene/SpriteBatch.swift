import CCairo

/// Sprite paints of a frame (labels, bubbles, pins, the callout), collected and then composited
/// straight into the target's pixels, on both cores when there are enough of them.
///
/// Why: a frame paints a couple of hundred small sprites over a 4 MB image; through cairo each
/// paint costs a pattern, a compositor pass and pixman's set-up (together more than the pixels),
/// and on one core. Here each paint is a loop over the sprite's rows with pixman's own arithmetic
/// for OVER (premultiplied, rounded the same way, with the same 8-bit alpha cairo derives from
/// `cairo_paint_with_alpha`), so the pixels are identical to cairo's; the bottom half of the rows
/// is done by `BandHelper` at the same time. Where the target isn't a plain ARGB32 image (or the
/// clip isn't one whole-pixel rectangle) the batch falls back to cairo paints, in order.
final class SpriteBatch {
    struct Item {
        let image: ImageSurface
        /// Device pixel of the sprite's top-left corner, relative to the user-space origin.
        let x: Int, y: Int
        /// Opacity as cairo hands it to pixman (255: a plain paint).
        let alpha: UInt32
        /// What the cairo fallback needs.
        let userX: Double, userY: Double, userAlpha: Double
    }

    private(set) var items: [Item] = []
    private var pixels = 0

    /// Whether the bottom rows may be composited by the helper thread.
    var usesBothCores = true
    /// Sprite pixels a batch needs before waking the helper pays.
    static let minimumPixelsForBands = 20_000

    var isEmpty: Bool { items.isEmpty }

    /// Adds `sprite` with its anchor at (x, y) (as `Sprite.paint(in:x:y:alpha:deviceScale:)`).
    func add(_ sprite: Sprite, x: Double, y: Double, alpha: Double, deviceScale s: Double) {
        guard alpha > 0.004 else { return }
        let o = sprite.deviceOrigin(x: x, y: y, deviceScale: s)
        // cairo: alpha → 16 bits (× 65535.99999, truncated) → pixman's solid colour → 8 bits.
        let a = alpha >= 0.999 ? 255 : UInt32(min(65535, max(0, alpha * (65536 - 1e-5)))) >> 8
        items.append(Item(image: sprite.image, x: Int(o.x), y: Int(o.y), alpha: a,
                          userX: o.x / s, userY: o.y / s, userAlpha: alpha))
        pixels += sprite.image.pixelWidth * sprite.image.pixelHeight
    }

    /// Paints the collected sprites into `cr`, in order, and empties the batch.
    func flush(into cr: OpaquePointer) {
        guard !items.isEmpty else { return }
        defer {
            items.removeAll(keepingCapacity: true)
            pixels = 0
        }
        guard let t = Target(cr) else {
            for item in items {
                cairo_set_source_surface(cr, item.image.surface, item.userX, item.userY)
                if item.alpha == 255 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, item.userAlpha) }
            }
            return
        }
        cairo_surface_flush(t.surface)
        let rows = t.clipY0..<t.clipY1
        if usesBothCores && pixels >= Self.minimumPixelsForBands && rows.count >= 64 {
            let split = (rows.lowerBound + rows.upperBound) / 2
            let job = SpriteBandJob(items: items, target: t, rows: split..<rows.upperBound)
            let done = BandHelper.shared.start { job.run() }
            Self.composite(items, into: t, rows: rows.lowerBound..<split)
            done.wait()
        } else {
            Self.composite(items, into: t, rows: rows)
        }
        cairo_surface_mark_dirty(t.surface)
    }

    /// The target's pixels and where user (0, 0) and the clip are in them.
    struct Target {
        let surface: OpaquePointer
        let data: UnsafeMutablePointer<UInt32>
        let stride: Int
        let originX: Int, originY: Int
        let clipX0: Int, clipY0: Int, clipX1: Int, clipY1: Int

        init?(_ cr: OpaquePointer) {
            guard let s = cairo_get_target(cr), cairo_surface_get_type(s) == CAIRO_SURFACE_TYPE_IMAGE,
                  cairo_image_surface_get_format(s) == CAIRO_FORMAT_ARGB32,
                  let raw = cairo_image_surface_get_data(s) else { return nil }
            var dsx = 1.0, dsy = 1.0, dox = 0.0, doy = 0.0
            cairo_surface_get_device_scale(s, &dsx, &dsy)
            cairo_surface_get_device_offset(s, &dox, &doy)
            var m = cairo_matrix_t()
            cairo_get_matrix(cr, &m)
            // Plain scale and a whole-pixel offset only (sprites are placed on the pixel grid).
            guard m.xy == 0, m.yx == 0, m.xx == 1, m.yy == 1 else { return nil }
            let ox = m.x0 * dsx + dox, oy = m.y0 * dsy + doy
            guard ox == ox.rounded(), oy == oy.rounded(), abs(ox) < 1e7, abs(oy) < 1e7 else { return nil }
            guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
            defer { cairo_rectangle_list_destroy(list) }
            guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1 else { return nil }
            let r = list.pointee.rectangles[0]
            let x0 = r.x * dsx + ox, y0 = r.y * dsy + oy
            let x1 = (r.x + r.width) * dsx + ox, y1 = (r.y + r.height) * dsy + oy
            guard x0 == x0.rounded(), y0 == y0.rounded(), x1 == x1.rounded(), y1 == y1.rounded() else { return nil }
            let w = Int(cairo_image_surface_get_width(s)), h = Int(cairo_image_surface_get_height(s))
            surface = s
            data = UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: 1)
            stride = Int(cairo_image_surface_get_stride(s)) / 4
            originX = Int(ox)
            originY = Int(oy)
            clipX0 = max(0, Int(x0)); clipY0 = max(0, Int(y0))
            clipX1 = min(w, Int(x1)); clipY1 = min(h, Int(y1))
            guard clipX0 < clipX1, clipY0 < clipY1 else { return nil }
        }
    }

    /// Composites `items` in order into the target rows `rows` (within its clip).
    static func composite(_ items: [Item], into t: Target, rows: Range<Int>) {
        for item in items {
            let image = item.image
            let sw = image.pixelWidth, sh = image.pixelHeight
            let left = item.x + t.originX, top = item.y + t.originY
            let x0 = max(left, t.clipX0), x1 = min(left + sw, t.clipX1)
            let y0 = max(top, rows.lowerBound), y1 = min(top + sh, rows.upperBound)
            guard x0 < x1, y0 < y1, let raw = cairo_image_surface_get_data(image.surface) else { continue }
            let src = UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: 1)
            let sstride = Int(cairo_image_surface_get_stride(image.surface)) / 4
            let n = x1 - x0, a = item.alpha
            for y in y0..<y1 {
                let s = src + (y - top) * sstride + (x0 - left)
                let d = t.data + y * t.stride + x0
                if a == 255 {
                    for k in 0..<n { d[k] = over(s[k], d[k]) }
                } else {
                    for k in 0..<n where s[k] != 0 { d[k] = over(multiply(s[k], a), d[k]) }
                }
            }
        }
    }

    /// Each 8-bit channel of `x` times `a` / 255, rounded as pixman does.
    @inline(__always)
    static func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var t = (x & 0x00FF_00FF) &* a &+ 0x0080_0080
        t = ((t &+ ((t >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var u = ((x >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        u = (u &+ ((u >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return t | u
    }

    /// Premultiplied `s` OVER `d` (pixman's arithmetic: d × (255 − αs) / 255 rounded, plus s,
    /// saturating per channel).
    @inline(__always)
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        if sa == 255 { return s }
        if s == 0 { return d }
        let m = multiply(d, 255 - sa)
        var rb = (m & 0x00FF_00FF) &+ (s & 0x00FF_00FF)
        rb |= 0x0100_0100 &- ((rb >> 8) & 0x00FF_00FF)
        var ag = ((m >> 8) & 0x00FF_00FF) &+ ((s >> 8) & 0x00FF_00FF)
        ag |= 0x0100_0100 &- ((ag >> 8) & 0x00FF_00FF)
        return (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
    }
}

/// The bottom rows of a sprite batch, for the helper thread (the items' images stay alive and
/// unchanged until the drawing thread has waited for it).
private final class SpriteBandJob: @unchecked Sendable {
    let items: [SpriteBatch.Item]
    let target: SpriteBatch.Target
    let rows: Range<Int>

    init(items: [SpriteBatch.Item], target: SpriteBatch.Target, rows: Range<Int>) {
        self.items = items
        self.target = target
        self.rows = rows
    }

    func run() { SpriteBatch.composite(items, into: target, rows: rows) }
}
