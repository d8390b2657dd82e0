import CCairo
import CGdkPixbuf
import Foundation

/// Decodes raster tiles (PNG, JPEG, WebP) into cairo image surfaces, off the drawing thread.
///
/// PNG goes through cairo's own reader (the common case, and the fastest); JPEG and WebP through
/// gdk-pixbuf (display-free; WebP through Debian's `webp-pixbuf-loader`), converted to cairo's
/// premultiplied ARGB32. Anything else, a corrupt image, or one whose header claims more than
/// `maxSide` pixels a side, gives nil: the tile counts as failed and the built-in map shows there.
public enum RasterTileDecoder {
    /// Largest side accepted (tiles are 256 or 512 pixels, @2x at most 1024).
    public static let maxSide = 4096

    /// The image's format from its first bytes.
    public enum Format: String, Sendable { case png, jpeg, webp }

    /// Recognises PNG, JPEG and WebP by their signatures.
    public static func format(of data: Data) -> Format? {
        let b = [UInt8](data.prefix(12))
        if b.count >= 8, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if b.count >= 3, b[0] == 0xFF, b[1] == 0xD8, b[2] == 0xFF { return .jpeg }
        if b.count >= 12, b[0..<4].elementsEqual(Array("RIFF".utf8)), b[8..<12].elementsEqual(Array("WEBP".utf8)) { return .webp }
        return nil
    }

    /// The decoded image at scale 1, or nil. The header's size is checked first: an image wider
    /// or taller than `maxSide` is refused before a pixel of it is decoded.
    public static func decode(_ data: Data) -> ImageSurface? {
        guard let size = RasterImageHeader.size(of: data), size.width > 0, size.height > 0,
              size.width <= maxSide, size.height <= maxSide else { return nil }
        switch format(of: data) {
        case .png: return ImageSurface.decode(png: data).flatMap { fits($0) ? $0 : nil }
        case .jpeg, .webp: return decodeWithPixbuf(data)
        case nil: return nil
        }
    }

    private static func fits(_ s: ImageSurface) -> Bool {
        s.pixelWidth > 0 && s.pixelHeight > 0 && s.pixelWidth <= maxSide && s.pixelHeight <= maxSide
    }

    private static func decodeWithPixbuf(_ data: Data) -> ImageSurface? {
        guard let loader = gdk_pixbuf_loader_new() else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        var error: UnsafeMutablePointer<GError>?
        let written = data.withUnsafeBytes { raw -> gboolean in
            guard let base = raw.baseAddress else { return 0 }
            return gdk_pixbuf_loader_write(loader, base.assumingMemoryBound(to: guchar.self), gsize(raw.count), &error)
        }
        if let e = error { g_error_free(e); error = nil }
        // Close even after a failed write (a loader must be closed before it is freed).
        let closed = gdk_pixbuf_loader_close(loader, &error)
        if let e = error { g_error_free(e) }
        guard written != 0, closed != 0, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else { return nil }
        let w = Int(gdk_pixbuf_get_width(pixbuf)), h = Int(gdk_pixbuf_get_height(pixbuf))
        guard w > 0, h > 0, w <= maxSide, h <= maxSide, gdk_pixbuf_get_bits_per_sample(pixbuf) == 8,
              let pixels = gdk_pixbuf_read_pixels(pixbuf) else { return nil }
        let channels = Int(gdk_pixbuf_get_n_channels(pixbuf)), stride = Int(gdk_pixbuf_get_rowstride(pixbuf))
        let alpha = gdk_pixbuf_get_has_alpha(pixbuf) != 0
        guard channels == (alpha ? 4 : 3) else { return nil }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(w), Int32(h))!
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let out = cairo_image_surface_get_data(surface) else {
            cairo_surface_destroy(surface)
            return nil
        }
        let outStride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<h {
            let src = pixels + y * stride
            let dst = UnsafeMutableRawPointer(out + y * outStride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                let p = src + x * channels
                let r = UInt32(p[0]), g = UInt32(p[1]), b = UInt32(p[2])
                let a = alpha ? UInt32(p[3]) : 255
                // cairo wants premultiplied alpha in native-endian 0xAARRGGBB.
                func pre(_ c: UInt32) -> UInt32 { a == 255 ? c : (c * a + 127) / 255 }
                dst[x] = a << 24 | pre(r) << 16 | pre(g) << 8 | pre(b)
            }
        }
        cairo_surface_mark_dirty(surface)
        return ImageSurface(adopting: surface)
    }
}
