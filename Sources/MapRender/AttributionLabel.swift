import CCairo

/// Small attribution text on a translucent backing, drawn at the bottom-right of the map.
public enum AttributionLabel {
    /// Draws `text` with the backing's bottom-right corner at (x, y); returns the backing's size.
    @discardableResult
    public static func draw(_ text: String, in cr: OpaquePointer, bottomRight x: Double, _ y: Double,
                            palette: MapPalette) -> (width: Double, height: Double) {
        draw(text, in: cr, bottomRight: x, y, palette: palette, texts: ChromeText())
    }

    /// Draws as `draw(_:in:bottomRight:palette:)`, the text from `texts`.
    @discardableResult
    static func draw(_ text: String, in cr: OpaquePointer, bottomRight x: Double, _ y: Double,
                     palette: MapPalette, texts: ChromeText) -> (width: Double, height: Double) {
        let font = "Sans 7.5"
        guard !text.isEmpty else { return (0, 0) }
        let label = texts.size(of: text, font: font)
        let padX = 5.0, padY = 2.0
        let w = label.width + 2 * padX, h = label.height + 2 * padY
        cairo_save(cr)
        appendRoundedRect(cr, x: x - w, y: y - h, width: w, height: h, radius: 3)
        palette.overlayBacking.setSource(on: cr)
        cairo_fill(cr)
        texts.show(text, font: font, color: palette.overlayText, in: cr, x: x - w + padX, y: y - h + padY)
        cairo_restore(cr)
        return (w, h)
    }
}
