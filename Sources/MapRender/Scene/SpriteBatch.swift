import CCairo
import CSpriteBlend
import Foundation

/// Sprite paints of a frame (labels, bubbles, pins, the callout), collected and then composited
/// straight into the target's pixels, on both cores when there are enough of them.
///
/// Why: a frame paints a couple of hundred small sprites over a 4 MB image; through cairo each
/// paint costs a pattern, a compositor pass and pixman's set-up (together more than the pixels),
/// and on one core. Here each paint is a loop over the sprite's rows with pixman's own arithmetic
/// for OVER (premultiplied, rounded the same way, with the same 8-bit alpha cairo derives from
/// `cairo_paint_with_alpha`), so the pixels are identical to cairo's; the bottom half of the rows
/// is done by `BandHelper` at the same time. The loops are C (`CSpriteBlend`): AVX-512 or AVX2
/// where the CPU has them (sixteen or eight pixels a step), with a portable fallback. Where the target isn't a plain ARGB32 image (or the
/// clip isn't one whole-pixel rectangle) the batch falls back to cairo paints, in order.
final class SpriteBatch {
    /// A sprite of the batch: what keeps its pixels and runs alive, and what the cairo fallback needs.
    struct Item {
        let image: ImageSurface
        let runs: SpriteRuns
        /// Opacity as cairo hands it to pixman (255: a plain paint).
        let alpha: UInt32
        let userX: Double, userY: Double, userAlpha: Double
    }

    private(set) var items: [Item] = []
    /// The same sprites as the C kernels read them (raw pointers into `items`' runs and images,
    /// which stay alive here until the batch is flushed).
    private(set) var placed: [csb_item] = []
    private var pixels = 0

    /// Whether the bottom rows may be composited by the helper thread.
    var usesBothCores = true
    /// Sprite pixels a batch needs before waking the helper pays (about 0.5 ms of compositing:
    /// on this two-core machine under load, handing a smaller batch over cost more in the
    /// helper's wake-up than it saved; 60 items with labels and a callout stay on one thread).
    static let minimumPixelsForBands = 250_000

    /// The compositing kernel (`CSB_KERNEL_*`; the pixels are the same with each): `csb_best_kernel`
    /// (AVX2 here), or the one named by `CLUSTERMAP_SPRITE_KERNEL` (portable, avx2, avx512), so that
    /// a benchmark can compare them in one build.
    static let defaultKernel: Int32 = {
        let named = ["portable": CSB_KERNEL_PORTABLE, "avx2": CSB_KERNEL_AVX2, "avx512": CSB_KERNEL_AVX512]
        if let name = ProcessInfo.processInfo.environment["CLUSTERMAP_SPRITE_KERNEL"], let k = named[name],
           csb_kernel_supported(Int32(k)) {
            return Int32(k)
        }
        return csb_best_kernel()
    }()
    var kernel = SpriteBatch.defaultKernel

    var isEmpty: Bool { items.isEmpty }

    /// Adds `sprite` with its anchor at (x, y) (as `Sprite.paint(in:x:y:alpha:deviceScale:)`).
    func add(_ sprite: Sprite, x: Double, y: Double, alpha: Double, deviceScale s: Double) {
        guard alpha > 0.004 else { return }
        let o = sprite.deviceOrigin(x: x, y: y, deviceScale: s)
        // cairo: alpha → 16 bits (× 65535.99999, truncated) → pixman's solid colour → 8 bits.
        let a = alpha >= 0.999 ? 255 : UInt32(min(65535, max(0, alpha * (65536 - 1e-5)))) >> 8
        let runs = sprite.runs
        items.append(Item(image: sprite.image, runs: runs, alpha: a, userX: o.x / s, userY: o.y / s, userAlpha: alpha))
        placed.append(csb_item(pixels: runs.pixels, row_start: runs.rowStart, runs: runs.runs, stride: runs.stride,
                               width: runs.width, height: runs.height, x: Int(o.x), y: Int(o.y), alpha: a))
        pixels += sprite.image.pixelWidth * sprite.image.pixelHeight
    }

    /// The base map's copies of this frame, not painted yet (`DeferredBase`): the first flush
    /// into their target paints them, band by band with its sprites.
    var pendingBase: DeferredBase?

    /// Paints the pending base map copies (`pendingBase`) if `cr` draws into their target, so that
    /// what is drawn next goes over them.
    func finishPendingBase(before cr: OpaquePointer) {
        guard let base = pendingBase, cairo_get_target(cr) == base.surface else { return }
        pendingBase = nil
        base.finish(sprites: [], into: nil, kernel: kernel)
    }

    /// Paints the pending base map copies whatever the target (the frame is over).
    func finishPendingBase() {
        pendingBase?.finish(sprites: [], into: nil, kernel: kernel)
        pendingBase = nil
    }

