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

    init(width: Double, height: Double, anchorX: Double, anchorY: Double, scale: Double,
         draw: (OpaquePointer) -> Void) {
        let w = Int(width.rounded(.up)), h = Int(height.rounded(.up))
        image = ImageSurface(width: w, height: h, scale: scale)
        self.width = Double(w)
        self.height = Double(h)
        self.anchorX = anchorX
        self.anchorY = anchorY
        image.withContext { cr in draw(cr) }
        cairo_surface_flush(image.surface)
    }

    /// Paints the sprite with its anchor at (x, y), snapped to whole device pixels so it is copied
    /// without resampling (crisp, and pixman's fastest path).
    @inline(__always)
    func paint(in cr: OpaquePointer, x: Double, y: Double, alpha: Double, deviceScale s: Double) {
        let left = ((x - anchorX) * s).rounded() / s
        let top = ((y - anchorY) * s).rounded() / s
        cairo_set_source_surface(cr, image.surface, left, top)
        if alpha >= 0.999 {
            cairo_paint(cr)
        } else if alpha > 0.004 {
            cairo_paint_with_alpha(cr, alpha)
        }
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

    /// Drops the least recently used quarter.
    private func evict() {
        let keep = capacity * 3 / 4
        let victims = sprites.sorted { $0.value.lastUsed < $1.value.lastUsed }.prefix(max(1, sprites.count - keep))
        for (k, _) in victims { sprites.removeValue(forKey: k) }
    }
}
