import CSpriteBlend
@testable import MapRender

/// The sprite compositing of sessions 6–8 in Swift (SIMD8 in SSE2), kept as it was as an oracle for
/// the C kernels (`CSpriteBlend`): it was checked against cairo's paints at tolerance 0, and every
/// C kernel must give its bytes exactly.
enum SwiftSpriteCompositor {
    /// Composites `items` in order into the target rows `rows` (within its clip), as
    /// `SpriteBatch.composite` did, one band.
    static func compositeBand(_ items: [csb_item], into t: csb_target, rows: Range<Int>) {
        items.withUnsafeBufferPointer { list in
            for i in list.indices {
                let top = list[i].y &+ t.origin_y, sh = list[i].height
                guard top < rows.upperBound, top &+ sh > rows.lowerBound else { continue }
                let left = list[i].x &+ t.origin_x, sw = list[i].width
                let x0 = max(left, t.clip_x0), x1 = min(left &+ sw, t.clip_x1)
                guard x0 < x1 else { continue }
                let y0 = max(top, rows.lowerBound), y1 = min(top &+ sh, rows.upperBound)
                let sstride = list[i].stride
                let src = UnsafeMutablePointer(mutating: list[i].pixels!) + (y0 &- top) &* sstride
                let dst = t.data! + (y0 &* t.stride &+ left)
                let rowStart = UnsafeMutablePointer(mutating: list[i].row_start!) + (y0 &- top), runs = UnsafeMutablePointer(mutating: list[i].runs!)
                let a = list[i].alpha
                if a == 255 && x0 == left && x1 == left &+ sw {
                    // Most sprites: wholly inside the clip's columns and fully opaque paints.
                    paintRows(y1 &- y0, src: src, sstride: sstride, dst: dst, dstride: t.stride,
                              rowStart: rowStart, runs: runs)
                } else {
                    paintClippedRows(y1 &- y0, src: src, sstride: sstride, dst: dst, dstride: t.stride,
                                     rowStart: rowStart, runs: runs, columns: (x0 &- left)..<(x1 &- left), alpha: a)
                }
            }
        }
    }

    /// `count` rows of a sprite's runs, unclipped and at full opacity: opaque runs copied, the rest
    /// blended. An opaque run is at least `SpriteRuns.shortestRun` (16) pixels here, so its copy
    /// is whole 8-pixel windows, the last one overlapping (a copy may store a pixel twice).
    @inline(__always)
    private static func paintRows(_ count: Int, src: UnsafeMutablePointer<UInt32>, sstride: Int,
                                  dst: UnsafeMutablePointer<UInt32>, dstride: Int,
                                  rowStart: UnsafeMutablePointer<Int32>, runs: UnsafeMutablePointer<csb_run>) {
        var srow = src, drow = dst
        var r = Int(rowStart[0])
        for k in 1...count {
            let end = Int(rowStart[k])
            while r < end {
                let run = runs[r]
                r &+= 1
                let x = Int(run.x0), n = Int(run.x1) &- x
                if run.opaque {
                    copy(srow + x, drow + x, n)
                } else {
                    blend(srow + x, drow + x, n)
                }
            }
            srow += sstride
            drow += dstride
        }
    }

    /// As `paintRows`, for sprites cut by the clip (source `columns` only) or faded (`alpha` < 255).
    private static func paintClippedRows(_ count: Int, src: UnsafeMutablePointer<UInt32>, sstride: Int,
                                         dst: UnsafeMutablePointer<UInt32>, dstride: Int,
                                         rowStart: UnsafeMutablePointer<Int32>, runs: UnsafeMutablePointer<csb_run>,
                                         columns: Range<Int>, alpha a: UInt32) {
        var srow = src, drow = dst
        for k in 0..<count {
            var r = Int(rowStart[k])
            let end = Int(rowStart[k &+ 1])
            while r < end {
                let run = runs[r]
                r &+= 1
                let r0 = max(Int(run.x0), columns.lowerBound), r1 = min(Int(run.x1), columns.upperBound)
                guard r0 < r1 else { continue }
                let s = srow + r0, d = drow + r0, n = r1 &- r0
                if a != 255 {
                    blend(s, d, n, alpha: a)
                } else if run.opaque {
                    d.update(from: s, count: n)
                } else {
                    blend(s, d, n)
                }
            }
            srow += sstride
            drow += dstride
        }
    }

