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
    public static func draw(_ image: ImageSurface, sourceRect: TileRect = .whole, x: Double, y: Double, size: Double,
                            opacity: Double = 1, dimmed: Double = 0, smooth: Bool = true, in cr: OpaquePointer) {
        guard size > 0, opacity > 0, sourceRect.size > 0 else { return }
        // The image's logical side (device pixels / device scale) maps onto the rect's fraction.
        let side = Double(image.pixelWidth) / image.scale
        let k = size / (side * sourceRect.size)
        cairo_save(cr)
        // Round the square to whole device pixels so neighbouring tiles meet without hairline seams.
        var x0 = x, y0 = y, x1 = x + size, y1 = y + size
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        x0.round(); y0.round(); x1.round(); y1.round()
        cairo_device_to_user(cr, &x0, &y0)
        cairo_device_to_user(cr, &x1, &y1)
        cairo_rectangle(cr, x0, y0, x1 - x0, y1 - y0)
        cairo_clip(cr)
        cairo_translate(cr, x0, y0)
        cairo_scale(cr, (x1 - x0) / size * k, (y1 - y0) / size * k)
        cairo_set_source_surface(cr, image.surface, -sourceRect.x * side, -sourceRect.y * side)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, smooth ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_FAST)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        if opacity >= 1 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, opacity) }
        if dimmed > 0 {
            cairo_set_source_rgba(cr, 0, 0, 0, min(1, dimmed) * opacity)
            cairo_paint(cr)
        }
        cairo_restore(cr)
    }
}
