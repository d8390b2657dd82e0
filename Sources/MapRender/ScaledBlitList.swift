import CCairo
import CSpriteBlend
import Foundation

/// The scaled tile blits of one frame, recorded first and then painted in two horizontal bands at
/// once: the drawing thread paints the top rows, a helper thread (`BandHelper`) the bottom ones.
///
/// Why: a frame drawn from scaled tiles (a zoom animation) resamples a whole viewport of pixels,
/// about 3 ms of pixman for 1280×800 on one core of this project's machine; the machine has two.
/// The helper paints through its own cairo surface over the target's pixels, clipped to its rows
/// (and its own surfaces over the tiles' pixels), so no cairo object is shared between the
/// threads, and every pixel gets the same paints with the same transform as on one thread (pixman
/// may round a bilinear weight differently under the band's clip: one level at most).
final class ScaledBlitList {
    struct Rect { var x0, y0, x1, y1: Double }

    enum Op {
        /// Tile pixels painted into `rect` (user space), tile pixel (0, 0) at (`x`, `y`), `g` times
        /// its size, with `filter`.
        case tile(ImageSurface, x: Double, y: Double, g: Double, rect: Rect, filter: cairo_filter_t)
        /// Narrows the clip to a rectangle (until the matching `unclip`).
        case clip(Rect)
        case unclip
    }

    private(set) var ops: [Op] = []

    var isEmpty: Bool { ops.isEmpty }

    func removeAll() { ops.removeAll(keepingCapacity: true) }

    func append(_ op: Op) { ops.append(op) }

    /// Device rows a frame needs before painting in bands pays for waking the helper.
    static let minimumBandRows = 96

    /// The sprite batch that paints this frame's blits with its sprites, band by band, where it
    /// can (`DeferredBase`; set by `MapFrameRenderer` for frames in motion).
    weak var deferral: SpriteBatch?
    /// Frames whose blits were handed to `deferral` (for tests).
    private(set) var deferredCount = 0

    /// Paints the recorded blits into `cr` (in bands on both cores where `cr` allows it) and
    /// empties the list; or hands them to `deferral`.
    func execute(in cr: OpaquePointer, usingBothCores: Bool) {
        defer { removeAll() }
        guard !ops.isEmpty else { return }
        if usingBothCores, let batch = deferral, batch.pendingBase == nil, let base = DeferredBase(ops, in: cr) {
            base.start()
            batch.pendingBase = base
            deferredCount += 1
            return
        }
        if usingBothCores, let split = BandSplit(cr), split.bottomRows >= Self.minimumBandRows / 2,
           split.topRows >= Self.minimumBandRows / 2 {
            executeInBands(cr, split)
        } else {
            Self.run(ops, in: cr) { $0.surface }
        }
    }

    /// Replays `ops` into `cr`, each tile's pixels read through `source(tile)`; with `nearestInC`
    /// (false only in tests comparing with cairo's own nearest sampling),
    /// tiles sampled nearest are copied by the C kernel where `cr` allows it.
    static func run(_ ops: [Op], in cr: OpaquePointer, nearestInC: Bool = true, source: (ImageSurface) -> OpaquePointer) {
        let operation = cairo_get_operator(cr)
        let direct = nearestInC && (operation == CAIRO_OPERATOR_SOURCE || operation == CAIRO_OPERATOR_OVER)
            ? NearestBlit.Target(cr) : nil
        var clips: [Rect] = []
        // Pixels written by the kernel since cairo last drew (cairo is told before it draws again),
        // and whether cairo drew since the kernel last wrote (flushed before it writes again).
        var written = false, drawn = false
        for op in ops {
            switch op {
            case let .tile(image, x, y, g, rect, filter):
                if let t = direct, filter == CAIRO_FILTER_NEAREST,
                   let blit = NearestBlit.make(source(image), x: x, y: y, g: g, rect: rect, clips: clips, target: t) {
                    if drawn { cairo_surface_flush(t.surface); drawn = false }
                    withUnsafePointer(to: blit) { csb_blit_nearest($0, t.pixels.data, t.pixels.stride, t.pixels.clip_y0, t.pixels.clip_y1) }
                    written = true
                    continue
                }
                if written, let t = direct { cairo_surface_mark_dirty(t.surface); written = false }
                drawn = true
                cairo_set_source_surface(cr, source(image), 0, 0)
                let pattern = cairo_get_source(cr)
                var m = cairo_matrix_t()
                cairo_matrix_init_scale(&m, 1 / g, 1 / g)
                cairo_matrix_translate(&m, -x, -y)
                cairo_pattern_set_matrix(pattern, &m)
                cairo_pattern_set_filter(pattern, filter)
                cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
                cairo_rectangle(cr, rect.x0, rect.y0, rect.x1 - rect.x0, rect.y1 - rect.y0)
                cairo_fill(cr)
            case let .clip(r):
                clips.append(r)
                cairo_save(cr)
                cairo_rectangle(cr, r.x0, r.y0, r.x1 - r.x0, r.y1 - r.y0)
                cairo_clip(cr)
            case .unclip:
                clips.removeLast()
                cairo_restore(cr)
            }
        }
        if written, let t = direct { cairo_surface_mark_dirty(t.surface) }
    }

