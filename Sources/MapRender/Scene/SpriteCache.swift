import CCairo

/// A pre-rendered mark (bubble, pin, label capsule) in a small image surface at the device scale,
/// with the logical offset of its anchor (e.g. the bubble's centre) from the image's top-left.
///
/// Painting a sprite costs ≈ 2 µs against ≈ 30 µs for a stroked circle and 15–30 µs for a text
/// layout (ARCHITECTURE §4), which is what lets a frame show 1,500 items.
public final class Sprite {
    /// The pixels (logical size `width × height` at `image.scale`).
    public let image: ImageSurface
    /// Logical size.
    public let width: Double
    public let height: Double
    /// Anchor position inside the image, logical pixels from the top-left.
    public let anchorX: Double
    public let anchorY: Double
    /// Extents of the visible mark around the anchor (for culling), logical pixels.
    public var bounds: ScreenBox { ScreenBox(minX: -anchorX, minY: -anchorY, maxX: width - anchorX, maxY: height - anchorY) }
    var lastUsed = 0
    /// The image's rows as runs to composite (see `SpriteRuns`), made on first use.
    lazy var runs = SpriteRuns(image)

    /// Draws a sprite on a canvas of `width × height` logical pixels whose anchor is at
    /// (`anchorX`, `anchorY`), then keeps only the part that shows: the image is cropped to the
    /// pixels with alpha above `SpriteTrim.alphaFloor` (soft shadows fade out well inside the
    /// margins a canvas needs), and fainter pixels are cleared. Compositing cost is per pixel, so
    /// this matters most at scale 2; the few cleared pixels change what is under them by at most
    /// one level.
    init(width: Double, height: Double, anchorX: Double, anchorY: Double, scale: Double,
         draw: (OpaquePointer) -> Void) {
        let canvas = ImageSurface(width: Int(width.rounded(.up)), height: Int(height.rounded(.up)), scale: scale)
        canvas.withContext { cr in draw(cr) }
        cairo_surface_flush(canvas.surface)
        let box = SpriteTrim.visibleBox(canvas)
        image = SpriteTrim.crop(canvas, to: box)
        self.width = Double(image.pixelWidth) / scale
        self.height = Double(image.pixelHeight) / scale
        self.anchorX = anchorX - Double(box.x0) / scale
        self.anchorY = anchorY - Double(box.y0) / scale
    }

    /// Top-left corner of the image, in whole device pixels, when the anchor is at (x, y) of a
    /// context at device scale `s` (halves round up, so offsets by whole device pixels commute).
    @inline(__always)
    func deviceOrigin(x: Double, y: Double, deviceScale s: Double) -> (x: Double, y: Double) {
        (((x - anchorX) * s + 0.5).rounded(.down), ((y - anchorY) * s + 0.5).rounded(.down))
    }

    /// Paints the sprite with its anchor at (x, y) at `zoom` times its size (a mark popping up):
    /// resampled, so only for the few frames of an animation; 1 paints it crisp as below.
    func paint(in cr: OpaquePointer, x: Double, y: Double, alpha: Double, deviceScale s: Double, zoom: Double) {
        guard abs(zoom - 1) > 0.001 else { return paint(in: cr, x: x, y: y, alpha: alpha, deviceScale: s) }
        guard alpha > 0.004, zoom > 0.01 else { return }
        cairo_save(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, zoom, zoom)
        cairo_set_source_surface(cr, image.surface, -anchorX, -anchorY)
        if alpha >= 0.999 { cairo_paint(cr) } else { cairo_paint_with_alpha(cr, alpha) }
        cairo_restore(cr)
    }

    /// Adds the sprite to `batch` at (x, y) (as `paint(in:x:y:alpha:deviceScale:)`), or, when it is
    /// drawn scaled (`zoom` ≠ 1), paints the batch so far and then the sprite through cairo.
    @inline(__always)
    func paint(into batch: SpriteBatch, in cr: OpaquePointer, x: Double, y: Double, alpha: Double,
               deviceScale s: Double, zoom: Double = 1) {
        if abs(zoom - 1) > 0.001 {
            batch.flush(into: cr)
            paint(in: cr, x: x, y: y, alpha: alpha, deviceScale: s, zoom: zoom)
        } else {
            batch.add(self, x: x, y: y, alpha: alpha, deviceScale: s)
        }
    }

    /// Paints the sprite with its anchor at (x, y), snapped to whole device pixels so it is copied
    /// without resampling (crisp, and pixman's fastest path).
    @inline(__always)
    func paint(in cr: OpaquePointer, x: Double, y: Double, alpha: Double, deviceScale s: Double) {
        guard alpha > 0.004 else { return }
        let o = deviceOrigin(x: x, y: y, deviceScale: s)
        cairo_set_source_surface(cr, image.surface, o.x / s, o.y / s)
        if alpha >= 0.999 {
            cairo_paint(cr)
        } else {
            cairo_paint_with_alpha(cr, alpha)
        }
    }
}

