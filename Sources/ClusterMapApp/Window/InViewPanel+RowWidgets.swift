import CGtk
import AppSupport
import MapModel
import MapRender

/// The In View list's row widgets: made once per visible row (`setupRow`), filled from the row
/// they show (`bindRow`, which finds its panel in its user data), and the badge drawn in the
/// bubble's step colour or the place's pin colour.
extension InViewPanel {
    /// Row layout: a badge (bubble or pin), then the title over a dim subtitle.
    static let setupRow: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, item, _ in
        guard let item else { return }
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_set_margin_top(box, 6); gtk_widget_set_margin_bottom(box, 6)
        gtk_widget_set_margin_start(box, 4); gtk_widget_set_margin_end(box, 4)
        let badge = gtk_drawing_area_new()!
        gtk_widget_set_size_request(badge, 28, 28)
        gtk_widget_set_valign(badge, GTK_ALIGN_CENTER)
        let texts = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_valign(texts, GTK_ALIGN_CENTER)
        gtk_widget_set_hexpand(texts, 1)
        let title = gtk_label_new("")!
        gtk_label_set_xalign(opaque(title), 0)
        gtk_label_set_ellipsize(opaque(title), PANGO_ELLIPSIZE_END)
        let subtitle = gtk_label_new("")!
        gtk_label_set_xalign(opaque(subtitle), 0)
        gtk_label_set_ellipsize(opaque(subtitle), PANGO_ELLIPSIZE_END)
        gtk_widget_add_css_class(subtitle, "dim-label")
        gtk_widget_add_css_class(subtitle, "caption")
        gtk_box_append(gcast(texts), title)
        gtk_box_append(gcast(texts), subtitle)
        gtk_box_append(gcast(box), badge)
        gtk_box_append(gcast(box), texts)
        gtk_list_item_set_child(item, box)
    }

    static let bindRow: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, item, data in
        guard let item, let panel = UserData.object(data, as: InViewPanel.self),
              let box = gtk_list_item_get_child(item),
              let badge = gtk_widget_get_first_child(box),
              let texts = gtk_widget_get_next_sibling(badge),
              let title = gtk_widget_get_first_child(texts),
              let subtitle = gtk_widget_get_next_sibling(title) else { return }
        let position = Int(gtk_list_item_get_position(item))
        guard panel.rows.indices.contains(position) else { return }
        let row = panel.rows[position]
        // Which row the box shows (a right click finds it: `rowPosition(at:)`), plus one: 0 is none.
        g_object_set_data(gcast(box), InViewPanel.rowKey, UnsafeMutableRawPointer(bitPattern: position + 1))
        gtk_label_set_text(opaque(title), row.title)
        gtk_label_set_text(opaque(subtitle), row.subtitle)
        gtk_widget_set_visible(subtitle, row.subtitle.isEmpty ? 0 : 1)
        // A shortened name is read whole in the tooltip.
        gtk_widget_set_tooltip_text(box, row.kind == .bubble ? "Enter or double-click to zoom in, Shift+Enter or right-click for its card" : row.fullTitle)
        // Badge: bubble step or pin colour, packed into the draw function's data pointer.
        // A bubble the data colours (e.g. by its strongest earthquake) shows that colour, as on the map.
        let code = row.kind == .bubble
            ? (row.color != 0 ? (0x5000000 | UInt(row.color & 0xFFFFFF)) : (0x1000000 | UInt(min(max(row.step, 0), 2))))
            : (0x2000000 | UInt(row.color & 0xFFFFFF))
        gtk_drawing_area_set_draw_func(gcast(badge), InViewPanel.drawBadge, Unmanaged.passRetained(Badge(code: code, panel: panel)).toOpaque(),
                                       UserData.release)
        gtk_widget_queue_draw(badge)
        // Screen readers: the row (GtkListView's item widget) says the exact count and category.
        var description = ""
        if let sel = panel.selectedDescription, sel.id == row.id { description = sel.text }
        for w in [box, gtk_widget_get_parent(box)].compactMap({ $0 }) {
            AccessibleText.setLabel(of: w, to: row.accessibleLabel)
            AccessibleText.setDescription(of: w, to: description)
        }
    }

    static let rowKey = "cm-inview-row"

    /// The position of the row under `x, y` of the list (nil: none there).
    func rowPosition(at x: Double, _ y: Double) -> Int? {
        var w = gtk_widget_pick(listView, x, y, GTK_PICK_DEFAULT)
        while let widget = w, widget != listView {
            if let mark = g_object_get_data(gcast(widget), InViewPanel.rowKey) {
                let position = Int(bitPattern: mark) - 1
                return rows.indices.contains(position) ? position : nil
            }
            w = gtk_widget_get_parent(widget)
        }
        return nil
    }

    static let drawBadge: @MainActor @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { _, cr, w, h, data in
        guard let cr, let data else { return }
        let badge = Unmanaged<Badge>.fromOpaque(data).takeUnretainedValue()
        let code = badge.code
        let isBubble = code & 0x1000000 != 0
        // Read at drawing time: a theme switch redraws the badges in the new palette.
        let palette = badge.panel?.palette ?? .light
        let ownFill = code & 0x4000000 != 0
        let fill: MapColor = isBubble && !ownFill ? palette.bubbleRamp[Int(code & 0xFF)] : MapColor(hex: UInt32(code & 0xFFFFFF))
        let radius = isBubble ? 11.0 : 6.0
        cairo_arc(cr, Double(w) / 2, Double(h) / 2, radius, 0, 2 * Double.pi)
        cairo_set_source_rgb(cr, fill.red, fill.green, fill.blue)
        cairo_fill_preserve(cr)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_set_line_width(cr, isBubble ? 2 : 1.5)
        cairo_stroke(cr)
    }

    /// What a row's badge draws (its draw function's data): the packed look, and the panel whose
    /// map's palette colours a plain bubble.
    final class Badge {
        let code: UInt
        weak var panel: InViewPanel?
        init(code: UInt, panel: InViewPanel) { self.code = code; self.panel = panel }
    }
}
