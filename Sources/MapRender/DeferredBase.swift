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
/// out to both threads (`csb_composite_frame`). Each pixel gets the same copies and sprites in the
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
    /// Bands the helper copies ahead, and its job.
    private var early: SharedBands?
    private var job: BandHelper.Pending?
    /// Whether `finish` has run.
    private(set) var isFinished = false

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
    }

    deinit {
        for i in 0..<count { UnsafeMutablePointer(mutating: columns[i])?.deallocate() }
        columns.deallocate()
        straight.deallocate()
        blits.deallocate()
    }

    private var bandCount: Int { (rows.count + bandRows - 1) / bandRows }

    /// Whether sprites clipped to `t`'s rows can be painted with the copies (their rows are the
    /// copies' bands).
    func covers(_ t: csb_target) -> Bool { t.data == target && t.stride == stride && rows.contains(t.clip_y0) && t.clip_y1 <= rows.upperBound }

    private func withBase<R>(_ body: (UnsafePointer<csb_frame_base>) -> R) -> R {
        var base = csb_frame_base(blits: blits, columns: columns, straight: straight, count: count, target: target, stride: stride)
        return withUnsafePointer(to: &base) { body($0) }
    }

    /// Hands the helper thread the copies, a band at a time from the bottom, until `finish`.
    func start() {
        cairo_surface_flush(surface)
        let bands = SharedBands(count: bandCount)
        early = bands
        job = BandHelper.shared.start { [self] in
            _ = withBase { csb_base_claiming($0, rows.lowerBound, rows.upperBound, bandRows, bands.word) }
        }
    }

    /// Paints the copies the helper has not made yet and then `placed` (sprites, in order,
    /// clipped to `t`, which `covers` must allow; none when nil), band by band on both cores.
    func finish(sprites placed: [csb_item], into t: csb_target?, kernel: Int32) {
        guard !isFinished else { return }
        isFinished = true
        // Bands from `basedFrom` on have their copies (or the one in progress will, once waited for).
        let basedFrom = early.map { csb_close_bands($0.word) } ?? UInt32(bandCount)
        job?.waitOrWithdraw()
        job = nil
        let sprites = t ?? csb_target(data: target, stride: stride, origin_x: 0, origin_y: 0, clip_x0: 0, clip_y0: 0,
                                      clip_x1: 0, clip_y1: 0)
        let bands = SharedBands(count: bandCount)
        let list = t == nil ? [] : placed
        let helperJob = FrameBandJob(base: self, placed: list, target: sprites, basedFrom: basedFrom, kernel: kernel, bands: bands)
        let done = BandHelper.shared.start { helperJob.run() }
        run(list, sprites, basedFrom: basedFrom, kernel: kernel, bands: bands, fromBottom: false)
        done.waitOrWithdraw()
        cairo_surface_mark_dirty(surface)
    }

    /// One thread's part of `finish`.
    fileprivate func run(_ placed: [csb_item], _ t: csb_target, basedFrom: UInt32, kernel: Int32, bands: SharedBands,
                         fromBottom: Bool) {
        placed.withUnsafeBufferPointer { list in
            withUnsafePointer(to: t) { target in
                _ = withBase { base in
                    csb_composite_frame(list.baseAddress, list.count, target, base, basedFrom, rows.lowerBound, rows.upperBound,
                                        bandRows, kernel, bands.word, fromBottom)
                }
            }
        }
    }
}

/// The helper's part of `DeferredBase.finish`: the bands it claims from the bottom.
private final class FrameBandJob: @unchecked Sendable {
    let base: DeferredBase
    let placed: [csb_item]
    let target: csb_target
    let basedFrom: UInt32
    let kernel: Int32
    let bands: SharedBands

    init(base: DeferredBase, placed: [csb_item], target: csb_target, basedFrom: UInt32, kernel: Int32, bands: SharedBands) {
        self.base = base
        self.placed = placed
        self.target = target
        self.basedFrom = basedFrom
        self.kernel = kernel
        self.bands = bands
    }

    func run() { base.run(placed, target, basedFrom: basedFrom, kernel: kernel, bands: bands, fromBottom: true) }
}
