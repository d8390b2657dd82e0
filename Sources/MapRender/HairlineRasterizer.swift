import CCairo

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
    private let rowMin: UnsafeMutablePointer<Int32>
    private let rowMax: UnsafeMutablePointer<Int32>
    /// Per row, a flag per 32-pixel block that holds coverage: compositing visits only those (a
    /// coastline crosses most rows, but touches few pixels of each).
    private let touched: UnsafeMutablePointer<Bool>
    private let blocksPerRow: Int
    private var dirtyTop = Int.max
    private var dirtyBottom = -1

    init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
        cells = .allocate(capacity: self.width * self.height)
        cells.initialize(repeating: 0, count: self.width * self.height)
        rowMin = .allocate(capacity: self.height)
        rowMin.initialize(repeating: Int32.max, count: self.height)
        rowMax = .allocate(capacity: self.height)
        rowMax.initialize(repeating: -1, count: self.height)
        blocksPerRow = (self.width >> 5) + 1
        touched = .allocate(capacity: blocksPerRow * self.height)
        touched.initialize(repeating: false, count: blocksPerRow * self.height)
    }

    deinit {
        cells.deallocate()
        rowMin.deallocate()
        rowMax.deallocate()
        touched.deallocate()
    }

    @inline(__always)
    private func deposit(_ x: Int, _ y: Int, _ c: Float) {
        guard x >= 0, y >= 0, x < width, y < height, c > 0 else { return }
        cells[y * width + x] += c
        touched[y * blocksPerRow + (x >> 5)] = true
        if Int32(x) < rowMin[y] { rowMin[y] = Int32(x) }
        if Int32(x) > rowMax[y] { rowMax[y] = Int32(x) }
        if y < dirtyTop { dirtyTop = y }
        if y > dirtyBottom { dirtyBottom = y }
    }

    /// Adds a segment of `lineWidth` device pixels (pixel `i` spans i…i+1).
    ///
    /// At each step along the major axis the line's cross-section there (its width stretched by
    /// the slope) is an interval across the minor axis; each pixel gets the part of the interval
    /// it holds — exact area for a straight line, whatever the width up to a few pixels.
    func addSegment(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double, lineWidth: Double) {
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return }
        let dx = x1 - x0, dy = y1 - y0
        let length = (dx * dx + dy * dy).squareRoot()
        guard length > 0 else { return }
        // Skip what lies wholly outside (with the line's width to spare).
        let pad = lineWidth + 2
        if max(x0, x1) < -pad || min(x0, x1) > Double(width) + pad || max(y0, y1) < -pad || min(y0, y1) > Double(height) + pad { return }
        let xMajor = abs(dx) >= abs(dy)
        let (a0, b0, a1) = xMajor ? (dx > 0 ? (x0, y0, x1) : (x1, y1, x0)) : (dy > 0 ? (y0, x0, y1) : (y1, x1, y0))
        let slope = xMajor ? dy / dx : dx / dy
        let span = lineWidth * length / (xMajor ? abs(dx) : abs(dy))
        let limit = xMajor ? width : height
        // Steps whose centre lies in [a0, a1): half-open, so joined segments meet once.
        let first = max(-1, Int((a0 - 0.5).rounded(.up)))
        let last = min(limit, Int((a1 - 0.5).rounded(.up)) - 1)
        guard first <= last else { return }
        for a in first...last {
            let centre = b0 + (Double(a) + 0.5 - a0) * slope
            let lo = centre - span / 2, hi = centre + span / 2
            var cell = Int(lo.rounded(.down))
            let lastCell = Int(hi.rounded(.down))
            while cell <= lastCell {
                let cover = Float(min(hi, Double(cell + 1)) - max(lo, Double(cell)))
                if xMajor { deposit(a, cell, cover) } else { deposit(cell, a, cover) }
                cell += 1
            }
        }
    }

    /// Blends the coverage in a colour over an ARGB32/RGB24 image surface, this rasteriser's
    /// (0, 0) at device pixel (`originX`, `originY`), and clears it for the next line.
    func composite(into surface: OpaquePointer, originX: Int, originY: Int, color: MapColor) {
        guard dirtyBottom >= dirtyTop else { return }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let sw = Int(cairo_image_surface_get_width(surface)), sh = Int(cairo_image_surface_get_height(surface))
        let pixels = UnsafeMutableRawPointer(data).bindMemory(to: UInt32.self, capacity: stride * sh)
        let ca = Float(min(1, max(0, color.alpha)))
        let sr = Float(color.red) * 255 * ca, sg = Float(color.green) * 255 * ca, sb = Float(color.blue) * 255 * ca
        let srcRB = UInt32(min(255, sr + 0.5)) << 16 | UInt32(min(255, sb + 0.5))
        let srcAG = UInt32(min(255, 255 * ca + 0.5)) << 16 | UInt32(min(255, sg + 0.5))
        for row in dirtyTop...dirtyBottom {
            let lo = Int(rowMin[row]), hi = Int(rowMax[row])
            guard lo <= hi else { continue }
            let sy = row + originY
            let line = cells + row * width
            let visible = sy >= 0 && sy < sh
            let px = pixels + (visible ? sy : 0) * stride
            let blocks = touched + row * blocksPerRow
            for b in (lo >> 5)...(hi >> 5) where blocks[b] {
                blocks[b] = false
                for x in max(lo, b << 5)...min(hi, (b << 5) + 31) {
                    let c = min(1, line[x])
                    line[x] = 0
                    let sx = x + originX
                    guard visible, c >= 1.0 / 512, sx >= 0, sx < sw else { continue }
                    px[sx] = CoverageRasterizer.blend(px[sx], coverage: c, srcRB: srcRB, srcAG: srcAG, alpha: ca)
                }
            }
            rowMin[row] = Int32.max
            rowMax[row] = -1
        }
        dirtyTop = Int.max
        dirtyBottom = -1
        cairo_surface_mark_dirty(surface)
    }
}