    private func executeInBands(_ cr: OpaquePointer, _ split: BandSplit) {
        let target = split.target
        cairo_surface_flush(target)
        // The helper's own surfaces over the tiles' pixels (read only on both threads).
        var wrappers: [ObjectIdentifier: OpaquePointer] = [:]
        for case let .tile(image, _, _, _, _, _) in ops where wrappers[ObjectIdentifier(image)] == nil {
            cairo_surface_flush(image.surface)
            wrappers[ObjectIdentifier(image)] = Self.alias(image.surface, firstRow: 0)
        }
        // The helper's surface covers the whole target (so cairo derives the same sampling
        // positions as here) and is clipped to the bottom band.
        let bottom = Self.alias(target, firstRow: 0)
        let job = BandJob(ops: ops, wrappers: wrappers, surface: bottom, split: split, op: cairo_get_operator(cr))
        let done = BandHelper.shared.start { job.run() }
        // The top band here, clipped at the split row (device space, so no rounding).
        cairo_save(cr)
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        cairo_identity_matrix(cr)
        cairo_rectangle(cr, -1e6, -1e6, 2e6, (Double(split.row) - split.offsetY) / split.scaleY + 1e6)
        cairo_clip(cr)
        cairo_set_matrix(cr, &m)
        Self.run(ops, in: cr) { $0.surface }
        cairo_restore(cr)
        done.wait()
        cairo_surface_destroy(bottom)
        for (_, s) in wrappers { cairo_surface_destroy(s) }
        cairo_surface_mark_dirty(target)
    }

    /// A second image surface over the pixels of `surface` from device row `firstRow` down, with
    /// the same format, device scale and (shifted) device offset.
    static func alias(_ surface: OpaquePointer, firstRow: Int) -> OpaquePointer {
        let stride = cairo_image_surface_get_stride(surface)
        let data = cairo_image_surface_get_data(surface)! + firstRow * Int(stride)
        let s = cairo_image_surface_create_for_data(data, cairo_image_surface_get_format(surface),
                                                    cairo_image_surface_get_width(surface),
                                                    cairo_image_surface_get_height(surface) - Int32(firstRow), stride)!
        var sx = 1.0, sy = 1.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(surface, &sx, &sy)
        cairo_surface_get_device_offset(surface, &ox, &oy)
        cairo_surface_set_device_scale(s, sx, sy)
        cairo_surface_set_device_offset(s, ox, oy - Double(firstRow))
        return s
    }
}

/// Where a context's drawing splits into two bands: its target is an image surface, its transform
/// a plain scale and offset, its clip one rectangle; `row` is the target's first row of the
/// bottom band.
struct BandSplit {
    let target: OpaquePointer
    let row: Int
    let topRows: Int, bottomRows: Int
    let matrix: cairo_matrix_t
    let clip: ScaledBlitList.Rect
    let scaleY: Double, offsetY: Double

    init?(_ cr: OpaquePointer) {
        guard let target = cairo_get_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_data(target) != nil else { return nil }
        let format = cairo_image_surface_get_format(target)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { return nil }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0 else { return nil }
        guard let list = cairo_copy_clip_rectangle_list(cr) else { return nil }
        defer { cairo_rectangle_list_destroy(list) }
        guard list.pointee.status == CAIRO_STATUS_SUCCESS, list.pointee.num_rectangles == 1 else { return nil }
        let r = list.pointee.rectangles[0]
        clip = ScaledBlitList.Rect(x0: r.x, y0: r.y, x1: r.x + r.width, y1: r.y + r.height)
        var sx = 1.0, sy = 1.0, ox = 0.0, oy = 0.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        cairo_surface_get_device_offset(target, &ox, &oy)
        // The clip's rows in the target's pixels (cairo's device space is before the device scale).
        var top = r.y, bottom = r.y + r.height, x = r.x
        cairo_user_to_device(cr, &x, &top)
        cairo_user_to_device(cr, &x, &bottom)
        let height = Int(cairo_image_surface_get_height(target))
        let first = max(0, Int((top * sy + oy).rounded(.down))), last = min(height, Int((bottom * sy + oy).rounded(.up)))
        guard last - first >= 2 else { return nil }
        self.target = target
        row = (first + last) / 2
        topRows = row - first
        bottomRows = last - row
        matrix = m
        scaleY = sy
        offsetY = oy
    }
}

/// One bottom band's work, handed to the helper thread: everything it touches is its own (the
/// surfaces are aliases made for it) or read only until the drawing thread has waited for it.
private final class BandJob: @unchecked Sendable {
    let ops: [ScaledBlitList.Op]
    let wrappers: [ObjectIdentifier: OpaquePointer]
    let surface: OpaquePointer
    let split: BandSplit
    let op: cairo_operator_t

    init(ops: [ScaledBlitList.Op], wrappers: [ObjectIdentifier: OpaquePointer], surface: OpaquePointer,
         split: BandSplit, op: cairo_operator_t) {
        self.ops = ops
        self.wrappers = wrappers
        self.surface = surface
        self.split = split
        self.op = op
    }

    func run() {
        let cr = cairo_create(surface)!
        cairo_rectangle(cr, -1e6, (Double(split.row) - split.offsetY) / split.scaleY, 2e6, 2e6)
        cairo_clip(cr)
        var m = split.matrix
        cairo_set_matrix(cr, &m)
        cairo_set_operator(cr, op)
        let c = split.clip
        cairo_rectangle(cr, c.x0, c.y0, c.x1 - c.x0, c.y1 - c.y0)
        cairo_clip(cr)
        ScaledBlitList.run(ops, in: cr) { wrappers[ObjectIdentifier($0)]! }
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }
}
