import CCairo
import MapModel

/// Draws a `MapLegend`: a swatch column and the words beside it, in the chrome's text colour.
public enum LegendPainter {
    static let rowHeight = 20.0
    static let swatchWidth = 26.0
    static let font = "Sans 8.5"
    /// Lines wrap at this width (logical pixels).
    public static let textWidth = 190.0

    /// The size the legend needs: as wide as its longest line, up to `textWidth` (then it wraps).
    public static func size(of legend: MapLegend) -> ScreenSize {
        var h = 0.0, w = 0.0
        let cr = scratch()
        for e in legend.entries {
            h += rowHeight(e.text, in: cr)
            if let l = CalloutMetrics.layout(e.text, font: font, width: nil, in: cr) {
                w = max(w, min(textWidth, CalloutMetrics.size(of: l).width.rounded(.up) + 1))
                g_object_unref(UnsafeMutableRawPointer(l))
            }
        }
        return ScreenSize(width: swatchColumn(of: legend, in: cr) + 6 + w, height: h)
    }

    /// The swatch column: `swatchWidth`, or wider for a capsule whose text needs it.
    static func swatchColumn(of legend: MapLegend, in cr: OpaquePointer) -> Double {
        legend.entries.reduce(swatchWidth) { (w: Double, e: MapLegend.Entry) -> Double in
            guard case .capsule(let text) = e.swatch else { return w }
            return max(w, capsuleWidth(text, in: cr))
        }
    }

    static let capsuleFont = "Sans Bold 8"

    private static func capsuleWidth(_ text: String, in cr: OpaquePointer) -> Double {
        guard let l = CalloutMetrics.layout(text, font: capsuleFont, width: nil, in: cr) else { return swatchWidth }
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        return (CalloutMetrics.size(of: l).width + 12).rounded(.up)
    }

    /// Draws it with its top-left at (0, 0); `textColor` and `dark` come from the chrome's theme.
    public static func draw(_ legend: MapLegend, in cr: OpaquePointer, textColor: MapColor, dark: Bool) {
        let palette: MapPalette = dark ? .dark : .light
        let column = swatchColumn(of: legend, in: cr)
        var y = 0.0
        for e in legend.entries {
            let h = rowHeight(e.text, in: cr)
            let cy = y + min(h, rowHeight) / 2
            drawSwatch(e.swatch, centreX: column / 2, centreY: cy, palette: palette, in: cr)
            if let layout = CalloutMetrics.layout(e.text, font: font, width: textWidth, in: cr) {
                pango_layout_set_height(layout, -3)
                let th = CalloutMetrics.size(of: layout).height
                cairo_move_to(cr, column + 6, y + (min(h, rowHeight) - min(th, rowHeight)) / 2 + (th > rowHeight ? 2 : 0))
                textColor.setSource(on: cr)
                pango_cairo_show_layout(cr, layout)
                g_object_unref(UnsafeMutableRawPointer(layout))
            }
            y += h
        }
    }

    private static func rowHeight(_ text: String, in cr: OpaquePointer) -> Double {
        guard let l = CalloutMetrics.layout(text, font: font, width: textWidth, in: cr) else { return rowHeight }
        pango_layout_set_height(l, -3)
        defer { g_object_unref(UnsafeMutableRawPointer(l)) }
        return max(rowHeight, CalloutMetrics.size(of: l).height + 5)
    }

    private static func drawSwatch(_ s: MapLegend.Swatch, centreX x: Double, centreY y: Double, palette: MapPalette,
                                   in cr: OpaquePointer) {
        // The text before left a current point: start afresh so no line joins it to the swatch.
        cairo_new_path(cr)
        func disc(_ r: Double, _ fill: MapColor) {
            cairo_new_path(cr)
            cairo_arc(cr, x, y, r, 0, 2 * .pi)
            fill.setSource(on: cr)
            cairo_fill_preserve(cr)
            palette.pinOutline.setSource(on: cr)
            cairo_set_line_width(cr, 1.5)
            cairo_stroke(cr)
        }
        switch s {
        case .dot(let c): disc(5.5, MapColor(hex: c))
        // Bigger for deeper steps, as the bubbles on the map are.
        case .step(let n): disc(6.5 + Double(min(max(n, 0), 2)), MarkSprites.fill(step: n, look: nil, palette: palette))
        case .bubble(let c): disc(7.5, MapColor(hex: c))
        case .ring(let colors):
            disc(5.5, MapColor(hex: BubbleLook.mixFill))
            cairo_save(cr)
            cairo_translate(cr, x - 5.5 - MarkSprites.ringWidth, y - 5.5 - MarkSprites.ringWidth)
            let n = max(1, colors.count)
            let segs = colors.enumerated().map { i, c in
                BubbleLook.RingSegment(color: c, twentyFourths: 24 / n + (i == 0 ? 24 % n : 0))
            }
            MarkSprites.drawRing(segs, centre: 5.5 + MarkSprites.ringWidth, radius: 5.5, in: cr)
            cairo_restore(cr)
        case .capsule(let text):
            let w = capsuleWidth(text, in: cr) - 2, h = 15.0
            cairo_new_path(cr)
            appendRoundedRect(cr, x: x - w / 2, y: y - h / 2, width: w, height: h, radius: h / 2)
            palette.labelFill.setSource(on: cr)
            cairo_fill_preserve(cr)
            (palette.isDark ? MapColor(hex: 0xFFFFFF, alpha: 0.22) : MapColor(hex: 0x000000, alpha: 0.18)).setSource(on: cr)
            cairo_set_line_width(cr, 1)
            cairo_stroke(cr)
            MarkSprites.drawCentredText(text, font: capsuleFont, color: palette.labelText, centreX: x, centreY: y,
                                        maxWidth: w - 4, in: cr)
        case .ramp(let colors):
            guard let first = colors.first else { return }
            let w = swatchWidth - 2, h = 8.0
            let pattern = cairo_pattern_create_linear(x - w / 2, 0, x + w / 2, 0)!
            for (i, c) in colors.enumerated() {
                let m = MapColor(hex: c)
                cairo_pattern_add_color_stop_rgb(pattern, colors.count > 1 ? Double(i) / Double(colors.count - 1) : 0,
                                                 m.red, m.green, m.blue)
            }
            _ = first
            cairo_new_path(cr)
            cairo_rectangle(cr, x - w / 2, y - h / 2, w, h)
            cairo_set_source(cr, pattern)
            cairo_fill(cr)
            cairo_pattern_destroy(pattern)
        }
    }

    nonisolated(unsafe) private static var scratchSurface: ImageSurface?
    nonisolated(unsafe) private static var scratchContext: OpaquePointer?

    private static func scratch() -> OpaquePointer {
        if let c = scratchContext { return c }
        let s = ImageSurface(width: 1, height: 1)
        scratchSurface = s
        scratchContext = cairo_create(s.surface)
        return scratchContext!
    }
}
