import CGtk
import AppSupport
import GeoData

/// A number or date row of the filter panel: a small histogram of the data (the chosen range's
/// bars drawn stronger) over two sliders, "from" and "to", each with its value shown.
final class FilterRangeRow {
    weak var panel: FilterPanel?
    let property: String
    private(set) var control: FilterPanelModel.RangeControl
    let box: UnsafeMutablePointer<GtkWidget>
    private let histogram: UnsafeMutablePointer<GtkWidget>
    private let lower: UnsafeMutablePointer<GtkWidget>
    private let upper: UnsafeMutablePointer<GtkWidget>
    private let lowerText: UnsafeMutablePointer<GtkWidget>
    private let upperText: UnsafeMutablePointer<GtkWidget>

    init(panel: FilterPanel, property: String, control r: FilterPanelModel.RangeControl) {
        self.panel = panel
        self.property = property
        control = r
        box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        histogram = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_height(gcast(histogram), 36)
        // The bars say nothing a screen reader needs beyond the row's label and the sliders.
        hideFromAccessibility(histogram)
        func scale(_ value: Double, _ name: String) -> UnsafeMutablePointer<GtkWidget> {
            let s = gtk_scale_new_with_range(GTK_ORIENTATION_HORIZONTAL, r.bounds.lowerBound,
                                             max(r.bounds.upperBound, r.bounds.lowerBound + r.step), r.step)!
            gtk_scale_set_draw_value(gcast(s), 0)
            // No fill from the track's start: the histogram's strong bars show the range chosen.
            gtk_widget_add_css_class(s, "cm-filter-end")
            gtk_range_set_value(gcast(s), value)
            AccessibleText.setLabel(of: s, to: name)
            return s
        }
        lower = scale(r.lower, "\(property) from")
        upper = scale(r.upper, "\(property) to")
        lowerText = plainLabel(r.lowerText)
        upperText = plainLabel(r.upperText, xalign: 1)
        for l in [lowerText, upperText] {
            gtk_widget_add_css_class(l, "numeric")
            gtk_widget_add_css_class(l, "caption")
            gtk_widget_set_hexpand(l, 1)
        }
        let texts = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 0)!
        gtk_box_append(gcast(texts), lowerText)
        gtk_box_append(gcast(texts), upperText)
        for w in [histogram, lower, upper, texts] { gtk_box_append(gcast(box), w) }
        gtk_drawing_area_set_draw_func(gcast(histogram), FilterRangeRow.draw, UserData.retain(self), UserData.release)
        for s in [lower, upper] {
            connectSignal(s, "value-changed", unsafeBitCast(FilterRangeRow.changed, to: GCallback.self), owner: self)
            // Seen before the slider's own drag handling (capture): the button let go ends a drag.
            let events = gtk_event_controller_legacy_new()!
            gtk_event_controller_set_propagation_phase(events, GTK_PHASE_CAPTURE)
            connectSignal(events, "event", unsafeBitCast(FilterRangeRow.event, to: GCallback.self), owner: self)
            addController(events, to: s)
        }
        if let c = panel.controller {
            reportBounds(of: lower, name: "filter-range:\(property):from", eventLog: c.eventLog)
            reportBounds(of: upper, name: "filter-range:\(property):to", eventLog: c.eventLog)
        }
    }

    /// Shows `r` (texts, bars; the sliders only when they differ, so a drag is left alone).
    func show(_ r: FilterPanelModel.RangeControl, label: String) {
        control = r
        gtk_label_set_text(opaque(lowerText), r.lowerText)
        gtk_label_set_text(opaque(upperText), r.upperText)
        if abs(gtk_range_get_value(gcast(lower)) - r.lower) > r.step / 2 { gtk_range_set_value(gcast(lower), r.lower) }
        if abs(gtk_range_get_value(gcast(upper)) - r.upper) > r.step / 2 { gtk_range_set_value(gcast(upper), r.upper) }
        if let parent = gtk_widget_get_parent(box) { AccessibleText.setLabel(of: parent, to: label) }
        gtk_widget_queue_draw(histogram)
    }

    private static let changed: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
        guard let row = UserData.object(data, as: FilterRangeRow.self), let panel = row.panel,
              let catalog = panel.catalog, let c = panel.controller else { return }
        let lo = gtk_range_get_value(gcast(row.lower)), hi = gtk_range_get_value(gcast(row.upper))
        panel.ask(FilterPanelModel.settingRange(of: row.property, lower: lo, upper: hi, catalog: catalog,
                                                settings: c.presentation.filterSettings))
    }

    private static let event: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> gboolean = { _, event, data in
        if let event, gdk_event_get_event_type(event) == GDK_BUTTON_RELEASE {
            UserData.object(data, as: FilterRangeRow.self)?.panel?.rangeReleased()
        }
        return 0
    }

    private static let draw: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { a, cr, w, h, data in
        guard let a, let cr, let row = UserData.object(data, as: FilterRangeRow.self) else { return }
        let bins = row.control.histogram
        guard let top = bins.max(), top > 0 else { return }
        var rgba = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(asWidget(a)), &rgba)
        let barWidth = Double(w) / Double(bins.count)
        for (k, n) in bins.enumerated() where n > 0 {
            // Square root: a few large bars must not flatten the rest to nothing.
            let height = max(1.5, (Double(n) / Double(top)).squareRoot() * Double(h - 2))
            let strong = k < row.control.barsInRange.count && row.control.barsInRange[k]
            cairo_set_source_rgba(cr, Double(rgba.red), Double(rgba.green), Double(rgba.blue), strong ? 0.7 : 0.18)
            cairo_rectangle(cr, Double(k) * barWidth + 0.5, Double(h) - height, barWidth - 1, height)
            cairo_fill(cr)
        }
    }
}

