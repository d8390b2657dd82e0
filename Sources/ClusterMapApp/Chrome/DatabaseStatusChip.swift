import CGtk

/// The quiet chip over the map's top-left corner while a PostGIS table is asked for a view
/// ("querying…") or the window waits for its server to come back ("reconnecting…"). The map
/// keeps showing its last clusters meanwhile; the chip is hidden when nothing is pending.
final class DatabaseStatusChip {
    let chip: UnsafeMutablePointer<GtkWidget>
    private let label: UnsafeMutablePointer<GtkWidget>
    private(set) var text: String?

    init(overlay: UnsafeMutablePointer<GtkWidget>) {
        label = plainLabel("")
        gtk_widget_set_margin_start(label, 8)
        gtk_widget_set_margin_end(label, 8)
        gtk_widget_add_css_class(label, "dim-label")
        chip = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        // The replay chip's look: a small card that reads over any map.
        gtk_widget_add_css_class(chip, "cm-replay")
        gtk_widget_set_halign(chip, GTK_ALIGN_START)
        gtk_widget_set_valign(chip, GTK_ALIGN_START)
        gtk_widget_set_margin_top(chip, 12)
        gtk_widget_set_margin_start(chip, 12)
        gtk_widget_set_can_target(chip, 0)   // clicks go to the map under it
        gtk_box_append(gcast(chip), label)
        gtk_widget_set_visible(chip, 0)
        gtk_overlay_add_overlay(opaque(overlay), chip)
    }

    /// Shows `text`, or hides the chip for nil.
    func show(_ text: String?) {
        guard text != self.text else { return }
        self.text = text
        if let text { gtk_label_set_text(opaque(label), text) }
        gtk_widget_set_visible(chip, text == nil ? 0 : 1)
    }
}
