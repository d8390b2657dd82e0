import CCairo
import CTileRaster

/// Antialiased thin lines (up to a few device pixels wide) by direct coverage deposits, for the
/// base map's coastlines, borders, lake edges and rivers.
///
/// A segment is walked one pixel at a time along its major axis; at each step the line's
/// cross-section is shared among the pixels across it by how much of it each holds (an area
/// version of Xiaolin Wu's idea), and the pixels keep the sum, clamped to 1 when composited. The cost
/// is per pixel of line length, not per edge and row as in `CoverageRasterizer`, which matters for
/// a world of coastline at low zoom: tens of thousands of segments a pixel or two long. Segments
/// are half-open along their major axis, so a polyline's shared vertices are not counted twice.
final class HairlineRasterizer {
    let width: Int
    let height: Int
    private let cells: UnsafeMutablePointer<Float>
    /// Per row, a bit per 8-pixel block that holds coverage (in 64-bit words): compositing visits
    /// only those (a coastline crosses most rows, but touches few pixels of each; a tile's dash
    /// two or three of a row).
    private let touched: UnsafeMutablePointer<UInt64>
    private let wordsPerRow: Int
    /// The cells, bits and rows written as the C dash code (`dash.c`) sees them; its
    /// `dirty_top…dirty_bottom` are the rows to composite. (Its own allocation: a stored struct
    /// handed to C as `&state` paid an exclusivity check per call.)
    let state: UnsafeMutablePointer<ctr_hairline>

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        cells = .allocate(capacity: self.width * self.height)
        cells.initialize(repeating: 0, count: self.width * self.height)
        wordsPerRow = ((self.width + 7) / 8 + 63) / 64
        touched = .allocate(capacity: wordsPerRow * self.height)
        touched.initialize(repeating: 0, count: wordsPerRow * self.height)
        state = .allocate(capacity: 1)
        state.initialize(to: ctr_hairline(cells: cells, touched: touched, words_per_row: Int32(wordsPerRow), width: Int32(self.width),
                             height: Int32(self.height), dirty_top: Int32.max, dirty_bottom: -1))
    }

    deinit {
        cells.deallocate()
        touched.deallocate()
        state.deallocate()
    }

    /// Adds coverage at a pixel known to lie inside the raster.
    @inline(__always)
    private func deposit(_ x: Int, _ y: Int, _ c: Float) {
        cells[y &* width &+ x] += c
        touched[y &* wordsPerRow &+ (x >> 9)] |= 1 << UInt64((x >> 3) & 63)
    }

    /// The coverage deposited at a pixel (for tests that compare deposits with a reference).
    func coverage(_ x: Int, _ y: Int) -> Float { cells[y * width + x] }

    /// The rows written since the last composite (nil when none).
    var dirtyRows: ClosedRange<Int>? {
        state.pointee.dirty_bottom >= state.pointee.dirty_top ? Int(state.pointee.dirty_top)...Int(state.pointee.dirty_bottom) : nil
    }

    /// Widens the rows to composite to take in `rows`.
    private func markDirty(_ rows: ClosedRange<Int>) {
        state.pointee.dirty_top = min(state.pointee.dirty_top, Int32(rows.lowerBound))
        state.pointee.dirty_bottom = max(state.pointee.dirty_bottom, Int32(rows.upperBound))
    }

    /// How a straight piece is walked: along the major axis (`xMajor`, or y) from `a0` to `a1`
    /// (ascending), across it from `b0` by `slope` per pixel; `span` is the line's cross-section
    /// across (its width stretched by the slope); `limit` and `across` are the raster's size along
    /// and across. Nil for a piece without length or wholly outside (with the line's width to spare).
    private func walk(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lineWidth: Double)
        -> (xMajor: Bool, a0: Double, b0: Double, a1: Double, slope: Double, span: Double, limit: Int, across: Int)? {
        let dx = x1 - x0, dy = y1 - y0
        let adx = abs(dx), ady = abs(dy)
        guard adx > 0 || ady > 0 else { return nil }
        let pad = lineWidth + 2
        if max(x0, x1) < -pad || min(x0, x1) > Double(width) + pad || max(y0, y1) < -pad || min(y0, y1) > Double(height) + pad {
            return nil
        }
        let xMajor = adx >= ady
        let (a0, b0, a1) = xMajor ? (dx > 0 ? (x0, y0, x1) : (x1, y1, x0)) : (dy > 0 ? (y0, x0, y1) : (y1, x1, y0))
        let major = xMajor ? adx : ady, minor = xMajor ? ady : adx
        let slope = xMajor ? dy / dx : dx / dy
        let span = lineWidth * (major * major + minor * minor).squareRoot() / major
        return (xMajor, a0, b0, a1, slope, span, xMajor ? width : height, xMajor ? height : width)
    }

    /// Adds a segment of `lineWidth` device pixels (pixel `i` spans i…i+1).
    ///
    /// At each step along the major axis the line's cross-section there (its width stretched by
    /// the slope) is an interval across the minor axis; each pixel gets the part of the interval
    /// it holds — exact area for a straight line, whatever the width up to a few pixels.
    func addSegment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lineWidth: Double) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite,
              let (xMajor, a0, b0, a1, slope, span, limit, across) = walk(x0, y0, x1, y1, lineWidth: lineWidth) else { return }
        // Steps whose centre lies in [a0, a1): half-open, so joined segments meet once; only
        // steps inside the raster.
        let first = max(0, Int((a0 - 0.5).rounded(.up)))
        let last = min(limit - 1, Int((a1 - 0.5).rounded(.up)) - 1)
        guard first <= last else { return }
        // The minor-axis cells the steps can reach, to mark the dirty rows once per segment.
        let bStart = b0 + (Double(first) + 0.5 - a0) * slope, bEnd = b0 + (Double(last) + 0.5 - a0) * slope
        let reachLo = max(0, Int((min(bStart, bEnd) - span / 2).rounded(.down)))
        let reachHi = min(across - 1, Int((max(bStart, bEnd) + span / 2).rounded(.down)))
        guard reachLo <= reachHi else { return }
        markDirty(xMajor ? reachLo...reachHi : first...last)
        let half = span / 2
        var centre = bStart
        for a in first...last {
            let lo = centre - half, hi = centre + half
            centre += slope
            // Cells floor(lo)…floor(hi), clipped to the raster; `+ 4` keeps the truncation a floor
            // for the small negative values a clipped edge can hold.
            var cell = Int(lo + 4) - 4
            let lastCell = min(across - 1, Int(hi + 4) - 4)
            if cell < 0 { cell = 0 }
            while cell <= lastCell {
                let cover = Float(min(hi, Double(cell + 1)) - max(lo, Double(cell)))
                if cover > 0 {
                    if xMajor { deposit(a, cell, cover) } else { deposit(cell, a, cover) }
                }
                cell += 1
            }
        }
    }

    /// Adds a short straight piece of `lineWidth` device pixels whose ends are cut where they lie:
    /// the step at each end gets the part of its pixel the piece covers along the major axis (and
    /// the cross-section at the middle of that part), where `addSegment` gives whole steps by their
    /// centres. For dashes: a dash 2.4 px long keeps that length and its soft ends, and a dash
    /// split at a vertex into two pieces covers the pixel they share once.
    ///
    /// Why: a dense street tile's footpaths are thousands of such dashes, and a dash as a
    /// quadrilateral in `CoverageRasterizer` is four edges (set up, filed by band, accumulated row by
    /// row); here it is a few pixels' deposits. In C (`dash.c`): the Swift code spent most of
    /// its time converting doubles to cell indices with overflow checks.
    func addDash(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lineWidth: Double) {
        ctr_hairline_dash(state, x0, y0, x1, y1, lineWidth)
    }

    /// The "on" stretches of a dashed polyline (`count` points; `dashes`: at least two positive
    /// lengths, on and off in turn, the pattern running on across vertices) as `addDash` pieces.
    func addDashedLine(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, count: Int, dashes: [Double],
                       lineWidth: Double) {
        dashes.withUnsafeBufferPointer { d in
            ctr_hairline_dashed_line(state, xs, ys, Int32(count), d.baseAddress!, Int32(d.count), lineWidth)
        }
    }

    /// Blends the coverage in a colour over an ARGB32/RGB24 image surface, this rasteriser's
    /// (0, 0) at device pixel (`originX`, `originY`), and clears it for the next line.
    func composite(into surface: OpaquePointer, originX: Int, originY: Int, color: MapColor) {
        guard state.pointee.dirty_bottom >= state.pointee.dirty_top else { return }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let sw = Int(cairo_image_surface_get_width(surface)), sh = Int(cairo_image_surface_get_height(surface))
        let pixels = UnsafeMutableRawPointer(data).bindMemory(to: UInt32.self, capacity: stride * sh)
        let (srcRB, srcAG, ca) = Self.source(color)
        // In C (`CTileRaster`, AVX2 where the processor has it): a clamp and a blend per pixel of
        // every block written, eight at a time.
        ctr_hairline_composite(cells, touched, Int32(wordsPerRow), Int32(width), state.pointee.dirty_top, state.pointee.dirty_bottom, pixels,
                               stride, Int32(sw), Int32(sh), Int32(originX), Int32(originY), srcRB, srcAG, ca)
        state.pointee.dirty_top = Int32.max
        state.pointee.dirty_bottom = -1
        cairo_surface_mark_dirty(surface)
    }

    /// A colour premultiplied as the C compositing passes take it: red/blue and alpha/green
    /// channel pairs, and the alpha.
    static func source(_ color: MapColor) -> (rb: UInt32, ag: UInt32, alpha: Float) {
        let ca = Float(min(1, max(0, color.alpha)))
        let sr = Float(color.red) * 255 * ca, sg = Float(color.green) * 255 * ca, sb = Float(color.blue) * 255 * ca
        return (UInt32(min(255, sr + 0.5)) << 16 | UInt32(min(255, sb + 0.5)), UInt32(min(255, 255 * ca + 0.5)) << 16 | UInt32(min(255, sg + 0.5)), ca)
    }
}
