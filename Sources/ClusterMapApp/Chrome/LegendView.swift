import CGtk
import AppSupport
import MapModel
import MapRender

/// The legend in the map's top-left corner (SPEC §7): a small card that says what every colour in
/// use means, collapsible (an expander, remembered while the app runs), and read by screen
/// readers (its drawing carries the legend's text as its accessible label).
final class LegendView {
    let card: UnsafeMutablePointer<GtkWidget>
    private let expander: UnsafeMutablePointer<GtkWidget>
    private let area: UnsafeMutablePointer<GtkWidget>
    private(set) var legend: MapLegend?

    init(overlay: UnsafeMutablePointer<GtkWidget>) {
        card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(card, "cm-legend")
        gtk_widget_set_halign(card, GTK_ALIGN_START)
        gtk_widget_set_valign(card, GTK_ALIGN_START)
        gtk_widget_set_margin_top(card, 12)
        gtk_widget_set_margin_start(card, 12)
        expander = gtk_expander_new("Legend")!
        gtk_expander_set_expanded(opaque(expander), 1)
        area = gtk_drawing_area_new()!
        gtk_widget_set_margin_top(area, 6)
        let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { a, cr, _, _, _ in
            guard let a, let cr, let view = currentChrome?.legend, let legend = view.legend else { return }
            var rgba = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(asWidget(a)), &rgba)
            let dark = MapApplication.window?.controller.renderer.palette.isDark ?? false
            LegendPainter.draw(legend, in: cr, textColor: MapColor(red: Double(rgba.red), green: Double(rgba.green),
                                                                    blue: Double(rgba.blue), alpha: Double(rgba.alpha)),
                               dark: dark)
        }
        gtk_drawing_area_set_draw_func(gcast(area), draw, nil, nil)
        gtk_expander_set_child(opaque(expander), area)
        gtk_box_append(gcast(card), expander)
        gtk_widget_set_visible(card, 0)
        gtk_overlay_add_overlay(opaque(overlay), card)
    }

    /// Shows the legend of the data on the map (hidden when there is none).
    func update(_ legend: MapLegend?, eventLog: EventLog) {
        self.legend = legend
        gtk_widget_set_visible(card, legend == nil ? 0 : 1)
        guard let legend else { return }
        gtk_expander_set_label(opaque(expander), legend.title)
        let size = LegendPainter.size(of: legend)
        gtk_drawing_area_set_content_width(gcast(area), Int32(size.width.rounded(.up)))
        gtk_drawing_area_set_content_height(gcast(area), Int32(size.height.rounded(.up)))
        AccessibleText.setLabel(of: area, to: legend.accessibleText)
        gtk_widget_set_tooltip_text(expander, "What the colours mean")
        gtk_widget_queue_draw(area)
        eventLog.emit("legend", [("title", .string(legend.title)),
                                 ("entries", .array(legend.entries.map { .string($0.text) }))])
    }

    /// The map's palette changed: redraw the swatches.
    func paletteDidChange() { gtk_widget_queue_draw(area) }
}
