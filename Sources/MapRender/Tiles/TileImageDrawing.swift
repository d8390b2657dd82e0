import CCairo
import Tiles

/// Puts a cached tile image on screen: the part `sourceRect` of `image` scaled into a square of
/// `size` logical pixels at (`x`, `y`), faded by `opacity`. Used for ready tiles, for parents
/// standing in for missing children, and for over-zoomed raster tiles alike.
public enum TileImageDrawing {
    /// Draws one placement (see `clustermap-bench tiles` for its cost).
    ///
    /// - Parameters:
    ///   - dimmed: multiplies the colours toward black (raster tiles in the dark palette, SPEC §2).
    ///   - smooth: bilinear filtering (at rest); false gives nearest-pixel sampling, about 4× cheaper
    ///     for a scaled tile, for the frames of a zoom animation where nobody sees the difference.
    ///   - resampled: where a smooth, scaled tile keeps its resampled copy between frames (at rest
    ///     the tile is then copied 1:1); nil scales it every time.
    ///   - smoothWithoutCopy: the filtering when `resampled` has no copy and may not make one in
    ///     this frame (its budget is spent): e.g. nearest for a magnified tile in motion.
    public static func draw(_ image: ImageSurface, sourceRect: TileRect = .whole, x: Double, y: Double, size: Double,
                            opacity: Double = 1, dimmed: Double = 0, smooth: Bool = true,
                            resampled: TileResampleCache? = nil, smoothWithoutCopy: Bool? = nil, in cr: OpaquePointer) {
        guard size > 0, opacity > 0, sourceRect.size > 0 else { return }
        // The image's logical side (device pixels / device scale) maps onto the rect's fraction.
        let side = Double(image.pixelWidth) / image.scale
        let k = size / (side * sourceRect.size)
        cairo_save(cr)
        // Round the square to whole device pixels so neighbouring tiles meet without hairline seams.
        var x0 = x, y0 = y, x1 = x + size, y1 = y + size
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        if smooth && resampled != nil {
            // A size that doesn't change while the view pans by fractions of a pixel, so the
            // resampled copy is reused; rounded up, so neighbours overlap by a pixel at most
            // rather than leave a gap.
            x1 = x0.rounded() + (x1 - x0 - 1e-6).rounded(.up)
            y1 = y0.rounded() + (y1 - y0 - 1e-6).rounded(.up)
        }
        x0.round(); y0.round(); x1.round(); y1.round()
        cairo_device_to_user(cr, &x0, &y0)
        cairo_device_to_user(cr, &x1, &y1)
        cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
        cairo_clip(cr)
        cairo_translate(cr, x0, y0)
        if smooth, let resampled, let copy = resampledCopy(image, sourceRect, x1 - x0, y1 - y0, cr, resampled) {
            // The copy has the square's device size: drawn unscaled, cairo copies pixels.
            let w = Double(copy.pixelWidth) / copy.scale, h = Double(copy.pixelHeight) / copy.scale
            if abs(w - (x1 - x0)) > 1e-9 || abs(h - (y1 - y0)) > 1e-9 { cairo_scale(cr, (x1 - x0) / w, (y1 - y0) / h) }
            cairo_set_source_surface(cr, copy.surface, 0, 0)
        } else {
            cairo_scale(cr, (x1 - x0) / size * k, (y1 - y0) / size * k)
            cairo_set_source_surface(cr, image.surface, -sourceRect.x * side, -sourceRect.y * side)
            let pattern = cairo_get_source(cr)
            // (No copy because the frame's budget for new ones is spent: `smoothWithoutCopy`.)
            let refused = resampled.map { $0.newCopiesLeft == 0 } ?? false
            let bilinear = smooth && (!refused || (smoothWithoutCopy ?? true))
            cairo_pattern_set_filter(pattern, bilinear ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_FAST)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        }
        if opacity >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, opacity) }
        if dimmed > 0 {
            cairo_set_source_rgba(cr, 0, 0, 0, min(1, dimmed) * opacity)
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }

    /// The resampled copy for a square of `width × height` user units, when the image is not
    /// already shown 1:1 (nil then: a 1:1 copy is as cheap as it gets) and the context only
    /// translates and scales.
    private static func resampledCopy(_ image: ImageSurface, _ rect: TileRect, _ width: Double, _ height: Double,
                                      _ cr: OpaquePointer, _ cache: TileResampleCache) -> ImageSurface? {
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        guard m.xy == 0, m.yx == 0, m.xx > 0, m.yy > 0, let target = cairo_get_target(cr) else { return nil }
        var sx = 1.0, sy = 1.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        guard sx == sy else { return nil }
        let w = Int((width * m.xx * sx).rounded()), h = Int((height * m.yy * sy).rounded())
        guard w > 0, h > 0, w <= 8192, h <= 8192 else { return nil }
        let sourcePixels = Double(image.pixelWidth) * rect.size
        if abs(sourcePixels - Double(w)) < 1e-6 && abs(sourcePixels - Double(h)) < 1e-6 { return nil }
        return cache.copy(of: image, rect: rect, width: w, height: h, scale: sx * m.xx)
    }
}
