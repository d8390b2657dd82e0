import CCairo
import CTileRaster

/// The dashes of one thin dashed rule (a tile's footpaths), collected and then deposited into a
/// `HairlineRasterizer` and composited a band of rows at a time (`ctr_hairline_composite_dashes`).
///
/// Why: a dense street tile has a thousand footpaths and ten thousand dashes. Deposited as they
/// come, they jump about the rasteriser's megabyte of cells, and most deposits waited for the
/// memory (a quarter of Florence's densest tile's paint went to its footpaths). Filed by band, a
/// band's pieces write a few dozen kilobytes of cells, which stay in the cache, and its rows are
/// composited while they are still there. The pieces are those of `HairlineRasterizer.addDashedLine`
/// (the same walk in `dash.c`). Not thread-safe: one per thread (`TilePaintScratch`).
final class TileDashes {
    private let list: UnsafeMutablePointer<ctr_dash_list>

    init() {
        list = .allocate(capacity: 1)
        list.initialize(to: ctr_dash_list())
    }

    deinit {
        ctr_dash_list_free(list)
        list.deallocate()
    }

    /// Pieces waiting.
    var count: Int { Int(list.pointee.count) }

    /// Adds the "on" stretches of a dashed polyline (`count` points; `dashes`: at least two positive
    /// lengths, on and off in turn, the pattern running on across vertices).
    func addDashedLine(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, count: Int, dashes: [Double]) {
        dashes.withUnsafeBufferPointer { d in
            ctr_dash_list_add_dashed_line(list, xs, ys, Int32(count), d.baseAddress!, Int32(d.count))
        }
    }

    /// Deposits the pieces, `lineWidth` device pixels wide, into `hairline` (cleared, as it is between
    /// composites) and blends them in `color` over an ARGB32/RGB24 image surface, the rasteriser's
    /// (0, 0) at device pixel (`originX`, `originY`); the pieces are then dropped.
    func composite(with hairline: HairlineRasterizer, lineWidth: Double, into surface: OpaquePointer, originX: Int, originY: Int,
                   color: MapColor) {
        guard list.pointee.count > 0 else { return }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            list.pointee.count = 0
            return
        }
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let sw = Int(cairo_image_surface_get_width(surface)), sh = Int(cairo_image_surface_get_height(surface))
        let pixels = UnsafeMutableRawPointer(data).bindMemory(to: UInt32.self, capacity: stride * sh)
        let (rb, ag, alpha) = HairlineRasterizer.source(color)
        ctr_hairline_composite_dashes(hairline.state, list, lineWidth, pixels, stride, Int32(sw), Int32(sh), Int32(originX),
                                      Int32(originY), rb, ag, alpha)
        cairo_surface_mark_dirty(surface)
    }
}
