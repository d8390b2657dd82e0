import CCairo
import Foundation

/// An owned cairo image surface (ARGB32 or RGB24), destroyed when released.
///
/// Used for base-map tiles, headless frames and PNG comparisons. Not thread-safe; use one per thread.
public final class ImageSurface {
    /// The `cairo_surface_t *`.
    public let surface: OpaquePointer
    /// Size in device pixels.
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// Device pixels per logical pixel.
    public let scale: Double

    /// Creates a cleared surface of `width × height` logical pixels at a device scale.
    public init(width: Int, height: Int, scale: Double = 1, opaque: Bool = false) {
        pixelWidth = max(1, Int((Double(width) * scale).rounded()))
        pixelHeight = max(1, Int((Double(height) * scale).rounded()))
        self.scale = scale
        surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                             Int32(pixelWidth), Int32(pixelHeight))
        cairo_surface_set_device_scale(surface, scale, scale)
    }

    /// Creates a cleared surface (ARGB32, or RGB24 when `opaque`) of exactly `pixelWidth × pixelHeight`
    /// device pixels at a device scale.
    public init(pixelWidth: Int, pixelHeight: Int, scale: Double, opaque: Bool = false) {
        self.pixelWidth = max(1, pixelWidth)
        self.pixelHeight = max(1, pixelHeight)
        self.scale = scale
        surface = cairo_image_surface_create(opaque ? CAIRO_FORMAT_RGB24 : CAIRO_FORMAT_ARGB32,
                                             Int32(self.pixelWidth), Int32(self.pixelHeight))
        cairo_surface_set_device_scale(surface, scale, scale)
    }

    init(adopting s: OpaquePointer) {
        surface = s
        pixelWidth = Int(cairo_image_surface_get_width(s))
        pixelHeight = Int(cairo_image_surface_get_height(s))
        scale = 1
    }

    deinit { cairo_surface_destroy(surface) }

    /// Errors reading or writing PNGs.
    public enum PNGError: Error, CustomStringConvertible {
        case read(String, String)
        case write(String, String)
        public var description: String {
            switch self {
            case let .read(p, m): return "can't read PNG \(p): \(m)"
            case let .write(p, m): return "can't write PNG \(p): \(m)"
            }
        }
    }

    /// Loads a PNG (device scale 1).
    public static func load(png url: URL) throws -> ImageSurface {
        let s = cairo_image_surface_create_from_png(url.path)!
        let status = cairo_surface_status(s)
        guard status == CAIRO_STATUS_SUCCESS else {
            let msg = String(cString: cairo_status_to_string(status))
            cairo_surface_destroy(s)
            throw PNGError.read(url.path, msg)
        }
        return ImageSurface(adopting: s)
    }

    /// Decodes PNG bytes (e.g. a raster tile) at device scale 1; nil if they aren't a PNG.
    public static func decode(png data: Data) -> ImageSurface? {
        final class Reader { var data: Data; var offset = 0; init(_ d: Data) { data = d } }
        let reader = Reader(data)
        let read: cairo_read_func_t = { closure, buffer, length in
            let r = Unmanaged<Reader>.fromOpaque(closure!).takeUnretainedValue()
            let n = Int(length)
            guard let buffer, r.offset + n <= r.data.count else { return CAIRO_STATUS_READ_ERROR }
            r.data.withUnsafeBytes { raw in
                buffer.update(from: raw.baseAddress!.assumingMemoryBound(to: UInt8.self) + r.offset, count: n)
            }
            r.offset += n
            return CAIRO_STATUS_SUCCESS
        }
        let s = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream(read, Unmanaged.passUnretained(reader).toOpaque())!
        }
        guard cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(s)
            return nil
        }
        return ImageSurface(adopting: s)
    }

    /// Writes the surface as a PNG, creating the folder if needed.
    public func writePNG(to url: URL) throws {
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        cairo_surface_flush(surface)
        let status = cairo_surface_write_to_png(surface, url.path)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw PNGError.write(url.path, String(cString: cairo_status_to_string(status)))
        }
    }

    /// Runs `body` with a new cairo context on this surface.
    public func withContext<R>(_ body: (OpaquePointer) throws -> R) rethrows -> R {
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        return try body(cr)
    }

    /// Pixel at (x, y) in device pixels as un-premultiplied (r, g, b, a) bytes.
    public func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        let word = data.advanced(by: y * stride + x * 4).withMemoryRebound(to: UInt32.self, capacity: 1) { $0.pointee }
        let opaque = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_RGB24
        var a = UInt32(opaque ? 255 : word >> 24)
        var r = (word >> 16) & 0xFF, g = (word >> 8) & 0xFF, b = word & 0xFF
        if a > 0 && a < 255 { r = r * 255 / a; g = g * 255 / a; b = b * 255 / a }
        if a == 0 { r = 0; g = 0; b = 0 }
        a = min(a, 255)
        return (UInt8(min(r, 255)), UInt8(min(g, 255)), UInt8(min(b, 255)), UInt8(a))
    }
}
