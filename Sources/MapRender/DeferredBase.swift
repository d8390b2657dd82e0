import CCairo
import CSpriteBlend

/// The base map's tile copies of a frame in motion, painted band by band together with the
/// scene's sprites instead of all before them.
///
/// Why: at scale 2 a frame is 16 MB, eight times this machine's L2 cache per core; the base map
/// wrote all of it and the sprite batch then read it back from memory (a 16 MB pass costs about
/// 1–2.5 ms of a core here, measured). Painted a band of rows at a time (`SpriteBatch.bandBytes`),
/// the sprites blend into rows still in the cache. And the helper thread starts on the copies at
/// once, from the bottom, while the drawing thread builds the scene's sprite batch (marks looked
/// up, labels placed), work it used to wait through. When the batch is flushed (`finish`), the
/// bands still without their copies get them first, then every band its sprites, the bands handed
/// out to both threads (`csb_frame`: one helper job a frame). Each pixel gets the same copies and sprites in the
/// same order as before: the same bytes.
///
/// Only copies the C kernel does (`NearestBlit`: tiles sampled nearest); a frame with any other
/// blit (bilinear minification) is painted as before. Whoever draws into the target with cairo
/// must `finish` it first (`SpriteBatch.flush` does, and `MapFrameRenderer` after the overlays).
final class DeferredBase: @unchecked Sendable {
    /// The target surface the copies are for.
    let surface: OpaquePointer
    /// Target rows the copies may touch (the base map's clip), in bands of `bandRows`.
    let rows: Range<Int>
    let bandRows: Int
    private let count: Int
    private let blits: UnsafeMutablePointer<csb_nearest_blit>
    private let columns: UnsafeMutablePointer<UnsafePointer<Int32>?>
    private let straight: UnsafeMutablePointer<Bool>
    private let target: UnsafeMutablePointer<UInt32>
    private let stride: Int
    /// The tiles read (alive until the copies are done).
    private let images: [ImageSurface]
    /// What both threads share (`csb_frame`), and the helper's job.
    fileprivate let frame: UnsafeMutablePointer<csb_frame>
    private var job: BandHelper.Pending?
    /// Whether `finish` has run.
    private(set) var isFinished = false
    /// How long the helper waits for the sprites after its last copy before leaving the rest
    /// to the drawing thread, ms (a frame's batch takes 1–3 ms to build).
    static let helperPatienceMs = 20.0

    /// The copies of `ops` into `cr`'s target, or nil if any of them isn't one the C kernel does
    /// (or `cr` isn't a plain image the kernel writes).
    init?(_ ops: [ScaledBlitList.Op], in cr: OpaquePointer) {
        let operation = cairo_get_operator(cr)
        guard operation == CAIRO_OPERATOR_SOURCE || operation == CAIRO_OPERATOR_OVER, let t = NearestBlit.Target(cr) else { return nil }
        var list: [csb_nearest_blit] = [], images: [ImageSurface] = []
        var clips: [ScaledBlitList.Rect] = []
        for op in ops {
            switch op {
            case let .tile(image, x, y, g, rect, filter):
                guard filter == CAIRO_FILTER_NEAREST,
                      let blit = NearestBlit.make(image.surface, x: x, y: y, g: g, rect: rect, clips: clips, target: t) else { return nil }
                cairo_surface_flush(image.surface)
                list.append(blit)
                images.append(image)
            case let .clip(r):
                clips.append(r)
            case .unclip:
                clips.removeLast()
            }
        }
        surface = t.surface
        rows = t.pixels.clip_y0..<t.pixels.clip_y1
        bandRows = SpriteBatch.bandRows(t.pixels)
        target = t.pixels.data
        stride = t.pixels.stride
        self.images = images
        count = list.count
        blits = .allocate(capacity: max(1, count))
        blits.initialize(from: list, count: count)
        columns = .allocate(capacity: max(1, count))
        straight = .allocate(capacity: max(1, count))
        for i in 0..<count {
            let c = UnsafeMutablePointer<Int32>.allocate(capacity: max(1, list[i].x1 - list[i].x0))
            straight[i] = csb_nearest_columns(blits + i, c)
            columns[i] = UnsafePointer(c)
        }
        frame = .allocate(capacity: 1)
        let bands = (rows.count + bandRows - 1) / bandRows
        frame.initialize(to: csb_frame(blits: blits, columns: columns, straight: straight, blit_count: count, pixels: target,
                                       stride: stride, row0: rows.lowerBound, row1: rows.upperBound, band_rows: bandRows,
                                       band_count: UInt32(bands), early: csb_bands(UInt32(bands)), bands: 0, based_done: 0,
                                       based_from: 0, published: 0, items: nil, count: 0,
                                       target: csb_target(data: target, stride: stride, origin_x: 0, origin_y: 0, clip_x0: 0,
                                                          clip_y0: 0, clip_x1: 0, clip_y1: 0),
                                       kernel: 0))
    }

    deinit {
        frame.deallocate()
        for i in 0..<count { UnsafeMutablePointer(mutating: columns[i])?.deallocate() }
        columns.deallocate()
        straight.deallocate()
        blits.deallocate()
    }

    /// Whether sprites clipped to `t`'s rows can be painted with the copies (their rows are the
    /// copies' bands).
    func covers(_ t: csb_target) -> Bool { t.data == target && t.stride == stride && rows.contains(t.clip_y0) && t.clip_y1 <= rows.upperBound }

    /// Hands the helper thread its job: the copies, a band at a time from the bottom, then its
    /// share of the bands once `finish` publishes the sprites.
    func start() {
        cairo_surface_flush(surface)
        let f = SharedFrame(self)
        job = BandHelper.shared.start { _ = csb_frame_helper(f.base.frame, DeferredBase.helperPatienceMs) }
    }

    /// Paints the copies the helper has not made and `placed` (sprites, in order, clipped to
    /// `t`, which `covers` must allow; none when nil), band by band on both cores.
    func finish(sprites placed: [csb_item], into t: csb_target?, kernel: Int32) {
        guard !isFinished else { return }
        isFinished = true
        placed.withUnsafeBufferPointer { list in
            if let t {
                withUnsafePointer(to: t) { csb_frame_finish(frame, list.baseAddress, list.count, $0, kernel) }
            } else {
                csb_frame_finish(frame, nil, 0, nil, kernel)
            }
            // The helper reads the published sprites until its job ends.
            job?.waitOrWithdraw()
        }
        job = nil
        cairo_surface_mark_dirty(surface)
    }
}

/// A deferred base handed to the helper thread (alive until its job ends: the drawing thread
/// waits for the job, or withdraws it, before the base goes).
private struct SharedFrame: @unchecked Sendable {
    let base: DeferredBase
    init(_ base: DeferredBase) { self.base = base }
}
