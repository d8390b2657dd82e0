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
        /// The image's rows as runs (transparent pixels skipped, opaque ones copied); kept
        /// alive here while the loop below reads its raw parts.
        let runs: SpriteRuns
        /// `runs`' pixels, stride, size and run lists, copied out so the compositing loop reads
        /// plain values (no class access, no retain) for every sprite in every band.
        let pixels: UnsafeMutablePointer<UInt32>
        let sstride: Int, sw: Int, sh: Int
        let rowStart: UnsafeMutablePointer<Int32>
        let runList: UnsafeMutablePointer<SpriteRuns.Run>
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
    /// Sprite pixels a batch needs before waking the helper pays (about 0.5 ms of compositing:
    /// on this two-core machine under load, handing a smaller batch over cost more in the
    /// helper's wake-up than it saved; 60 items with labels and a callout stay on one thread).
    static let minimumPixelsForBands = 250_000

    var isEmpty: Bool { items.isEmpty }

    /// Adds `sprite` with its anchor at (x, y) (as `Sprite.paint(in:x:y:alpha:deviceScale:)`).
    func add(_ sprite: Sprite, x: Double, y: Double, alpha: Double, deviceScale s: Double) {
        guard alpha > 0.004 else { return }
        let o = sprite.deviceOrigin(x: x, y: y, deviceScale: s)
        // cairo: alpha → 16 bits (× 65535.99999, truncated) → pixman's solid colour → 8 bits.
        let a = alpha >= 0.999 ? 255 : UInt32(min(65535, max(0, alpha * (65536 - 1e-5)))) >> 8
        let runs = sprite.runs
        items.append(Item(image: sprite.image, runs: runs, pixels: runs.pixels, sstride: runs.stride, sw: runs.width,
                          sh: runs.height, rowStart: runs.rowStart, runList: runs.runs, x: Int(o.x), y: Int(o.y), alpha: a,
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

    /// Target bytes composited at a time: a band of rows that stays in the core's L2 cache while
    /// every sprite over it is blended (sprites land all over a 4–16 MB frame; row by sprite, the
    /// target's lines would come from memory again for each of the 3–4 sprites over a pixel).
    static let bandBytes = 384 * 1024

    /// Composites `items` in order into the target rows `rows` (within its clip), a band of rows
    /// at a time (every pixel still gets the same sprites in the same order).
    static func composite(_ items: [Item], into t: Target, rows: Range<Int>) {
        let bandRows = max(16, bandBytes / max(1, 4 * t.stride))
        var top = rows.lowerBound
        while top < rows.upperBound {
            let bottom = min(rows.upperBound, top + bandRows)
            compositeBand(items, into: t, rows: top..<bottom)
            top = bottom
        }
    }

    private static func compositeBand(_ items: [Item], into t: Target, rows: Range<Int>) {
        items.withUnsafeBufferPointer { list in
            for i in list.indices {
                let top = list[i].y &+ t.originY, sh = list[i].sh
                guard top < rows.upperBound, top &+ sh > rows.lowerBound else { continue }
                let left = list[i].x &+ t.originX, sw = list[i].sw
                let x0 = max(left, t.clipX0), x1 = min(left &+ sw, t.clipX1)
                guard x0 < x1 else { continue }
                let y0 = max(top, rows.lowerBound), y1 = min(top &+ sh, rows.upperBound)
                let sstride = list[i].sstride
                let src = list[i].pixels + (y0 &- top) &* sstride
                let dst = t.data + (y0 &* t.stride &+ left)
                let rowStart = list[i].rowStart + (y0 &- top), runs = list[i].runList
                let a = list[i].alpha
                if a == 255 && x0 == left && x1 == left &+ sw {
                    // Most sprites: wholly inside the clip's columns and fully opaque paints.
                    paintRows(y1 &- y0, src: src, sstride: sstride, dst: dst, dstride: t.stride,
                              rowStart: rowStart, runs: runs)
                } else {
                    paintClippedRows(y1 &- y0, src: src, sstride: sstride, dst: dst, dstride: t.stride,
                                     rowStart: rowStart, runs: runs, columns: (x0 &- left)..<(x1 &- left), alpha: a)
                }
            }
        }
    }

    /// `count` rows of a sprite's runs, unclipped and at full opacity: opaque runs copied, the rest
    /// blended. An opaque run is at least `SpriteRuns.shortestRun` (16) pixels here, so its copy
    /// is whole 8-pixel windows, the last one overlapping (a copy may store a pixel twice).
    @inline(__always)
    private static func paintRows(_ count: Int, src: UnsafeMutablePointer<UInt32>, sstride: Int,
                                  dst: UnsafeMutablePointer<UInt32>, dstride: Int,
                                  rowStart: UnsafeMutablePointer<Int32>, runs: UnsafeMutablePointer<SpriteRuns.Run>) {
        var srow = src, drow = dst
        var r = Int(rowStart[0])
        for k in 1...count {
            let end = Int(rowStart[k])
            while r < end {
                let run = runs[r]
                r &+= 1
                let x = Int(run.x0), n = Int(run.x1) &- x
                if run.opaque {
                    copy(srow + x, drow + x, n)
                } else {
                    blend(srow + x, drow + x, n)
                }
            }
            srow += sstride
            drow += dstride
        }
    }

    /// As `paintRows`, for sprites cut by the clip (source `columns` only) or faded (`alpha` < 255).
    private static func paintClippedRows(_ count: Int, src: UnsafeMutablePointer<UInt32>, sstride: Int,
                                         dst: UnsafeMutablePointer<UInt32>, dstride: Int,
                                         rowStart: UnsafeMutablePointer<Int32>, runs: UnsafeMutablePointer<SpriteRuns.Run>,
                                         columns: Range<Int>, alpha a: UInt32) {
        var srow = src, drow = dst
        for k in 0..<count {
            var r = Int(rowStart[k])
            let end = Int(rowStart[k &+ 1])
            while r < end {
                let run = runs[r]
                r &+= 1
                let r0 = max(Int(run.x0), columns.lowerBound), r1 = min(Int(run.x1), columns.upperBound)
                guard r0 < r1 else { continue }
                let s = srow + r0, d = drow + r0, n = r1 &- r0
                if a != 255 {
                    blend(s, d, n, alpha: a)
                } else if run.opaque {
                    d.update(from: s, count: n)
                } else {
                    blend(s, d, n)
                }
            }
            srow += sstride
            drow += dstride
        }
    }

    /// Copies `n` ≥ 8 pixels from `s` to `d` (different images) eight at a time, the last eight
    /// at once even where they overlap pixels already copied.
    @inline(__always)
    static func copy(_ s: UnsafeMutablePointer<UInt32>, _ d: UnsafeMutablePointer<UInt32>, _ n: Int) {
        assert(n >= 8)
        let sr = UnsafeRawPointer(s), dr = UnsafeMutableRawPointer(d)
        var k = 0
        while k &+ 8 < n {
            dr.storeBytes(of: sr.loadUnaligned(fromByteOffset: 4 &* k, as: SIMD8<UInt32>.self), toByteOffset: 4 &* k,
                          as: SIMD8<UInt32>.self)
            k &+= 8
        }
        let e = 4 &* (n &- 8)
        dr.storeBytes(of: sr.loadUnaligned(fromByteOffset: e, as: SIMD8<UInt32>.self), toByteOffset: e, as: SIMD8<UInt32>.self)
    }

    /// `n` pixels of `s` OVER `d`, each scaled by `alpha` first unless 255: eight at a time,
    /// and the last eight (or four) at once even where they overlap pixels already done. Each
    /// result depends only on the pixel's own source and original target, so that window is
    /// computed first, from the originals, and stored last: overlapped pixels get the same
    /// values twice, and no run ends in a slow pixel-by-pixel tail.
    @inline(__always)
    static func blend(_ s: UnsafeMutablePointer<UInt32>, _ d: UnsafeMutablePointer<UInt32>, _ n: Int,
                      alpha: UInt32 = 255) {
        let sr = UnsafeRawPointer(s), dr = UnsafeMutableRawPointer(d)
        if n >= 8 {
            let e = 4 &* (n &- 8)
            var p = sr.loadUnaligned(fromByteOffset: e, as: SIMD8<UInt32>.self)
            if alpha != 255 { p = multiply(p, alpha) }
            let last = over(p, dr.loadUnaligned(fromByteOffset: e, as: SIMD8<UInt32>.self))
            var k = 0
            while k &+ 8 <= n {
                var p = sr.loadUnaligned(fromByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                if alpha != 255 { p = multiply(p, alpha) }
                let q = dr.loadUnaligned(fromByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                dr.storeBytes(of: over(p, q), toByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                k &+= 8
            }
            dr.storeBytes(of: last, toByteOffset: e, as: SIMD8<UInt32>.self)
        } else if n >= 4 {
            let e = 4 &* (n &- 4)
            var p = sr.loadUnaligned(fromByteOffset: e, as: SIMD4<UInt32>.self)
            if alpha != 255 { p = multiply(p, alpha) }
            let last = over(p, dr.loadUnaligned(fromByteOffset: e, as: SIMD4<UInt32>.self))
            var q = sr.loadUnaligned(as: SIMD4<UInt32>.self)
            if alpha != 255 { q = multiply(q, alpha) }
            dr.storeBytes(of: over(q, dr.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
            dr.storeBytes(of: last, toByteOffset: e, as: SIMD4<UInt32>.self)
        } else {
            for k in 0..<n {
                let p = alpha == 255 ? s[k] : multiply(s[k], alpha)
                d[k] = over(p, d[k])
            }
        }
    }

    /// `multiply` on several pixels (each channel in its own 16-bit lane).
    @inline(__always)
    static func multiply(_ x: SIMD8<UInt32>, _ a: UInt32) -> SIMD8<UInt32> {
        scaled(x, by: SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: a)))
    }

    @inline(__always)
    static func multiply(_ x: SIMD4<UInt32>, _ a: UInt32) -> SIMD4<UInt32> {
        scaled(x, by: SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: a)))
    }

    /// `over` on several pixels, branch-free: with αs = 0 the product is d itself and with
    /// αs = 255 it is 0, so the results equal `over`'s. No saturation: a sprite's pixels are
    /// valid premultiplied colours (cairo made them; `multiply` keeps them so), each channel at
    /// most αs, and d × (255 − αs) / 255 rounds to at most 255 − αs, so no sum passes 255.
    @inline(__always)
    static func over(_ s: SIMD8<UInt32>, _ d: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let ia = 255 &- (s &>> 24)
        return scaled(d, by: unsafeBitCast(ia | (ia &<< 16), to: SIMD16<UInt16>.self)) &+ s
    }

    @inline(__always)
    static func over(_ s: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let ia = 255 &- (s &>> 24)
        return scaled(d, by: unsafeBitCast(ia | (ia &<< 16), to: SIMD8<UInt16>.self)) &+ s
    }

    /// Each channel of the pixels `x` times its lane of `a` / 255, rounded as `multiply` (red and
    /// blue, then alpha and green, in 16-bit lanes: 255 × 255 + 128 + 254 < 65536).
    @inline(__always)
    static func scaled(_ x: SIMD8<UInt32>, by a: SIMD16<UInt16>) -> SIMD8<UInt32> {
        var t = unsafeBitCast(x & 0x00FF_00FF, to: SIMD16<UInt16>.self) &* a &+ 0x80
        t = (t &+ (t &>> 8)) &>> 8
        var u = unsafeBitCast((x &>> 8) & 0x00FF_00FF, to: SIMD16<UInt16>.self) &* a &+ 0x80
        u = (u &+ (u &>> 8)) &>> 8
        return unsafeBitCast(t, to: SIMD8<UInt32>.self) | (unsafeBitCast(u, to: SIMD8<UInt32>.self) &<< 8)
    }

    @inline(__always)
    static func scaled(_ x: SIMD4<UInt32>, by a: SIMD8<UInt16>) -> SIMD4<UInt32> {
        var t = unsafeBitCast(x & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* a &+ 0x80
        t = (t &+ (t &>> 8)) &>> 8
        var u = unsafeBitCast((x &>> 8) & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* a &+ 0x80
        u = (u &+ (u &>> 8)) &>> 8
        return unsafeBitCast(t, to: SIMD4<UInt32>.self) | (unsafeBitCast(u, to: SIMD4<UInt32>.self) &<< 8)
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
