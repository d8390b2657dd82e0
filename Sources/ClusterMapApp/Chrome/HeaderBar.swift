import CGtk

/// Fills the header bar (SPEC §6): Open and the dataset menu as one linked group at the start,
/// the search field as the title, the main menu at the end.
enum HeaderBar {
    static func build(_ header: UnsafeMutablePointer<GtkWidget>, datasets: DatasetMenu, search: SearchField, menu: MainMenu) {
        let h = opaque(header)
        // An icon, so the header fits a 360-px window (SPEC §6, issue 12 item 7).
        let open = gtk_button_new_from_icon_name("document-open-symbolic")!
        gtk_actionable_set_action_name(opaque(open), "win.open")
        gtk_widget_set_tooltip_text(open, "Open GeoJSON or CSV files (Ctrl+O)")
        AccessibleText.setLabel(of: open, to: "Open")
        let group = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_widget_add_css_class(group, "linked")
        gtk_box_append(gcast(group), open)
        gtk_box_append(gcast(group), datasets.button)
        gtk_header_bar_pack_start(h, group)
        gtk_header_bar_set_title_widget(h, search.entry)
        gtk_header_bar_pack_end(h, menu.button)
    }
}
