import CCairo

/// Overlay text (scale bar, attribution) kept as sprites: laying a text out with pango costs tens
/// of microseconds a frame, and the few texts the chrome shows hardly ever change.
///
/// A sprite keeps the sub-pixel phase it was drawn at, so that painting it gives the same pixels
/// as showing the text there directly (up to one level of rounding where it meets the backing).
/// Not thread-safe: use it on the drawing thread.
final class ChromeText {
    private struct Key: Hashable {
        var text: String
        var font: String
        var color: MapColor
        var scale: Double
        /// Sub-pixel position of the text's origin, in 1/64 device pixel.
        var phaseX: Int, phaseY: Int
    }
    private struct SizeKey: Hashable { var text: String; var font: String }

    private var sprites: [Key: Sprite] = [:]
    private var sizes: [SizeKey: (width: Double, height: Double)] = [:]
    private let scratch = ImageSurface(width: 4, height: 4, scale: 1)

    /// Logical size of `text` in `font` (as `TextLabel` measures it).
    func size(of text: String, font: String) -> (width: Double, height: Double) {
        let key = SizeKey(text: text, font: font)
        if let s = sizes[key] { return s }
        var size = (width: 0.0, height: 0.0)
        scratch.withContext { cr in
            if let label = TextLabel(text, font: font, in: cr) {
                size = (label.width, label.height)
                label.release()
            }
        }
        if sizes.count > 64 { sizes.removeAll() }
        sizes[key] = size
        return size
    }

    /// Shows `text` with its top-left corner at (x, y) of `cr` in `color`.
    func show(_ text: String, font: String, color: MapColor, in cr: OpaquePointer, x: Double, y: Double) {
        let s = BaseMapRenderer.deviceScale(of: cr)
        let dx = x * s, dy = y * s
        let fx = dx - dx.rounded(.down), fy = dy - dy.rounded(.down)
        let key = Key(text: text, font: font, color: color, scale: s,
                      phaseX: Int((fx * 64).rounded()), phaseY: Int((fy * 64).rounded()))
        let sprite: Sprite
        if let cached = sprites[key] {
            sprite = cached
        } else {
            let size = self.size(of: text, font: font), m = 2.0
            sprite = Sprite(width: size.width + 2 * m + 1, height: size.height + 2 * m + 1, anchorX: m, anchorY: m,
                            scale: s) { scr in
                guard let label = TextLabel(text, font: font, in: scr) else { return }
                color.setSource(on: scr)
                label.show(in: scr, x: m + fx / s, y: m + fy / s)
                label.release()
            }
            if sprites.count > 32 { sprites.removeAll() }
            sprites[key] = sprite
        }
        // The sprite's anchor at the whole device pixel below the text's origin: the phase is inside.
        sprite.paint(in: cr, x: dx.rounded(.down) / s, y: dy.rounded(.down) / s, alpha: 1, deviceScale: s)
    }
}
