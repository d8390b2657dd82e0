import CCairo

/// Soft drop shadows for pre-rendered marks: the shape's coverage, box-blurred three times
/// (≈ a Gaussian). Only used while making sprites, never per frame.
enum SoftShadow {
    /// Paints a blurred shadow of the path appended by `shape` into `cr` (whose target is an image
    /// surface of `width × height` logical pixels at `scale`), offset by `dy`, with `opacity`.
    static func paint(in cr: OpaquePointer, width: Double, height: Double, scale: Double,
                      blur: Double, dy: Double, opacity: Double, shape: (OpaquePointer) -> Void) {
        let mask = ImageSurface(width: Int(width.rounded(.up)), height: Int(height.rounded(.up)), scale: scale)
        mask.withContext { m in
            cairo_translate(m, 0, dy)
            shape(m)
            cairo_set_source_rgba(m, 0, 0, 0, 1)
            cairo_fill(m)
        }
        boxBlurAlpha(mask, radius: max(1, Int((blur * scale / 2).rounded())))
        cairo_save(cr)
        cairo_identity_matrix(cr)
        cairo_set_source_surface(cr, mask.surface, 0, 0)
        cairo_paint_with_alpha(cr, opacity)
        cairo_restore(cr)
    }

    /// Blurs the alpha channel of a black ARGB32 image in place (3 horizontal + 3 vertical box passes).
    ///
    /// Integer box sums over a flat scratch without bounds checks: it runs once per new sprite
    /// (capsules, callouts, pins), dozens of them in the frame that shows new data.
    static func boxBlurAlpha(_ image: ImageSurface, radius r: Int) {
        cairo_surface_flush(image.surface)
        let w = image.pixelWidth, h = image.pixelHeight
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        guard let data = cairo_image_surface_get_data(image.surface), w > 0, h > 0 else { return }
        let a = UnsafeMutablePointer<Int32>.allocate(capacity: w * h)
        let tmp = UnsafeMutablePointer<Int32>.allocate(capacity: max(w, h))
        defer { a.deallocate(); tmp.deallocate() }
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { a[y &* w &+ x] = Int32(truncatingIfNeeded: row[x] >> 24) }
        }
        let div = Int32(2 * r + 1)
        for _ in 0..<3 {
            for y in 0..<h {  // horizontal
                boxPass(a + y &* w, step: 1, count: w, radius: r, divisor: div, scratch: tmp)
            }
            for x in 0..<w {  // vertical
                boxPass(a + x, step: w, count: h, radius: r, divisor: div, scratch: tmp)
            }
        }
        for y in 0..<h {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { row[x] = UInt32(min(255, a[y &* w &+ x])) << 24 }
        }
        cairo_surface_mark_dirty(image.surface)
    }

    /// One box pass over `count` values `step` apart: each becomes the mean (rounded down) of the
    /// window of `2 * radius + 1` around it, values past either end counting as zero.
    @inline(__always)
    private static func boxPass(_ v: UnsafeMutablePointer<Int32>, step: Int, count n: Int, radius r: Int,
                                divisor: Int32, scratch tmp: UnsafeMutablePointer<Int32>) {
        var sum: Int32 = 0
        for k in 0...min(r, n - 1) { sum &+= v[k &* step] }
        for i in 0..<n {
            tmp[i] = sum / divisor
            let add = i &+ r &+ 1, drop = i &- r
            if add < n { sum &+= v[add &* step] }
            if drop >= 0 { sum &-= v[drop &* step] }
        }
        for i in 0..<n { v[i &* step] = tmp[i] }
    }
}
