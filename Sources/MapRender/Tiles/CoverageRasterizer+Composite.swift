import CCairo

extension CoverageRasterizer {
    /// `source over destination` for premultiplied pixels with coverage 0…1, in integers, two
    /// channels per multiply (the `x·k/256` pairs trick).
    @inline(__always)
    static func blend(_ p: UInt32, coverage c: Float, srcRB: UInt32, srcAG: UInt32, alpha: Float) -> UInt32 {
        let k = UInt32(c * 256)                      // source weight 0…256
        let inv = 256 - UInt32(c * alpha * 256)      // destination weight
        let rb = ((p & 0x00FF_00FF) &* inv &+ srcRB &* k) >> 8
        let ag = (((p >> 8) & 0x00FF_00FF) &* inv &+ srcAG &* k) >> 8
        return (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
    }

    /// `blend` for an opaque source, the coverage given as a weight 0…256.
    @inline(__always)
    static func blendOpaque(_ p: UInt32, weight k: UInt32, srcRB: UInt32, srcAG: UInt32) -> UInt32 {
        let inv = 256 - k
        let rb = ((p & 0x00FF_00FF) &* inv &+ srcRB &* k) >> 8
        let ag = (((p >> 8) & 0x00FF_00FF) &* inv &+ srcAG &* k) >> 8
        return (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
    }

    /// Blends one block of 8 cells (`blockShift` = 3) of an opaque colour over 8 pixels, eight
    /// lanes at once, and clears the cells; `acc` carries the row's running coverage in and out.
    ///
    /// Gives the pixels of `blendOpaque` over each cell in turn (the same weights, truncated the
    /// same way, up to the last bit of a float sum taken in another order): the prefix sum is
    /// three shifted adds, |coverage| and the clamp are bit and lane operations, and the
    /// float → integer weight is exact without a trapping conversion (round via 2²³, then
    /// step down where that rounded up).
    @inline(__always)
    static func blendOpaqueBlock(_ cells: UnsafeMutablePointer<Float>, _ pixels: UnsafeMutablePointer<UInt32>,
                                 acc: inout Float, srcRB: UInt32, srcAG: UInt32) {
        let raw = UnsafeMutableRawPointer(cells)
        var v = raw.loadUnaligned(as: SIMD8<Float>.self)
        raw.storeBytes(of: SIMD8<Float>(repeating: 0), as: SIMD8<Float>.self)
        v += SIMD8(0, v[0], v[1], v[2], v[3], v[4], v[5], v[6])
        v += SIMD8(0, 0, v[0], v[1], v[2], v[3], v[4], v[5])
        v += SIMD8(0, 0, 0, 0, v[0], v[1], v[2], v[3])
        v += acc
        acc = v[7]
        let magnitude = unsafeBitCast(unsafeBitCast(v, to: SIMD8<UInt32>.self) & 0x7FFF_FFFF, to: SIMD8<Float>.self)
        var c = magnitude * 256
        c.replace(with: 256, where: c .> 256)
        var k = unsafeBitCast(c + 8_388_608, to: SIMD8<UInt32>.self) & 0x1FF
        let back = unsafeBitCast(k | 0x4B00_0000, to: SIMD8<Float>.self) - 8_388_608
        k &-= unsafeBitCast(SIMD8<Int32>(repeating: 0).replacing(with: 1, where: back .> c), to: SIMD8<UInt32>.self)
        let inv = 256 &- k
        // The channel pairs as 16-bit lanes: a channel times a weight (≤ 255 · 256, and the two
        // products of one channel add up to at most that) fits in 16 bits, so one 16-bit multiply
        // per lane (SSE2 has it) replaces the 32-bit lane multiply it would have to emulate.
        let k16 = unsafeBitCast(k | k &<< 16, to: SIMD16<UInt16>.self)
        let inv16 = unsafeBitCast(inv | inv &<< 16, to: SIMD16<UInt16>.self)
        let out = UnsafeMutableRawPointer(pixels)
        let p = out.loadUnaligned(as: SIMD8<UInt32>.self)
        let pRB = unsafeBitCast(p & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        let pAG = unsafeBitCast((p &>> 8) & 0x00FF_00FF, to: SIMD16<UInt16>.self)
        let sRB = unsafeBitCast(SIMD8<UInt32>(repeating: srcRB), to: SIMD16<UInt16>.self)
        let sAG = unsafeBitCast(SIMD8<UInt32>(repeating: srcAG), to: SIMD16<UInt16>.self)
        let rb = unsafeBitCast((pRB &* inv16 &+ sRB &* k16) &>> 8, to: SIMD8<UInt32>.self)
        let ag = unsafeBitCast((pAG &* inv16 &+ sAG &* k16) &>> 8, to: SIMD8<UInt32>.self)
        out.storeBytes(of: rb | ag &<< 8, as: SIMD8<UInt32>.self)
    }

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
            var kept = 0
            for k in 0..<carriedCount {
                let e = carried[k]
                let lastRow = Int(e.lastRow)
                accumulate(e, firstRow: bandTop, lastRow: min(lastRow, bandLast), bandTop: bandTop)
                if lastRow > bandLast {
                    carried[kept] = e
                    kept += 1
                }
            }
            for k in 0..<ownCount {
                let e = own[k]
                let lastRow = Int(e.lastRow)
                accumulate(e, firstRow: Int(e.firstRow), lastRow: min(lastRow, bandLast), bandTop: bandTop)
                if lastRow > bandLast {
                    carried[kept] = e
                    kept += 1
                }
            }
            carriedCount = kept
            compositeBand(top: bandTop, last: bandLast, into: pixels, stride: stride, surfaceWidth: sw, surfaceHeight: sh,
                          originX: originX, originY: originY, source: source)
        }
        cairo_surface_mark_dirty(surface)
    }

    /// Blends the accumulated rows of one band and clears them.
    private func compositeBand(top: Int, last: Int, into pixels: UnsafeMutablePointer<UInt32>, stride: Int,
                               surfaceWidth sw: Int, surfaceHeight sh: Int, originX: Int, originY: Int, source: Source) {
        let a = cells, width = width
        let ca = source.alpha, opaque = source.opaque, solid = source.solid, srcRB = source.rb, srcAG = source.ag
        let visibleFrom = max(0, -originX), visibleTo = min(width - 1, sw - 1 - originX)
        for row in top...last {
            let r = row - top
            let words = touched + r * wordsPerRow
            let base = r * (width + 2)
            var acc: Float = 0
            let sy = row + originY
            let visibleRow = sy >= 0 && sy < sh
            let line = pixels + (visibleRow ? sy : 0) * stride
            // The first cell not yet composited.
            var x = 0
            /// Cells `from…to` (no edge there) at the running coverage.
            func fillRun(from: Int, to: Int) {
                let level = min(1, abs(acc))
                if level < 1.0 / 512 {
                    acc = 0
                } else if visibleRow {
                    let from = max(from, visibleFrom), to = min(to, visibleTo)
                    if from <= to {
                        if level > 1 - 1.0 / 512 && opaque {
                            (line + from + originX).update(repeating: solid, count: to - from + 1)
                        } else {
                            for i in from...to {
                                line[i + originX] = Self.blend(line[i + originX], coverage: level, srcRB: srcRB,
                                                               srcAG: srcAG, alpha: ca)
                            }
                        }
                    }
                }
            }
            for w in 0..<wordsPerRow where words[w] != 0 {
                var bits = words[w]
                words[w] = 0
                while bits != 0 {
                    let start = (w << 6 + bits.trailingZeroBitCount) << Self.blockShift
                    bits &= bits - 1
                    if start > x {
                        // No edge since the last block: the coverage there is constant.
                        fillRun(from: x, to: start - 1)
                    }
                    x = start
                    let end = min(width + 1, start + (1 << Self.blockShift) - 1)
                    if visibleRow && x >= visibleFrom && end <= visibleTo {
                        // The common case (the whole block on the surface): no bounds tests per pixel.
                        // Every pixel blended, without branches: full coverage of an opaque colour
                        // gives the colour exactly, and coverage under 1/256 leaves the pixel as it
                        // was (a weight of 0), so tests per pixel would only cost mispredictions.
                        let px = line + originX
                        if opaque && end - x == 7 {
                            Self.blendOpaqueBlock(a + base + x, px + x, acc: &acc, srcRB: srcRB, srcAG: srcAG)
                            x = end + 1
                        } else if opaque {
                            while x <= end {
                                acc += a[base + x]
                                a[base + x] = 0
                                px[x] = Self.blendOpaque(px[x], weight: UInt32(min(1, abs(acc)) * 256), srcRB: srcRB, srcAG: srcAG)
                                x += 1
                            }
                        } else {
                            while x <= end {
                                acc += a[base + x]
                                a[base + x] = 0
                                px[x] = Self.blend(px[x], coverage: min(1, abs(acc)), srcRB: srcRB, srcAG: srcAG, alpha: ca)
                                x += 1
                            }
                        }
                        continue
                    }
                    while x <= end {
                        acc += a[base + x]
                        a[base + x] = 0
                        let c = min(1, abs(acc))
                        let sx = x + originX
                        x += 1
                        if c < 1.0 / 512 { continue }
                        guard visibleRow, sx - originX < width, sx >= 0, sx < sw else { continue }
                        line[sx] = c >= 1 && opaque ? solid : Self.blend(line[sx], coverage: c, srcRB: srcRB, srcAG: srcAG, alpha: ca)
                    }
                }
            }
            // Shapes running on past the right border: their edges there are not added (`addEdge`),
            // so the run from the last block to the border is filled here.
            if x < width { fillRun(from: x, to: width - 1) }
        }
    }
}