    /// Paints the collected sprites into `cr`, in order, and empties the batch (first the pending
    /// base map copies, if `cr` draws into their target: with the sprites where they can).
    func flush(into cr: OpaquePointer) {
        guard !items.isEmpty || pendingBase != nil else { return }
        defer {
            items.removeAll(keepingCapacity: true)
            placed.removeAll(keepingCapacity: true)
            pixels = 0
        }
        if let base = pendingBase, cairo_get_target(cr) == base.surface, !items.isEmpty, let t = Target(cr), base.covers(t.pixels) {
            pendingBase = nil
            base.finish(sprites: placed, into: t.pixels, kernel: kernel)
            return
        }
        finishPendingBase(before: cr)
        guard !items.isEmpty else { return }
        guard let t = Target(cr) else {
            for item in items {
                cairo_set_source_surface(cr, item.image.surface, item.userX, item.userY)
                if item.alpha == 255 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, item.userAlpha) }
            }
            return
        }
        cairo_surface_flush(t.surface)
        Self.composite(placed, into: t.pixels, bothCores: usesBothCores && pixels >= Self.minimumPixelsForBands, kernel: kernel)
        cairo_surface_mark_dirty(t.surface)
    }

    /// Composites `placed` in order into all of the target's clip rows; with `bothCores` (and
    /// enough rows) on `BandHelper`'s thread too: the rows' bands are handed out one at a time
    /// (`csb_claim_band`), this thread taking them from the top and the helper from the bottom, so
    /// neither waits while bands are left; a helper that has not started by the time this thread
    /// has done them all is withdrawn. (A fixed half each made every frame as slow as the later
    /// thread: the helper wakes 0.05 ms after the hand-over on an idle machine, 2–3 ms when
    /// another process holds its core.)
    static func composite(_ placed: [csb_item], into t: csb_target, bothCores: Bool, kernel: Int32) {
        let rows = t.clip_y0..<t.clip_y1
        let bandRows = Self.bandRows(t)
        if bothCores && rows.count >= 64 {
            let bands = SharedBands(count: (rows.count + bandRows - 1) / bandRows)
            let job = SpriteBandJob(placed: placed, target: t, rows: rows, bandRows: bandRows, kernel: kernel, bands: bands)
            let done = BandHelper.shared.start { job.run() }
            placed.withUnsafeBufferPointer { list in
                withUnsafePointer(to: t) { target in
                    _ = csb_composite_claiming(list.baseAddress, list.count, target, rows.lowerBound, rows.upperBound, bandRows,
                                               kernel, bands.word, false)
                }
            }
            done.waitOrWithdraw()
        } else {
            composite(placed, into: t, rows: rows, kernel: kernel)
        }
    }

    /// The target's surface, and its pixels with where user (0, 0) and the clip are in them.
    struct Target {
        let surface: OpaquePointer
        let pixels: csb_target

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
            let clipX0 = max(0, Int(x0)), clipY0 = max(0, Int(y0))
            let clipX1 = min(w, Int(x1)), clipY1 = min(h, Int(y1))
            guard clipX0 < clipX1, clipY0 < clipY1 else { return nil }
            surface = s
            pixels = csb_target(data: UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: 1),
                                stride: Int(cairo_image_surface_get_stride(s)) / 4, origin_x: Int(ox), origin_y: Int(oy),
                                clip_x0: clipX0, clip_y0: clipY0, clip_x1: clipX1, clip_y1: clipY1)
        }
    }

    /// Target bytes composited at a time: a band of rows that stays in the core's L2 cache while
    /// every sprite over it is blended (sprites land all over a 4–16 MB frame; row by sprite, the
    /// target's lines would come from memory again for each of the 3–4 sprites over a pixel).
    static let bandBytes = 384 * 1024

    /// Rows of a band of `t` (`bandBytes`).
    static func bandRows(_ t: csb_target) -> Int { max(16, bandBytes / max(1, 4 * t.stride)) }

    /// Composites `placed` in order into the target rows `rows` (within its clip), a band of rows
    /// at a time (every pixel still gets the same sprites in the same order), with `kernel`.
    static func composite(_ placed: [csb_item], into t: csb_target, rows: Range<Int>, kernel: Int32) {
        let bandRows = Self.bandRows(t)
        placed.withUnsafeBufferPointer { list in
            withUnsafePointer(to: t) { target in
                csb_composite(list.baseAddress, list.count, target, rows.lowerBound, rows.upperBound, bandRows, kernel)
            }
        }
    }
}

/// The word two threads claim bands from (`csb_claim_band`).
final class SharedBands: @unchecked Sendable {
    let word: UnsafeMutablePointer<UInt64>

    init(count: Int) {
        word = .allocate(capacity: 1)
        word.initialize(to: csb_bands(UInt32(count)))
    }

    deinit { word.deallocate() }
}

/// The helper's part of a sprite batch: the bands it claims from the bottom (the items' images
/// stay alive and unchanged until the drawing thread has waited for it or withdrawn it).
private final class SpriteBandJob: @unchecked Sendable {
    let placed: [csb_item]
    let target: csb_target
    let rows: Range<Int>
    let bandRows: Int
    let kernel: Int32
    let bands: SharedBands

    init(placed: [csb_item], target: csb_target, rows: Range<Int>, bandRows: Int, kernel: Int32, bands: SharedBands) {
        self.placed = placed
        self.target = target
        self.rows = rows
        self.bandRows = bandRows
        self.kernel = kernel
        self.bands = bands
    }

    func run() {
        placed.withUnsafeBufferPointer { list in
            withUnsafePointer(to: target) { t in
                _ = csb_composite_claiming(list.baseAddress, list.count, t, rows.lowerBound, rows.upperBound, bandRows, kernel,
                                           bands.word, true)
            }
        }
    }
}
