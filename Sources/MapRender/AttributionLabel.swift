import CCairo

/// Small attribution text on a translucent backing, drawn at the bottom-right of the map.
public enum AttributionLabel {
    /// Draws `text` with the backing's bottom-right corner at (x, y); returns the backing's size.
    @discardableResult
    public static func draw(_ text: String, in cr: OpaquePointer, bottomRight x: Double, _ y: Double,
                            palette: MapPalette) -> (width: Double, height: Double) {
        guard !text.isEmpty, let label = TextLabel(text, font: "Sans 7.5", in: cr) else { return (0, 0) }
        defer { label.release() }
        let padX = 5.0, padY = 2.0
        let w = label.width + 2 * padX, h = label.height + 2 * padY
        cairo_save(cr)
        appendRoundedRect(cr, x: x - w, y: y - h, width: w, height: h, radius: 3)
        palette.overlayBacking.setSource(on: cr)
        cairo_fill(cr)
        palette.overlayText.setSource(on: cr)
        label.show(in: cr, x: x - w + padX, y: y - h + padY)
        cairo_restore(cr)
        return (w, h)
    }
}
