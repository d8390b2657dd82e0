import CCairo

/// A one-line pango text layout for overlays (created per use; ~20 µs).
struct TextLabel {
    /// Logical size of the text.
    let width: Double
    let height: Double
    private let layout: OpaquePointer

    /// Lays out `text` (plain text, never markup) with a font description like `"Sans 8"`.
    init?(_ text: String, font: String, in cr: OpaquePointer) {
        guard let l = pango_cairo_create_layout(cr) else { return nil }
        layout = l
        let desc = pango_font_description_from_string(font)
        pango_layout_set_font_description(l, desc)
        pango_font_description_free(desc)
        pango_layout_set_text(l, text, -1)
        var w: Int32 = 0, h: Int32 = 0
        pango_layout_get_pixel_size(l, &w, &h)
        width = Double(w)
        height = Double(h)
    }

    /// Draws the text with its top-left corner at (x, y) in the current source colour.
    func show(in cr: OpaquePointer, x: Double, y: Double) {
        cairo_move_to(cr, x, y)
        pango_cairo_show_layout(cr, layout)
    }

    /// Releases the layout.
    func release() { g_object_unref(UnsafeMutableRawPointer(layout)) }
}

/// Appends a rounded rectangle to the current path.
func appendRoundedRect(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double, radius: Double) {
    let r = min(radius, width / 2, height / 2)
    cairo_new_sub_path(cr)
    cairo_arc(cr, x + width - r, y + r, r, -.pi / 2, 0)
    cairo_arc(cr, x + width - r, y + height - r, r, 0, .pi / 2)
    cairo_arc(cr, x + r, y + height - r, r, .pi / 2, .pi)
    cairo_arc(cr, x + r, y + r, r, .pi, 3 * .pi / 2)
    cairo_close_path(cr)
}
