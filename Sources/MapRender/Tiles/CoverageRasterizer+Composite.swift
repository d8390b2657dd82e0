import CCairo
import CTileRaster

extension CoverageRasterizer {
    /// The source colour of one composite, premultiplied, in the forms the pixel loop wants.
    struct Source {
        var alpha: Float
        var opaque: Bool
        /// Red/blue and alpha/green pairs, for two channels per multiply.
        var rb: UInt32
        var ag: UInt32
        /// The pixel of full coverage when opaque.
        var solid: UInt32

        init(red: Double, green: Double, blue: Double, alpha: Double) {
            let ca = Float(min(1, max(0, alpha)))
            let sr = Float(red) * 255 * ca, sg = Float(green) * 255 * ca, sb = Float(blue) * 255 * ca, sa = 255 * ca
            self.alpha = ca
            opaque = ca >= 1
            rb = UInt32(min(255, sr + 0.5)) << 16 | UInt32(min(255, sb + 0.5))
            ag = UInt32(min(255, sa + 0.5)) << 16 | UInt32(min(255, sg + 0.5))
            solid = UInt32(255) << 24 | UInt32(min(255, sr + 0.5)) << 16 | UInt32(min(255, sg + 0.5)) << 8
                | UInt32(min(255, sb + 0.5))
        }
    }

    /// Blends the collected shapes' coverage in an sRGB colour over an ARGB32/RGB24 cairo image
    /// surface, the rasteriser's (0, 0) at device pixel (`originX`, `originY`), then clears the
    /// edges for the next shape. Pixels outside the surface are skipped.
    func compositeOffset(into surface: OpaquePointer, originX: Int, originY: Int,
                         red: Double, green: Double, blue: Double, alpha: Double) {
        defer { discard() }
        guard edgeCount > 0 else { return }
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface)) / 4
        let sw = Int(cairo_image_surface_get_width(surface))
        let sh = Int(cairo_image_surface_get_height(surface))
        let pixels = UnsafeMutableRawPointer(data).bindMemory(to: UInt32.self, capacity: stride * sh)
        let source = Source(red: red, green: green, blue: blue, alpha: alpha)
        // Edges from the bands above still reaching into the band being drawn, first (in the
        // order added), then the band's own: compacted after each band.
        var carriedCount = 0
        let bandRows = Self.bandRows
        for band in 0..<bandCount {
            let own = bandEdges[band], ownCount = bandFill[band]
            guard carriedCount > 0 || ownCount > 0 else { continue }
            reserveCarried(carriedCount + ownCount, keeping: carriedCount)
            let carried = self.carried
            let bandTop = band * bandRows, bandLast = min(height, bandTop + bandRows) - 1
            // Accumulated in C (`accumulate.c`): the same arithmetic, in fewer instructions.
            let kept = Int(ctr_accumulate_band(carried, Int32(carriedCount), own, Int32(ownCount), Int32(bandTop), Int32(bandLast),
                                               cells, touched, Int32(wordsPerRow), Int32(width)))
            carriedCount = kept
            compositeBand(top: bandTop, last: bandLast, into: pixels, stride: stride, surfaceWidth: sw, surfaceHeight: sh,
                          originX: originX, originY: originY, source: source)
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Blends the accumulated rows of one band and clears them (in C, `CTileRaster`: with AVX2 where
    /// the processor has it, the same pixels either way).
    private func compositeBand(top: Int, last: Int, into pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                               surfaceWidth sw: Int, surfaceHeight sh: Int, originX: Int, originY: Int, source: Source) {
        var c = ctr_source(alpha: source.alpha, opaque: source.opaque ? 1 : 0, rb: source.rb, ag: source.ag, solid: source.solid)
        ctr_composite_band(cells, touched, Int32(wordsPerRow), Int32(width), Int32(top), Int32(last), pixels, stride,
                           Int32(sw), Int32(sh), Int32(originX), Int32(originY), &c)
    }
}
