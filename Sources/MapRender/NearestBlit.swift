import CCairo
import CSpriteBlend

/// A tile blit of `ScaledBlitList` sampled nearest, as the C kernel `csb_blit_nearest` takes it.
///
/// Why: a frame of a zoom animation magnifies a viewport of tile pixels by up to √2, sampled
/// nearest. cairo sends that through pixman's general path (each scanline fetched through an
/// affine nearest iterator into a buffer, then combined): about 15 instructions a pixel, the
/// largest single cost of such a frame. The kernel works out a row's source columns once per tile,
/// gathers each row through them and copies a row that samples the same source row as the one
/// above it. Same sampling rule as pixman's (the source pixel whose span (i, i + 1] holds the pixel
/// centre, edges clamped), computed in double precision instead of pixman's 16.16 fixed point, so a
/// sample within a few thousandths of a pixel of a boundary may take the neighbouring source pixel:
/// a difference no one can see in a frame in motion (frames at rest copy tiles unscaled, and
/// unscaled copies are exact).
enum NearestBlit {
    /// The target's pixels (`SpriteBatch.Target`: a plain ARGB32 image, a whole-pixel origin, one
    /// whole-pixel clip rectangle) and its device scale.
    struct Target {
        let surface: OpaquePointer
        let pixels: csb_target
        let scale: Double

        init?(_ cr: OpaquePointer) {
            guard let t = SpriteBatch.Target(cr) else { return nil }
            var sx = 1.0, sy = 1.0
            cairo_surface_get_device_scale(t.surface, &sx, &sy)
            guard sx == sy, sx > 0 else { return nil }
            surface = t.surface
            pixels = t.pixels
            scale = sx
        }
    }

    /// The kernel's description of tile pixels `source` (pixel (0, 0) at user (`x`, `y`), `g` times
    /// its size) painted into user rectangle `rect` within `clips`, or nil where the kernel can't
    /// do it (a source that isn't an opaque RGB24 image at the target's scale, edges off the pixel
    /// grid).
    static func make(_ source: OpaquePointer, x: Double, y: Double, g: Double, rect: ScaledBlitList.Rect,
                     clips: [ScaledBlitList.Rect], target t: Target) -> csb_nearest_blit? {
        guard g > 0, cairo_surface_get_type(source) == CAIRO_SURFACE_TYPE_IMAGE,
              cairo_image_surface_get_format(source) == CAIRO_FORMAT_RGB24,
              let raw = cairo_image_surface_get_data(source) else { return nil }
        var ssx = 1.0, ssy = 1.0
        cairo_surface_get_device_scale(source, &ssx, &ssy)
        var sox = 0.0, soy = 0.0
        cairo_surface_get_device_offset(source, &sox, &soy)
        guard ssx == ssy, ssx > 0, sox == 0, soy == 0 else { return nil }
        let s = t.scale, ox = Double(t.pixels.origin_x), oy = Double(t.pixels.origin_y)
        // The rectangle in target pixels, within every clip and the target's own.
        var x0 = t.pixels.clip_x0, y0 = t.pixels.clip_y0, x1 = t.pixels.clip_x1, y1 = t.pixels.clip_y1
        for r in clips + [rect] {
            guard let px0 = whole(r.x0 * s + ox), let py0 = whole(r.y0 * s + oy),
                  let px1 = whole(r.x1 * s + ox), let py1 = whole(r.y1 * s + oy) else { return nil }
            x0 = max(x0, px0); y0 = max(y0, py0); x1 = min(x1, px1); y1 = min(y1, py1)
        }
        // Nothing of it shows (e.g. a fallback tile's part outside the band): an empty blit.
        if x0 >= x1 || y0 >= y1 { x1 = x0; y1 = y0 }
        // Target pixel p ↔ user (p − o) / s ↔ source pixel ((p − o) / s − x) / g × ssx.
        let k = ssx / (s * g)
        return csb_nearest_blit(pixels: UnsafeMutableRawPointer(raw).bindMemory(to: UInt32.self, capacity: 1),
                                stride: Int(cairo_image_surface_get_stride(source)) / 4,
                                width: Int(cairo_image_surface_get_width(source)),
                                height: Int(cairo_image_surface_get_height(source)),
                                scale_x: k, offset_x: -(ox / s + x) / g * ssx, scale_y: k, offset_y: -(oy / s + y) / g * ssx,
                                x0: x0, y0: y0, x1: x1, y1: y1)
    }

    /// `v` as a whole number of pixels, if it is one (up to rounding in the last bits).
    private static func whole(_ v: Double) -> Int? {
        let r = v.rounded()
        return abs(v - r) < 1e-6 && abs(r) < 1e7 ? Int(r) : nil
    }
}
