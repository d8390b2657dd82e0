import CCairo

/// Draws a frame into an image of its own and hands it to the target in one paint.
///
/// Why: GTK 4 gives a drawing area's draw function a cairo context on a *recording* surface. Drawn
/// into directly, every tile, sprite and path of a frame is recorded and later replayed by cairo's
/// generic code while GTK renders the window, and the renderer's fast paths — sprites composited
/// straight into the pixels on both cores, banded tiles, the path stroker — never apply, since they
/// need an image target. Drawn here, the recording holds one opaque copy.
///
/// The recording is handed a second surface object over the image's pixels (opaque RGB24, so the
/// copy is a plain blit), made once and never flushed or destroyed while in use: cairo attaches a
/// copy-on-write snapshot to a surface that a recording paints and copies all of it when that
/// surface is flushed or destroyed — every frame, had the image itself been painted. Two images are
/// used in turn, so a frame GTK still holds keeps its pixels while the next one is drawn.
public final class OffscreenFrame {
    private struct Buffer {
        let image: ImageSurface
        let view: OpaquePointer
    }
    private var buffers: [Buffer] = []
    private var next = 0

    public init() {}

    deinit { for b in buffers { cairo_surface_destroy(b.view) } }

    /// The image the last frame was drawn into (for tests).
    public var lastImage: ImageSurface? { buffers.isEmpty ? nil : buffers[1 - next].image }

    /// Runs `draw` on an image of `width × height` logical pixels at device `scale` (its top-left
    /// at the origin; it holds the frame before last: `draw` must cover every pixel, opaquely), then
    /// copies the image into `cr` at the origin.
    public func draw(into cr: OpaquePointer, width: Int, height: Int, scale: Double, _ draw: (OpaquePointer) -> Void) {
        guard width > 0, height > 0 else { return }
        let pw = Int((Double(width) * scale).rounded()), ph = Int((Double(height) * scale).rounded())
        if buffers.count < 2 || buffers[0].image.pixelWidth != pw || buffers[0].image.pixelHeight != ph
            || buffers[0].image.scale != scale {
            for b in buffers { cairo_surface_destroy(b.view) }
            buffers = (0..<2).map { _ in
                let image = ImageSurface(width: width, height: height, scale: scale)
                let view = cairo_image_surface_create_for_data(cairo_image_surface_get_data(image.surface), CAIRO_FORMAT_RGB24,
                                                               Int32(pw), Int32(ph),
                                                               cairo_image_surface_get_stride(image.surface))!
                cairo_surface_set_device_scale(view, scale, scale)
                return Buffer(image: image, view: view)
            }
            next = 0
        }
        let buffer = buffers[next]
        next = 1 - next
        buffer.image.withContext(draw)
        cairo_surface_flush(buffer.image.surface)
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, Double(width), Double(height))
        cairo_clip(cr)
        cairo_set_source_surface(cr, buffer.view, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
        cairo_paint(cr)
        cairo_restore(cr)
    }
}
