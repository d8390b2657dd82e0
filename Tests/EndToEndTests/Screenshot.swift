import Foundation
import CCairo

/// A screenshot's pixels (read with cairo).
struct Screenshot {
    let width: Int
    let height: Int
    let path: String
    private var pixels: [UInt32]

    init(pngPath: String) throws {
        path = pngPath
        guard let surface = cairo_image_surface_create_from_png(pngPath),
              cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            throw AppHarness.LaunchError(description: "cannot read \(pngPath)")
        }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let data = cairo_image_surface_get_data(surface)!
        var px = [UInt32](repeating: 0, count: width * height)
        for y in 0..<height {
            let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { px[y * width + x] = row[x] & 0xFFFFFF }
        }
        pixels = px
    }

    /// RGB at a pixel as (r, g, b) 0…255.
    func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let v = pixels[y * width + x]
        return (Int(v >> 16 & 0xFF), Int(v >> 8 & 0xFF), Int(v & 0xFF))
    }

    /// Fraction of pixels within `tolerance` of a colour (per channel), inside a region.
    func fraction(near color: (Int, Int, Int), tolerance: Int = 12,
                  region: (x: Int, y: Int, w: Int, h: Int)? = nil) -> Double {
        let r = region ?? (0, 0, width, height)
        var hit = 0, total = 0
        for y in stride(from: r.y, to: min(height, r.y + r.h), by: 2) {
            for x in stride(from: r.x, to: min(width, r.x + r.w), by: 2) {
                let c = rgb(x, y)
                total += 1
                if abs(c.0 - color.0) <= tolerance && abs(c.1 - color.1) <= tolerance && abs(c.2 - color.2) <= tolerance { hit += 1 }
            }
        }
        return total == 0 ? 0 : Double(hit) / Double(total)
    }
}