/// Cropping sprite canvases to what shows.
enum SpriteTrim {
    /// Pixels with at most this alpha (of 255) are cleared: over any background they change a
    /// channel by less than one level.
    static let alphaFloor: UInt32 = 2

    /// Device-pixel box (x0..<x1, y0..<y1) of the pixels with alpha above `alphaFloor`; clears the
    /// fainter ones. An empty canvas gives a 1×1 box at the origin.
    static func visibleBox(_ image: ImageSurface) -> (x0: Int, y0: Int, x1: Int, y1: Int) {
        let w = image.pixelWidth, h = image.pixelHeight
        let stride = Int(cairo_image_surface_get_stride(image.surface))
        guard let data = cairo_image_surface_get_data(image.surface) else { return (0, 0, 1, 1) }
        var x0 = w, y0 = h, x1 = 0, y1 = 0
        for y in 0..<h {
            let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
            var any = false
            for x in 0..<w {
                let p = row[x]
                if p >> 24 > alphaFloor {
                    any = true
                    if x < x0 { x0 = x }
                    if x >= x1 { x1 = x + 1 }
                } else if p != 0 {
                    row[x] = 0
                }
            }
            if any {
                if y < y0 { y0 = y }
                y1 = y + 1
            }
        }
        cairo_surface_mark_dirty(image.surface)
        return x1 > x0 && y1 > y0 ? (x0, y0, x1, y1) : (0, 0, 1, 1)
    }

    /// A new surface holding `box` of `image` (same device scale), or `image` itself if the box is whole.
    static func crop(_ image: ImageSurface, to box: (x0: Int, y0: Int, x1: Int, y1: Int)) -> ImageSurface {
        if box.x0 == 0 && box.y0 == 0 && box.x1 == image.pixelWidth && box.y1 == image.pixelHeight { return image }
        let out = ImageSurface(pixelWidth: box.x1 - box.x0, pixelHeight: box.y1 - box.y0, scale: image.scale)
        let srcStride = Int(cairo_image_surface_get_stride(image.surface))
        let dstStride = Int(cairo_image_surface_get_stride(out.surface))
        guard let src = cairo_image_surface_get_data(image.surface),
              let dst = cairo_image_surface_get_data(out.surface) else { return image }
        for y in box.y0..<box.y1 {
            (dst + (y - box.y0) * dstStride).update(from: src + y * srcStride + box.x0 * 4, count: (box.x1 - box.x0) * 4)
        }
        cairo_surface_mark_dirty(out.surface)
        return out
    }
}

/// An axis-aligned box (min/max form), logical pixels.
public struct ScreenBox: Hashable, Sendable {
    public var minX: Double, minY: Double, maxX: Double, maxY: Double
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }
    /// Whether a box of these extents placed at (x, y) overlaps `other`.
    @inline(__always)
    func intersects(at x: Double, _ y: Double, _ other: ScreenBox) -> Bool {
        x + maxX > other.minX && x + minX < other.maxX && y + maxY > other.minY && y + minY < other.maxY
    }
}

/// Sprites by key, least recently used dropped beyond `capacity`.
///
/// Count labels repeat a lot ("2", "3", …, "1.2k"), so a few hundred sprites serve a whole session;
/// the bound only matters for pathological label sets. Not thread-safe: use on the drawing thread.
public final class SpriteCache<Key: Hashable> {
    /// Most sprites kept.
    public let capacity: Int
    private var sprites: [Key: Sprite] = [:]
    private var clock = 0
    /// Sprites rendered since creation (for tests and benchmarks).
    public private(set) var renderCount = 0

    public init(capacity: Int = 2000) { self.capacity = max(1, capacity) }

    /// Number of cached sprites.
    public var count: Int { sprites.count }

    /// Drops every sprite.
    public func removeAll() { sprites.removeAll() }

    /// The sprite for `key`, made with `make` on a miss.
    public func sprite(for key: Key, make: () -> Sprite) -> Sprite {
        clock &+= 1
        if let s = sprites[key] {
            s.lastUsed = clock
            return s
        }
        let s = make()
        s.lastUsed = clock
        renderCount += 1
        if sprites.count >= capacity { evict() }
        sprites[key] = s
        return s
    }

    /// The sprite for `key` if it is cached (nil on a miss; nothing is made).
    public func cachedSprite(for key: Key) -> Sprite? {
        guard let s = sprites[key] else { return nil }
        clock &+= 1
        s.lastUsed = clock
        return s
    }

    /// Keeps `sprite` for `key` (made elsewhere, e.g. on another thread), replacing any.
    public func insert(_ sprite: Sprite, for key: Key) {
        clock &+= 1
        sprite.lastUsed = clock
        if sprites[key] == nil && sprites.count >= capacity { evict() }
        sprites[key] = sprite
    }

    /// Drops the least recently used quarter.
    private func evict() {
        let keep = capacity * 3 / 4
        let victims = sprites.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(max(1, sprites.count - keep))
        for (k, _) in victims { sprites.removeValue(forKey: k) }
    }
}

