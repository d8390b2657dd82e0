import CGtk
import AppSupport
import GeoData

/// A checklist's "All" / "None" links (over the values the search box finds, or all) and the
/// "only" button on each value (review-s16 finding 13): keeping one country of 246 took 245
/// clicks. Buttons, so Tab reaches them and Enter or Space presses them.
extension FilterChecklist {
    /// "All  None" for the checklist, right-aligned over it.
    func allNoneBar() -> UnsafeMutablePointer<GtkWidget> {
        let bar = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
        gtk_widget_set_halign(bar, GTK_ALIGN_END)
        for (text, on) in [("All", true), ("None", false)] {
            let b = smallButton(text)
            let scope = "values of \(property)"
            gtk_widget_set_tooltip_text(b, on ? "Tick every shown value" : "Untick every shown value")
            AccessibleText.setLabel(of: b, to: on ? "Tick all \(scope)" : "Untick all \(scope)")
            let target = FilterCheckTarget(list: self, value: on ? "all" : "none")
            actionTargets.append(target)
            connectSignal(b, "clicked", unsafeBitCast(FilterChecklist.allOrNone, to: GCallback.self), owner: target)
            gtk_box_append(gcast(bar), b)
            if let c = panel?.controller { reportPosition(of: b, name: "filter-\(text.lowercased()):\(property)", eventLog: c.eventLog) }
        }
        return bar
    }

    /// The check box `check` for `item` beside an "only" button.
    func withOnlyButton(_ check: UnsafeMutablePointer<GtkWidget>, item: FilterPanelModel.CheckItem,
                        target: FilterCheckTarget) -> UnsafeMutablePointer<GtkWidget> {
        let line = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 2)!
        gtk_widget_set_hexpand(check, 1)
        let only = smallButton("only")
        gtk_widget_set_tooltip_text(only, "Show only \(item.text)")
        AccessibleText.setLabel(of: only, to: "Only \(item.text)")
        connectSignal(only, "clicked", unsafeBitCast(FilterChecklist.onlyClicked, to: GCallback.self), owner: target)
        gtk_box_append(gcast(line), check)
        gtk_box_append(gcast(line), only)
        if let c = panel?.controller, onlyReported < 12 {
            onlyReported += 1
            reportPosition(of: only, name: "filter-only:\(property)=\(item.text)", eventLog: c.eventLog)
        }
        return line
    }

    private func smallButton(_ text: String) -> UnsafeMutablePointer<GtkWidget> {
        _ = FilterChecklist.style
        let b = gtk_button_new_with_label(text)!
        gtk_widget_add_css_class(b, "flat")
        gtk_widget_add_css_class(b, "caption")
        gtk_widget_add_css_class(b, "cm-filter-small")
        return b
    }

    /// Compact: a row keeps the check box's height.
    @MainActor private static let style: Void = {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, ".cm-filter-small { min-height: 0; padding: 1px 6px; }", -1)
        if let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        g_object_unref(provider)
    }()

    private static let allOrNone: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
        guard let t = UserData.object(data, as: FilterCheckTarget.self), let list = t.list, let panel = list.panel,
              let catalog = panel.catalog, let c = panel.controller else { return }
        let s = FilterPanelModel.tickingAll(t.value == "all", of: list.property, matching: list.search, catalog: catalog,
                                            settings: c.presentation.filterSettings)
        list.apply(s)
    }

    private static let onlyClicked: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
        guard let t = UserData.object(data, as: FilterCheckTarget.self), let list = t.list, let panel = list.panel,
              let catalog = panel.catalog, let c = panel.controller else { return }
        list.apply(FilterPanelModel.tickingOnly(t.value, of: list.property, catalog: catalog, settings: c.presentation.filterSettings))
    }

    /// Asks for `s` and shows its ticks in the boxes at once (the panel's own change is not
    /// rebuilt, so the boxes follow here; the search and the focus stay).
    private func apply(_ s: FilterSettings) {
        guard let panel, let catalog = panel.catalog else { return }
        panel.ask(s)
        showTicks(FilterPanelModel.ticked(property, catalog: catalog, settings: s))
    }
}
