import CGtk

/// A card over the map listing many places to pick from (a same-spot bubble with more than 50
/// members, SPEC §5.4), with a search field that filters by name. Picking a row selects it.
final class PlaceListPanel {
    let root: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let search: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    /// Point indices of the rows, in row order.
    private(set) var points: [Int] = []
    private var names: [String] = []
    /// Called with the picked point index.
    var onPick: ((Int) -> Void)?
    var onClose: (() -> Void)?

    init(overlay: UnsafeMutablePointer<GtkWidget>) {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 6)
        gtk_widget_add_css_class(root, "background")
        gtk_widget_add_css_class(root, "card")
        gtk_widget_set_halign(root, GTK_ALIGN_START)
        gtk_widget_set_valign(root, GTK_ALIGN_START)
        gtk_widget_set_size_request(root, 280, -1)
        let header = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_margin_top(header, 8); gtk_widget_set_margin_start(header, 10); gtk_widget_set_margin_end(header, 6)
        title = gtk_label_new("")
        gtk_widget_add_css_class(title, "heading")
        gtk_widget_set_hexpand(title, 1)
        gtk_label_set_xalign(opaque(title), 0)
        let close = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(close, "flat")
        gtk_widget_set_tooltip_text(close, "Close (Esc)")
        gtk_box_append(gcast(header), title)
        gtk_box_append(gcast(header), close)

        search = gtk_search_entry_new()
        gtk_widget_set_margin_start(search, 8); gtk_widget_set_margin_end(search, 8)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(opaque(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_min_content_height(opaque(scroller), 260)
        gtk_scrolled_window_set_max_content_height(opaque(scroller), 260)
        list = gtk_list_box_new()
        gtk_widget_add_css_class(list, "navigation-sidebar")
        gtk_scrolled_window_set_child(opaque(scroller), list)
        gtk_widget_set_margin_bottom(scroller, 8)

        gtk_box_append(gcast(root), header)
        gtk_box_append(gcast(root), search)
        gtk_box_append(gcast(root), scroller)
        gtk_widget_set_visible(root, 0)
        gtk_overlay_add_overlay(opaque(overlay), root)

        let activated: @convention(c) (OpaquePointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = { _, row, _ in
            guard let row, let panel = MapApplication.window?.placeList else { return }
            let i = Int(gtk_list_box_row_get_index(row))
            if i >= 0 && i < panel.points.count { panel.onPick?(panel.points[i]) }
        }
        connectSignal(list, "row-activated", unsafeBitCast(activated, to: GCallback.self))
        let closed: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, _ in
            MapApplication.window?.placeList.onClose?()
        }
        connectSignal(close, "clicked", unsafeBitCast(closed, to: GCallback.self))
        let changed: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, _ in
            guard let panel = MapApplication.window?.placeList else { return }
            gtk_list_box_invalidate_filter(opaque(panel.list))
        }
        connectSignal(search, "search-changed", unsafeBitCast(changed, to: GCallback.self))
        let filter: @convention(c) (UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> gboolean = { row, _ in
            guard let row, let panel = MapApplication.window?.placeList else { return 1 }
            return panel.matches(row: Int(gtk_list_box_row_get_index(row))) ? 1 : 0
        }
        gtk_list_box_set_filter_func(opaque(list), filter, nil, nil)
    }

    /// Whether the panel is showing.
    var isShown: Bool { gtk_widget_get_visible(root) != 0 }

    /// Shows `names` for `points` near a screen position of the map.
    func show(title text: String, points: [Int], names: [String], near p: (x: Double, y: Double), in size: (w: Double, h: Double)) {
        self.points = points
        self.names = names.map { $0.lowercased() }
        gtk_label_set_text(opaque(title), text)
        gtk_editable_set_text(opaque(search), "")
        while let child = gtk_widget_get_first_child(list) { gtk_list_box_remove(opaque(list), child) }
        for n in names {
            let label = gtk_label_new(n)!
            gtk_label_set_xalign(opaque(label), 0)
            gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
            gtk_list_box_append(opaque(list), label)
        }
        // Beside the bubble, kept inside the map.
        let x = min(max(8, p.x + 24), max(8, size.w - 300))
        let y = min(max(8, p.y - 40), max(8, size.h - 340))
        gtk_widget_set_margin_start(root, Int32(x))
        gtk_widget_set_margin_top(root, Int32(y))
        gtk_widget_set_visible(root, 1)
        gtk_widget_grab_focus(search)
    }

    func hide() { gtk_widget_set_visible(root, 0) }

    private func matches(row: Int) -> Bool {
        let text = gtk_editable_get_text(opaque(search)).map { String(cString: $0).lowercased() } ?? ""
        guard !text.isEmpty, row >= 0, row < names.count else { return true }
        return names[row].contains(text)
    }
}