extension FilterPanel {
    /// A range slider was let go: the drag is over. Once the map shows the filter asked last,
    /// `filter-settled` logs it (expression, passing, places): the value the drag settled on.
    func rangeReleased() {
        settlePending = true
        reportSettledIfLanded()
    }

    /// Logs `filter-settled` when a drag ended and the filter asked last is shown (none in flight).
    func reportSettledIfLanded() {
        guard settlePending, let c = controller else { return }
        let p = c.presentation, asked = p.filterSettings
        guard asked.isEmpty ? p.shownFilter == nil : p.shownFilter?.settings == asked else { return }
        settlePending = false
        let places = p.shownFilter?.total ?? c.session?.clusterer.count ?? 0
        c.eventLog.emit("filter-settled", [("expression", .string(p.shownFilter?.expression ?? "")),
                                           ("passing", .int(p.shownFilter?.passing ?? places)), ("places", .int(places))])
    }
}

/// Logs `widget-bounds {name, x, y, width, height}` (window surface coordinates of the widget's
/// top-left corner) once it is laid out: a test drags a slider from its end.
func reportBounds(of widget: UnsafeMutablePointer<GtkWidget>, name: String, eventLog: EventLog, attempt: Int = 0) {
    g_object_ref(gpointer(widget))
    runAfter(milliseconds: attempt == 0 ? 150 : 80) {
        defer { g_object_unref(gpointer(widget)) }
        guard gtk_widget_get_root(widget) != nil else { return }
        guard let center = surfaceCenter(of: widget) else {
            if attempt < 50 { reportBounds(of: widget, name: name, eventLog: eventLog, attempt: attempt + 1) }
            return
        }
        let w = Double(gtk_widget_get_width(widget)), h = Double(gtk_widget_get_height(widget))
        eventLog.emit("widget-bounds", [("name", .string(name)), ("x", .number((center.x - w / 2).rounded())),
                                        ("y", .number((center.y - h / 2).rounded())), ("width", .number(w)), ("height", .number(h))])
    }
}

/// Hides a decorative widget from the accessibility tree.
func hideFromAccessibility(_ widget: UnsafeMutablePointer<GtkWidget>) {
    var value = GValue()
    g_value_init(&value, GType(5 << G_TYPE_FUNDAMENTAL_SHIFT)) // G_TYPE_BOOLEAN
    g_value_set_boolean(&value, 1)
    var states = [GTK_ACCESSIBLE_STATE_HIDDEN]
    gtk_accessible_update_state_value(OpaquePointer(widget), 1, &states, &value)
    g_value_unset(&value)
}
