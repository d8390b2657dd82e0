import CGtk
import AppSupport
import GeoData

/// The row over the map while something filters (issue 29 item 1): "12,345 of 1,000,000
/// places", a chip per active condition (each with a close button) and "Clear". Drawn from
/// `FilterPanelModel`; clicks become new settings for the controller.
final class FilterChips {
    let row: UnsafeMutablePointer<GtkWidget>
    private let count: UnsafeMutablePointer<GtkWidget>
    private let chipBox: UnsafeMutablePointer<GtkWidget>
    private let clear: UnsafeMutablePointer<GtkWidget>
    private weak var controller: MapViewController?
    /// The chips' click targets (kept alive while their buttons exist).
    private var targets: [ChipTarget] = []
    private var shown: [FilterPanelModel.Chip] = []
    private var shownText: String?

    init(overlay: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        self.controller = controller
        row = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_add_css_class(row, "cm-filter-chips")
        gtk_widget_set_halign(row, GTK_ALIGN_CENTER)
        gtk_widget_set_valign(row, GTK_ALIGN_START)
        gtk_widget_set_margin_top(row, 10)
        AccessibleText.setLabel(of: row, to: "Active filters")
        count = plainLabel("")
        gtk_widget_add_css_class(count, "cm-filter-count")
        gtk_widget_add_css_class(count, "numeric")
        chipBox = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        clear = gtk_button_new_with_label("Clear")!
        gtk_widget_add_css_class(clear, "flat")
        gtk_widget_set_tooltip_text(clear, "Show every place again")
        AccessibleText.setLabel(of: clear, to: "Clear all filters")
        connectSignal(clear, "clicked", unsafeBitCast(FilterChips.clearClicked, to: GCallback.self), owner: self)
        for w in [count, chipBox, clear] { gtk_box_append(gcast(row), w) }
        gtk_widget_set_visible(row, 0)
        gtk_overlay_add_overlay(opaque(overlay), row)
    }

    /// Shows `chips` and the count (hidden when nothing filters).
    func update(chips: [FilterPanelModel.Chip], placesText: String?) {
        let visible = !chips.isEmpty
        gtk_widget_set_visible(row, visible ? 1 : 0)
        if placesText != shownText {
            shownText = placesText
            gtk_label_set_text(opaque(count), placesText ?? "")
            if let c = controller, let placesText { c.eventLog.emit("filter-count", [("text", .string(placesText))]) }
        }
        guard chips != shown else { return }
        shown = chips
        while let child = gtk_widget_get_first_child(chipBox) { gtk_box_remove(gcast(chipBox), child) }
        targets = []
        for chip in chips {
            let b = gtk_button_new()!
            gtk_widget_add_css_class(b, "cm-filter-chip")
            let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
            let label = plainLabel(chip.text)
            gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
            // The time window's chip holds two dates and may hold their minutes: room for them.
            gtk_label_set_max_width_chars(opaque(label), chip.removal == .timeWindow ? 40 : 28)
            gtk_box_append(gcast(box), label)
            gtk_box_append(gcast(box), gtk_image_new_from_icon_name("window-close-symbolic"))
            gtk_button_set_child(gcast(b), box)
            gtk_widget_set_tooltip_text(b, chip.accessibleLabel)
            AccessibleText.setLabel(of: b, to: chip.accessibleLabel)
            let target = ChipTarget(chips: self, removal: chip.removal)
            targets.append(target)
            connectSignal(b, "clicked", unsafeBitCast(FilterChips.chipClicked, to: GCallback.self), owner: target)
            gtk_box_append(gcast(chipBox), b)
        }
        reportPositions()
    }

    /// Logs where the chips and Clear are (tests click them there) — again whenever the row moves
    /// (the filter panel opening or closing shifts it), so the last report is where they stand.
    func reportPositions() {
        guard let c = controller, !shown.isEmpty else { return }
        for (k, w) in childWidgets(chipBox).enumerated() { reportPosition(of: w, name: "filter-chip-\(k)", eventLog: c.eventLog) }
        reportPosition(of: clear, name: "filter-clear", eventLog: c.eventLog)
    }

    private func childWidgets(_ box: UnsafeMutablePointer<GtkWidget>) -> [UnsafeMutablePointer<GtkWidget>] {
        var out: [UnsafeMutablePointer<GtkWidget>] = []
        var w = gtk_widget_get_first_child(box)
        while let x = w { out.append(x); w = gtk_widget_get_next_sibling(x) }
        return out
    }

    fileprivate func remove(_ removal: FilterPanelModel.Removal) {
        guard let c = controller else { return }
        c.setFilter(FilterPanelModel.removing(removal, from: c.presentation.filterSettings))
    }

    private static let clearClicked: @convention(c) (UnsafeMutablePointer<GtkButton>?, gpointer?) -> Void = { _, data in
        guard let chips = UserData.object(data, as: FilterChips.self), let c = chips.controller else { return }
        c.setFilter(FilterPanelModel.clearing(c.presentation.filterSettings))
    }

    private static let chipClicked: @convention(c) (UnsafeMutablePointer<GtkButton>?, gpointer?) -> Void = { _, data in
        guard let target = UserData.object(data, as: ChipTarget.self) else { return }
        target.chips?.remove(target.removal)
    }
}

/// What one chip's close button removes.
private final class ChipTarget {
    weak var chips: FilterChips?
    let removal: FilterPanelModel.Removal
    init(chips: FilterChips, removal: FilterPanelModel.Removal) {
        self.chips = chips
        self.removal = removal
    }
}
