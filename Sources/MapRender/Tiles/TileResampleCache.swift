import CCairo
import Tiles

/// Tile images resampled to the device size they are shown at, kept while they stay on screen.
///
/// Why: at a fractional zoom every frame scaled each visible tile with bilinear filtering,
/// about 1.5 ms per 512-px tile on this project's machine (a 1280×800 view shows six to twelve).
/// At rest the size doesn't change from frame to frame, so the tile is resampled once and then
/// copied 1:1 (≈ 0.15 ms). Copies of tiles not drawn in a frame are dropped (`endFrame`), so the
/// memory held is that of the visible tiles. Drawing thread only.
public final class TileResampleCache {
    private struct Entry {
        let image: ImageSurface
        let rect: TileRect
        let width: Int
        let height: Int
        let copy: ImageSurface
        var used: Bool
    }

    private var entries: [ObjectIdentifier: Entry] = [:]

    /// Creates an empty cache.
    public init() {}

    /// Number of copies held.
    public var count: Int { entries.count }

    /// How many new copies the frame being drawn may still make (nil: no limit). Why: a frame in
    /// motion whose zoom stops changing (a pan after a zoom, the turn of a zoom in and out) found
    /// every visible tile without a copy at the new size and resampled them all, 12 ms over a street
    /// map; with a budget it makes one or two and shows the others scaled directly until later
    /// frames have made theirs. Set by the drawer before each frame.
    public var newCopiesLeft: Int?

    /// The part `rect` of `image` resampled (bilinear) to `width × height` device pixels, at device
    /// `scale`: the copy made for an earlier frame when the size is the same; nil when there is
    /// none and the frame's budget for new copies is spent (`newCopiesLeft`).
    func copy(of image: ImageSurface, rect: TileRect, width: Int, height: Int, scale: Double) -> ImageSurface? {
        let id = ObjectIdentifier(image)
        if var e = entries[id], e.rect == rect, e.width == width, e.height == height {
            e.used = true
            entries[id] = e
            return e.copy
        }
        if let left = newCopiesLeft {
            guard left > 0 else {
                // Keep an older copy of this tile (it may fit again) until a frame doesn't draw it.
                entries[id]?.used = true
                return nil
            }
            newCopiesLeft = left - 1
        }
        let opaque = cairo_image_surface_get_format(image.surface) == CAIRO_FORMAT_RGB24
        let copy = ImageSurface(pixelWidth: width, pixelHeight: height, scale: scale, opaque: opaque)
        let cr = cairo_create(copy.surface)!
        // Work in the copy's device pixels; the source's logical side maps onto its rect's fraction.
        cairo_scale(cr, 1 / scale, 1 / scale)
        let side = Double(image.pixelWidth) / image.scale
        cairo_scale(cr, Double(width) / (side * rect.size), Double(height) / (side * rect.size))
        cairo_set_source_surface(cr, image.surface, -rect.x * side, -rect.y * side)
        let pattern = cairo_get_source(cr)
        cairo_pattern_set_filter(pattern, CAIRO_FILTER_BILINEAR)
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        cairo_paint(cr)
        cairo_destroy(cr)
        entries[id] = Entry(image: image, rect: rect, width: width, height: height, copy: copy, used: true)
        return copy
    }

    /// Ends a frame: drops the copies no draw asked for since the last call.
    public func endFrame() {
        entries = entries.filter { $0.value.used }
        for k in entries.keys { entries[k]?.used = false }
    }
}
