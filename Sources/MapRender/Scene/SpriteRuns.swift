import CCairo
import CSpriteBlend

/// A sprite's rows as runs of pixels that need compositing: fully transparent stretches are left
/// out, fully opaque ones are marked so a plain paint copies them instead of blending.
///
/// Why: a bubble is mostly a solid disc in a ring of soft shadow, its corners empty; a label is
/// mostly empty halo margin. Blending every pixel of the box (what pixman and the first
/// `SpriteBatch` did) spends most of a 1,500-item frame on pixels whose result is known: OVER with
/// source alpha 0 leaves the target, with alpha 255 gives the source. Skipping or copying those is
/// exact, so the pixels stay identical to cairo's.
final class SpriteRuns: @unchecked Sendable {
    /// One run of a row: source columns `x0..<x1`, all alpha 255 when `opaque` (the C kernels'
    /// type, so they read the list as it is).
    typealias Run = csb_run

    /// Runs of row `y` are `runs[rowStart[y]..<rowStart[y + 1]]`, left to right (kept in raw
    /// buffers: the compositing loop reads them on both cores without retaining anything).
    let rowStart: UnsafeMutablePointer<Int32>
    let runs: UnsafeMutablePointer<Run>
    /// Number of runs.
    let count: Int
    /// The image's pixels, row stride (in pixels) and size, read once here so the compositing
    /// loop makes no cairo call per sprite and band (the image never changes once made).
    let pixels: UnsafeMutablePointer<UInt32>
    let stride: Int
    let width: Int, height: Int
    private let ownsPixels: Bool

    /// Opaque runs shorter than this, and transparent gaps shorter than `shortestGap`, are folded
    /// into the blended run around them: blending a few more pixels (exact for any pixel) costs
    /// less than another run with its own short, unvectorised ends.
    static let shortestRun = 16
    static let shortestGap = 8

    /// The runs of `image`'s pixels (premultiplied ARGB32).
    init(_ image: ImageSurface) {
        let w = image.pixelWidth, h = image.pixelHeight
        var starts: [Int32] = [0]
        var out: [Run] = []
        starts.reserveCapacity(h + 1)
        cairo_surface_flush(image.surface)
        width = w
        height = h
        stride = Int(cairo_image_surface_get_stride(image.surface)) / 4
        if let raw = cairo_image_surface_get_data(image.surface) {
            let data = UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: stride * h)
            pixels = data
            ownsPixels = false
            Self.appendRuns(of: data, stride: stride, width: w, rows: 0..<h, to: &out, rowEnds: &starts)
        } else {
            // No pixels (a surface in error): every row has no runs, so `pixels` is never read.
            pixels = .allocate(capacity: 1)
            ownsPixels = true
            starts += Array(repeating: 0, count: h)
        }
        rowStart = .allocate(capacity: starts.count)
        rowStart.initialize(from: starts, count: starts.count)
        runs = .allocate(capacity: max(1, out.count))
        runs.initialize(from: out, count: out.count)
        count = out.count
    }

    deinit {
        rowStart.deallocate()
        runs.deallocate()
        if ownsPixels { pixels.deallocate() }
    }

    /// Appends the runs of rows `rows` of the pixels at `data` (premultiplied ARGB32, `stride`
    /// pixels a row, `width` wide) to `out`, and after each row where its runs end to `rowEnds`.
    static func appendRuns(of data: UnsafePointer<UInt32>, stride: Int, width w: Int, rows: Range<Int>,
                           to out: inout [Run], rowEnds: inout [Int32]) {
        var classes: [(kind: UInt8, x0: Int, x1: Int)] = []
        for y in rows {
            let row = data + y * stride
            // Maximal runs of one class: 0 transparent, 1 partial, 2 opaque.
            classes.removeAll(keepingCapacity: true)
            var x = 0
            while x < w {
                let p = row[x]
                var e = x + 1
                let kind: UInt8
                if p == 0 {
                    kind = 0
                    while e < w && row[e] == 0 { e += 1 }
                } else if p >> 24 == 255 {
                    kind = 2
                    while e < w && row[e] >> 24 == 255 { e += 1 }
                } else {
                    kind = 1
                    while e < w && row[e] != 0 && row[e] >> 24 != 255 { e += 1 }
                }
                classes.append((kind, x, e))
                x = e
            }
            appendRuns(classes, to: &out)
            rowEnds.append(Int32(out.count))
        }
    }

    /// The non-transparent runs of one row's classes, short ones folded into blended runs.
    private static func appendRuns(_ classes: [(kind: UInt8, x0: Int, x1: Int)], to out: inout [Run]) {
        let first = out.count
        for (n, c) in classes.enumerated() {
            var kind = c.kind
            let interior = n > 0 && n < classes.count - 1
            if (kind == 2 && c.x1 - c.x0 < shortestRun) || (kind == 0 && interior && c.x1 - c.x0 < shortestGap) { kind = 1 }
            if kind == 0 { continue }
            let opaque = kind == 2
            if out.count > first, opaque == out[out.count - 1].opaque, out[out.count - 1].x1 == Int32(c.x0) {
                out[out.count - 1].x1 = Int32(c.x1)
            } else {
                out.append(Run(x0: Int32(c.x0), x1: Int32(c.x1), opaque: opaque))
            }
        }
    }
}
