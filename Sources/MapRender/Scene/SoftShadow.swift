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
    static func boxBlurAlpha(_ image: ImageSurface, radius r: Int) {
        cairo_surface_flush(image.surface)
        let w = image.pixelWidth, h = image.pixelHeight
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        guard let data = cairo_image_surface_get_data(image.surface) else { return }
        var a = [Int](repeating: 0, count: w * h)
        for y in 0..<h {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { a[y * w + x] = Int(row[x] >> 24) }
        }
        var tmp = [Int](repeating: 0, count: max(w, h))
        let div = 2 * r + 1
        for _ in 0..<3 {
            for y in 0..<h {  // horizontal
                var sum = 0
                for k in 0...min(r, w - 1) { sum += a[y * w + k] }
                for x in 0..<w {
                    tmp[x] = sum / div
                    let add = x + r + 1, drop = x - r
                    if add < w { sum += a[y * w + add] }
                    if drop >= 0 { sum -= a[y * w + drop] }
                }
                for x in 0..<w { a[y * w + x] = tmp[x] }
            }
            for x in 0..<w {  // vertical
                var sum = 0
                for k in 0...min(r, h - 1) { sum += a[k * w + x] }
                for y in 0..<h {
                    tmp[y] = sum / div
                    let add = y + r + 1, drop = y - r
                    if add < h { sum += a[add * w + x] }
                    if drop >= 0 { sum -= a[drop * w + x] }
                }
                for y in 0..<h { a[y * w + x] = tmp[y] }
            }
        }
        for y in 0..<h {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w { row[x] = UInt32(min(255, a[y * w + x])) << 24 }
        }
        cairo_surface_mark_dirty(image.surface)
    }
}
