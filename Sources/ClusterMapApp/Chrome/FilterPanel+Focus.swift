import CGtk

/// Where the keyboard focus and the scroll position go when the panel rebuilds its rows (a
/// chip's ✕, Clear, a restored filter): they stay where the person put them (review-s16
/// finding 7). A focused row widget that is removed left the window with no focus, and GTK
/// then gave it to the first drop-down at the next key, so P no longer reached the time bar.
extension FilterPanel {
    /// What to put back after a rebuild: the focused row's position (nil: the focus is not in
    /// the rows) and the scroll offset.
    struct RebuildPlace {
        var focusedRow: Int?
        var scroll: Double
    }

    /// Notes the focused row and the scroll offset before the rows are removed.
    func placeBeforeRebuild() -> RebuildPlace {
        var place = RebuildPlace(focusedRow: nil, scroll: gtk_adjustment_get_value(scrollAdjustment))
        if let focus = gtk_root_get_focus(gtk_widget_get_root(rowsBox)), gtk_widget_is_ancestor(focus, rowsBox) != 0 {
            var k = 0
            var row = gtk_widget_get_first_child(rowsBox)
            while let r = row, !(r == focus || gtk_widget_is_ancestor(focus, r) != 0) { k += 1; row = gtk_widget_get_next_sibling(r) }
            place.focusedRow = k
        }
        return place
    }

    /// Puts the focus back on the same row (its first control) and the scroll where it was.
    func restore(_ place: RebuildPlace) {
        if let k = place.focusedRow {
            var row = gtk_widget_get_first_child(rowsBox)
            for _ in 0..<k { row = row.flatMap { gtk_widget_get_next_sibling($0) } }
            if let r = row ?? gtk_widget_get_last_child(rowsBox) { _ = gtk_widget_child_focus(r, GTK_DIR_TAB_FORWARD) }
        }
        let adjustment = scrollAdjustment
        gtk_adjustment_set_value(adjustment, place.scroll)
        // The new rows are measured at the next layout: set it again once they are.
        g_object_ref(gpointer(adjustment))
        runAfter(milliseconds: 0) {
            gtk_adjustment_set_value(adjustment, place.scroll)
            g_object_unref(gpointer(adjustment))
        }
    }

    private var scrollAdjustment: UnsafeMutablePointer<GtkAdjustment> {
        gtk_scrolled_window_get_vadjustment(OpaquePointer(gtk_widget_get_ancestor(rowsBox, gtk_scrolled_window_get_type())))!
    }
}
