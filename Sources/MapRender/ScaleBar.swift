import CCairo
import Foundation

/// A metric scale bar with a round length (1, 2 or 5 × 10ⁿ metres).
public struct ScaleBar: Hashable, Sendable {
    /// Length shown, in metres.
    public var meters: Double
    /// Length of the bar in logical pixels.
    public var pixels: Double

    /// Label such as `"500 km"`, `"20 m"`.
    public var label: String {
        meters >= 1000 ? "\(ScaleBar.format(meters / 1000)) km" : "\(ScaleBar.format(meters)) m"
    }

    /// The longest round length that fits in `maxPixels` at `metersPerPixel`; nil for unusable input.
    public static func choose(metersPerPixel: Double, maxPixels: Double = 100) -> ScaleBar? {
        guard metersPerPixel.isFinite, metersPerPixel > 0, maxPixels > 0 else { return nil }
        let maxMeters = metersPerPixel * maxPixels
        let magnitude = pow(10, (log10(maxMeters)).rounded(.down))
        var best = magnitude
        for step in [1.0, 2.0, 5.0] where step * magnitude <= maxMeters * (1 + 1e-9) { best = step * magnitude }
        return ScaleBar(meters: best, pixels: best / metersPerPixel)
    }

    private static func format(_ v: Double) -> String {
        if v >= 1, v == v.rounded() { return String(Int(v)) }
        var s = String(format: "%.3f", v)
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    /// Draws the bar with its bottom-left corner at (x, y): a bracket-shaped line with the label
    /// inside, on a translucent backing.
    public func draw(in cr: OpaquePointer, bottomLeft x: Double, _ y: Double, palette: MapPalette) {
        draw(in: cr, bottomLeft: x, y, palette: palette, texts: ChromeText())
    }

    /// Draws the bar as `draw(in:bottomLeft:palette:)`, its label from `texts`.
    func draw(in cr: OpaquePointer, bottomLeft x: Double, _ y: Double, palette: MapPalette, texts: ChromeText) {
        let font = "Sans 8", label = self.label
        let text = texts.size(of: label, font: font)
        let padding = 4.0
        let barWidth = max(pixels, text.width + 6)
        let boxW = barWidth + 2 * padding, boxH = text.height + 2 * padding + 2
        cairo_save(cr)
        appendRoundedRect(cr, x: x, y: y - boxH, width: boxW, height: boxH, radius: 3)
        palette.overlayBacking.setSource(on: cr)
        cairo_fill(cr)
        // Bracket: ticks at both ends of the real length, joined along the bottom.
        let left = (x + padding).rounded() + 0.5, right = left + pixels.rounded()
        let bottom = (y - padding).rounded() - 0.5, tickTop = bottom - 6
        cairo_move_to(cr, left, tickTop)
        cairo_line_to(cr, left, bottom)
        cairo_line_to(cr, right, bottom)
        cairo_line_to(cr, right, tickTop)
        palette.scaleBarLine.setSource(on: cr)
        cairo_set_line_width(cr, 1)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        cairo_stroke(cr)
        texts.show(label, font: font, color: palette.overlayText, in: cr, x: left + 3, y: bottom - 2 - text.height)
        cairo_restore(cr)
    }
}
