import AppSupport
import CGtk
import MapModel
import MapRender

/// `render … --total/--by`: the legend the window shows for them (`MapPresentation.legend`: "Number on
/// bubbles: total deaths; size follows it", the categories' colours), on a card in the top-left
/// corner, so a still says what its numbers are. Drawn by the window's `LegendPainter`; as in the
/// window, an image narrower than `ChromeLayout.legendCollapseWidth` gets the card's title only.
final class RenderLegendOverlay: MapOverlay {
    let legend: MapLegend
    static let margin = ChromeLayout.legendMargin, padding = 8.0, titleHeight = 18.0

    init(_ legend: MapLegend) { self.legend = legend }

    var contentVersion: Int? { 0 }

    func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) {
        let collapsed = ChromeLayout.legendCollapses(mapWidth: camera.viewportSize.width)
        let size = collapsed ? ScreenSize(width: 0, height: 0) : LegendPainter.size(of: legend)
        let m = Self.margin, p = Self.padding
        let width = max(size.width, collapsed ? 80 : 120) + 2 * p, height = size.height + Self.titleHeight + 2 * p - (collapsed ? 4 : 0)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // The card: the chrome's light or dark surface, a hairline edge.
        let dark = palette.isDark
        cairo_new_path(cr)
        roundedRect(cr, x: m, y: m, width: width, height: height, radius: 6)
        if dark { cairo_set_source_rgba(cr, 0.16, 0.16, 0.17, 0.94) } else { cairo_set_source_rgba(cr, 1, 1, 1, 0.94) }
        cairo_fill_preserve(cr)
        cairo_set_source_rgba(cr, 0, 0, 0, 0.18)
        cairo_set_line_width(cr, 1)
        cairo_stroke(cr)
        let text = dark ? MapColor(red: 0.93, green: 0.93, blue: 0.93, alpha: 1) : MapColor(red: 0.13, green: 0.13, blue: 0.13, alpha: 1)
        text.setSource(on: cr)
        cairo_select_font_face(cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD)
        cairo_set_font_size(cr, 11.5)
        cairo_move_to(cr, m + p, m + p + 12)
        cairo_show_text(cr, (collapsed ? "▸ " : "") + legend.title)
        if collapsed { return }
        cairo_translate(cr, m + p, m + p + Self.titleHeight)
        LegendPainter.draw(legend, in: cr, textColor: text, dark: dark)
    }

    private func roundedRect(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius r: Double) {
        cairo_arc(cr, x + width - r, y + r, r, -Double.pi / 2, 0)
        cairo_arc(cr, x + width - r, y + height - r, r, 0, Double.pi / 2)
        cairo_arc(cr, x + r, y + height - r, r, Double.pi / 2, Double.pi)
        cairo_arc(cr, x + r, y + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(cr)
    }
}