    /// Copies `n` ≥ 8 pixels from `s` to `d` (different images) eight at a time, the last eight
    /// at once even where they overlap pixels already copied.
    @inline(__always)
    static func copy(_ s: UnsafeMutablePointer<UInt32>, _ d: UnsafeMutablePointer<UInt32>, _ n: Int) {
        assert(n >= 8)
        let sr = UnsafeRawPointer(s), dr = UnsafeMutableRawPointer(d)
        var k = 0
        while k &+ 8 < n {
            dr.storeBytes(of: sr.loadUnaligned(fromByteOffset: 4 &* k, as: SIMD8<UInt32>.self), toByteOffset: 4 &* k,
                          as: SIMD8<UInt32>.self)
            k &+= 8
        }
        let e = 4 &* (n &- 8)
        dr.storeBytes(of: sr.loadUnaligned(fromByteOffset: e, as: SIMD8<UInt32>.self), toByteOffset: e, as: SIMD8<UInt32>.self)
    }

    /// `n` pixels of `s` OVER `d`, each scaled by `alpha` first unless 255: eight at a time,
    /// and the last eight (or four) at once even where they overlap pixels already done. Each
    /// result depends only on the pixel's own source and original target, so that window is
    /// computed first, from the originals, and stored last: overlapped pixels get the same
    /// values twice, and no run ends in a slow pixel-by-pixel tail.
    @inline(__always)
    static func blend(_ s: UnsafeMutablePointer<UInt32>, _ d: UnsafeMutablePointer<UInt32>, _ n: Int,
                      alpha: UInt32 = 255) {
        let sr = UnsafeRawPointer(s), dr = UnsafeMutableRawPointer(d)
        if n >= 8 {
            let e = 4 &* (n &- 8)
            var p = sr.loadUnaligned(fromByteOffset: e, as: SIMD8<UInt32>.self)
            if alpha != 255 { p = multiply(p, alpha) }
            let last = over(p, dr.loadUnaligned(fromByteOffset: e, as: SIMD8<UInt32>.self))
            var k = 0
            while k &+ 8 <= n {
                var p = sr.loadUnaligned(fromByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                if alpha != 255 { p = multiply(p, alpha) }
                let q = dr.loadUnaligned(fromByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                dr.storeBytes(of: over(p, q), toByteOffset: 4 &* k, as: SIMD8<UInt32>.self)
                k &+= 8
            }
            dr.storeBytes(of: last, toByteOffset: e, as: SIMD8<UInt32>.self)
        } else if n >= 4 {
            let e = 4 &* (n &- 4)
            var p = sr.loadUnaligned(fromByteOffset: e, as: SIMD4<UInt32>.self)
            if alpha != 255 { p = multiply(p, alpha) }
            let last = over(p, dr.loadUnaligned(fromByteOffset: e, as: SIMD4<UInt32>.self))
            var q = sr.loadUnaligned(as: SIMD4<UInt32>.self)
            if alpha != 255 { q = multiply(q, alpha) }
            dr.storeBytes(of: over(q, dr.loadUnaligned(as: SIMD4<UInt32>.self)), as: SIMD4<UInt32>.self)
            dr.storeBytes(of: last, toByteOffset: e, as: SIMD4<UInt32>.self)
        } else {
            for k in 0..<n {
                let p = alpha == 255 ? s[k] : multiply(s[k], alpha)
                d[k] = over(p, d[k])
            }
        }
    }

    /// `multiply` on several pixels (each channel in its own 16-bit lane).
    @inline(__always)
    static func multiply(_ x: SIMD8<UInt32>, _ a: UInt32) -> SIMD8<UInt32> {
        scaled(x, by: SIMD16<UInt16>(repeating: UInt16(truncatingIfNeeded: a)))
    }

    @inline(__always)
    static func multiply(_ x: SIMD4<UInt32>, _ a: UInt32) -> SIMD4<UInt32> {
        scaled(x, by: SIMD8<UInt16>(repeating: UInt16(truncatingIfNeeded: a)))
    }

    /// `over` on several pixels, branch-free: with αs = 0 the product is d itself and with
    /// αs = 255 it is 0, so the results equal `over`'s. No saturation: a sprite's pixels are
    /// valid premultiplied colours (cairo made them; `multiply` keeps them so), each channel at
    /// most αs, and d × (255 − αs) / 255 rounds to at most 255 − αs, so no sum passes 255.
    @inline(__always)
    static func over(_ s: SIMD8<UInt32>, _ d: SIMD8<UInt32>) -> SIMD8<UInt32> {
        let ia = 255 &- (s &>> 24)
        return scaled(d, by: unsafeBitCast(ia | (ia &<< 16), to: SIMD16<UInt16>.self)) &+ s
    }

    @inline(__always)
    static func over(_ s: SIMD4<UInt32>, _ d: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let ia = 255 &- (s &>> 24)
        return scaled(d, by: unsafeBitCast(ia | (ia &<< 16), to: SIMD8<UInt16>.self)) &+ s
    }

    /// Each channel of the pixels `x` times its lane of `a` / 255, rounded as `multiply` (red and
    /// blue, then alpha and green, in 16-bit lanes: 255 × 255 + 128 + 254 < 65536).
    @inline(__always)
    static func scaled(_ x: SIMD8<UInt32>, by a: SIMD16<UInt16>) -> SIMD8<UInt32> {
        var t = unsafeBitCast(x & 0x00FF_00FF, to: SIMD16<UInt16>.self) &* a &+ 0x80
        t = (t &+ (t &>> 8)) &>> 8
        var u = unsafeBitCast((x &>> 8) & 0x00FF_00FF, to: SIMD16<UInt16>.self) &* a &+ 0x80
        u = (u &+ (u &>> 8)) &>> 8
        return unsafeBitCast(t, to: SIMD8<UInt32>.self) | (unsafeBitCast(u, to: SIMD8<UInt32>.self) &<< 8)
    }

    @inline(__always)
    static func scaled(_ x: SIMD4<UInt32>, by a: SIMD8<UInt16>) -> SIMD4<UInt32> {
        var t = unsafeBitCast(x & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* a &+ 0x80
        t = (t &+ (t &>> 8)) &>> 8
        var u = unsafeBitCast((x &>> 8) & 0x00FF_00FF, to: SIMD8<UInt16>.self) &* a &+ 0x80
        u = (u &+ (u &>> 8)) &>> 8
        return unsafeBitCast(t, to: SIMD4<UInt32>.self) | (unsafeBitCast(u, to: SIMD4<UInt32>.self) &<< 8)
    }

    /// Each 8-bit channel of `x` times `a` / 255, rounded as pixman does.
    @inline(__always)
    static func multiply(_ x: UInt32, _ a: UInt32) -> UInt32 {
        var t = (x & 0x00FF_00FF) &* a &+ 0x0080_0080
        t = ((t &+ ((t >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var u = ((x >> 8) & 0x00FF_00FF) &* a &+ 0x0080_0080
        u = (u &+ ((u >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return t | u
    }

    /// Premultiplied `s` OVER `d` (pixman's arithmetic: d × (255 − αs) / 255 rounded, plus s,
    /// saturating per channel).
    @inline(__always)
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = s >> 24
        if sa == 255 { return s }
        if s == 0 { return d }
        let m = multiply(d, 255 - sa)
        var rb = (m & 0x00FF_00FF) &+ (s & 0x00FF_00FF)
        rb |= 0x0100_0100 &- ((rb >> 8) & 0x00FF_00FF)
        var ag = ((m >> 8) & 0x00FF_00FF) &+ ((s >> 8) & 0x00FF_00FF)
        ag |= 0x0100_0100 &- ((ag >> 8) & 0x00FF_00FF)
        return (rb & 0x00FF_00FF) | ((ag & 0x00FF_00FF) << 8)
    }
}
