import CGtk
import Foundation
import AppSupport
import GeoData

/// The filter panel (issue 29 item 1): a header toggle ("Filter", F8) opens a side panel over
/// the map's left edge with a section per property — its type (a drop-down to override the
/// guess), then a checklist with counts, a range with a small histogram, or a "contains"
/// field. Every control has an accessible name. What it shows comes from `FilterPanelModel`
/// (pure, tested); a change becomes new settings for the controller, which works the filter out
/// in the background (the newest change wins while a slider is dragged).
final class FilterPanel {
    let root: UnsafeMutablePointer<GtkWidget>
    let toggle: UnsafeMutablePointer<GtkWidget>
    let rowsBox: UnsafeMutablePointer<GtkWidget>
    private let status: UnsafeMutablePointer<GtkWidget>
    weak var controller: MapViewController?
    /// The properties as last read, and for which engine (session) and types.
    private(set) var catalog: FilterCatalog?
    private var catalogKey: (engine: ObjectIdentifier, types: [String: PropertyType])?
    private var catalogRequested: (engine: ObjectIdentifier, types: [String: PropertyType])?
    /// Signal targets of the built rows (kept alive while their widgets exist).
    var targets: [AnyObject] = []
    /// The range rows' widgets, by property (updated in place while a slider moves).
    var ranges: [String: FilterRangeRow] = [:]
    /// Set while rows are built or synced: their signals are not the person's.
    var isBuilding = false
    /// The settings the rows show: those they were built for, or the panel's own last change
    /// (when the controller reports those back the rows are not rebuilt: a dragged slider keeps
    /// its grab).
    var builtSettings: FilterSettings?
    /// A range slider was let go and its filter has not landed yet (`filter-settled` then).
    var settlePending = false
    /// Opened and not built yet: the first build takes the focus into the rows.
    private var focusOnFirstBuild = false

    static let actionName = "show-filters"
    static let width: Int32 = 330

    init(overlay: UnsafeMutablePointer<GtkWidget>, header: UnsafeMutablePointer<GtkWidget>,
         window: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        self.controller = controller
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(root, "cm-filter-panel")
        gtk_widget_add_css_class(root, "view")
        gtk_widget_set_size_request(root, FilterPanel.width, -1)
        gtk_widget_set_halign(root, GTK_ALIGN_START)
        gtk_widget_set_valign(root, GTK_ALIGN_FILL)
        AccessibleText.setLabel(of: root, to: "Filters")

        let heading = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_margin_top(heading, 10); gtk_widget_set_margin_bottom(heading, 4)
        gtk_widget_set_margin_start(heading, 14); gtk_widget_set_margin_end(heading, 8)
        let title = plainLabel("Filters")
        gtk_widget_add_css_class(title, "heading")
        gtk_widget_set_hexpand(title, 1)
        let close = gtk_button_new_from_icon_name("window-close-symbolic")!
        gtk_widget_add_css_class(close, "flat")
        gtk_widget_set_tooltip_text(close, "Close the filters (F8)")
        AccessibleText.setLabel(of: close, to: "Close the filters")
        gtk_actionable_set_action_name(opaque(close), "win.\(FilterPanel.actionName)")
        gtk_box_append(gcast(heading), title)
        gtk_box_append(gcast(heading), close)
        gtk_box_append(gcast(root), heading)

        status = plainLabel("")
        gtk_label_set_wrap(opaque(status), 1)
        gtk_widget_set_margin_start(status, 14); gtk_widget_set_margin_end(status, 14)
        gtk_widget_add_css_class(status, "dim-label")
        gtk_box_append(gcast(root), status)

        rowsBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 14)!
        gtk_widget_set_margin_start(rowsBox, 14); gtk_widget_set_margin_end(rowsBox, 14)
        gtk_widget_set_margin_top(rowsBox, 6); gtk_widget_set_margin_bottom(rowsBox, 14)
        let scroller = gtk_scrolled_window_new()!
        gtk_scrolled_window_set_policy(opaque(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(opaque(scroller), rowsBox)
        gtk_widget_set_vexpand(scroller, 1)
        gtk_box_append(gcast(root), scroller)
        gtk_widget_set_visible(root, 0)
        gtk_overlay_add_overlay(opaque(overlay), root)

        // A funnel, drawn (the icon theme has none): a word would not fit a 360-px header.
        toggle = gtk_toggle_button_new()!
        let funnel = gtk_drawing_area_new()!
        gtk_drawing_area_set_content_width(gcast(funnel), 16)
        gtk_drawing_area_set_content_height(gcast(funnel), 16)
        gtk_drawing_area_set_draw_func(gcast(funnel), FilterPanel.drawFunnel, nil, nil)
        gtk_button_set_child(gcast(toggle), funnel)
        hideFromAccessibility(funnel)  // the button's own name says it
        gtk_widget_set_tooltip_text(toggle, "Show only some places (F8)")
        AccessibleText.setLabel(of: toggle, to: "Filters")
        gtk_actionable_set_action_name(opaque(toggle), "win.\(FilterPanel.actionName)")
        gtk_header_bar_pack_start(opaque(header), toggle)
        installAction(window: window)
        FilterPanel.installStyle()
        // Escape anywhere in the panel closes it and gives the keys back to the map.
        let keys = gtk_event_controller_key_new()!
        let pressed: @convention(c) (OpaquePointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, _, data in
            guard Int32(keyval) == GDK_KEY_Escape, let panel = UserData.object(data, as: FilterPanel.self) else { return 0 }
            panel.close()
            return 1
        }
        connectSignal(keys, "key-pressed", unsafeBitCast(pressed, to: GCallback.self), owner: self)
        addController(keys, to: root)
    }

    private func installAction(window: UnsafeMutablePointer<GtkWidget>) {
        let action = g_simple_action_new_stateful(FilterPanel.actionName, nil, g_variant_new_boolean(0))!
        self.action = action
        let changeState: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { action, value, data in
            guard let action, let value else { return }
            g_simple_action_set_state(action, value)
            UserData.object(data, as: FilterPanel.self)?.setShown(g_variant_get_boolean(value) != 0)
        }
        connectSignal(action, "change-state", unsafeBitCast(changeState, to: GCallback.self), owner: self)
        g_action_map_add_action(OpaquePointer(window), action)
        if let app = gtk_window_get_application(gcast(window)) {
            withCStringArray(["F8"]) { gtk_application_set_accels_for_action(app, "win.\(FilterPanel.actionName)", $0) }
        }
        reportPosition(of: toggle, name: "filter-toggle", eventLog: controller!.eventLog)
    }

    /// The stateful `win.show-filters` action (its state is whether the panel is open).
    private var action: OpaquePointer?

    var isShown: Bool { gtk_widget_get_visible(root) != 0 }

    /// Opens or closes the panel; open, it reads the properties if needed and takes the focus.
    func setShown(_ shown: Bool) {
        guard shown != isShown, let c = controller else { return }
        gtk_widget_set_visible(root, shown ? 1 : 0)
        c.eventLog.emit("filter-panel", [("shown", .bool(shown))])
        (c.chrome as? AppChrome)?.filterPanelDidShow(shown)
        if shown {
            // The focus goes in once now, or on the first build if the properties are still being read.
            focusOnFirstBuild = true
            refresh()
            if gtk_widget_get_first_child(rowsBox) != nil { focusOnFirstBuild = false; focusFirstControl() }
        } else {
            focusOnFirstBuild = false
            gtk_widget_grab_focus(c.drawingArea)
        }
    }

    /// Closes the panel through its action (so the header toggle follows).
    func close() {
        if let action { g_simple_action_set_state(action, g_variant_new_boolean(0)) }
        setShown(false)
    }

    /// Keyboard and screen-reader users land on the first control (a type drop-down).
    func focusFirstControl() {
        _ = gtk_widget_child_focus(rowsBox, GTK_DIR_TAB_FORWARD)
    }

    /// The filter, the data or the types changed: read the properties again if the catalog is
    /// out of date, and rebuild the rows unless the change came from the panel itself.
    func refresh() {
        reportSettledIfLanded()
        guard isShown, let c = controller else { return }
        guard let source = c.filterCatalogSource() else {
            gtk_label_set_text(opaque(status), "No places loaded.")
            return
        }
        let types = c.presentation.filterSettings.types
        let key = (source.id, types)
        if catalogKey.map({ $0.engine != key.0 || $0.types != key.1 }) ?? true {
            if catalogRequested.map({ $0.engine == key.0 && $0.types == key.1 }) != true {
                catalogRequested = key
                requestCatalog(source, types: types)
            }
            return
        }
        // Rebuilt only when the settings changed from outside (a chip, Clear, a restored
        // filter, new properties); the panel's own changes and new counts update in place.
        // A time-bar step changes only the window: the date row and the count move in place, so
        // the focus, the scroll position and the frame rate stay (review-s16 finding 7).
        let asked = c.presentation.filterSettings
        if builtSettings != asked && FilterPanelRefresh.decide(built: builtSettings, asked: asked) == .rebuild { build() } else {
            builtSettings = asked
            syncInPlace()
        }
    }

    private func requestCatalog(_ source: FilterCatalogSource, types: [String: PropertyType]) {
        gtk_label_set_text(opaque(status), "Reading the places' properties…")
        gtk_widget_set_visible(status, 1)
        let target = FilterPanelTarget(self)
        let started = ProcessClock.now()
        Thread.detachNewThread {
            let catalog = source.read(types)
            let ms = (ProcessClock.now() - started) * 1000
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let panel = target.panel else { return }
                panel.catalogDidArrive(catalog, engine: source.id, types: types, ms: ms)
            }
        }
    }

    private func catalogDidArrive(_ catalog: FilterCatalog, engine: ObjectIdentifier, types: [String: PropertyType], ms: Double) {
        guard let r = catalogRequested, r.engine == engine, r.types == types else { return }
        self.catalog = catalog
        catalogKey = (engine, types)
        catalogRequested = nil
        controller?.eventLog.emit("filter-catalog", [("properties", .int(catalog.properties.count)),
                                                     ("ms", .number(ms.rounded()))])
        builtSettings = nil
        refresh()
    }

    /// The model for what is shown now.
    func model() -> FilterPanelModel? {
        guard let catalog, let c = controller else { return nil }
        var model = FilterPanelModel(catalog: catalog, settings: c.presentation.filterSettings,
                                     passing: c.presentation.shownFilter?.passing)
        c.adjustForTable(&model)  // a table: the server's count
        return model
    }

    /// Rebuilds every row.
    private func build() {
        guard let model = model(), let c = controller else { return }
        isBuilding = true
        defer { isBuilding = false }
        builtSettings = c.presentation.filterSettings
        let place = placeBeforeRebuild()
        while let child = gtk_widget_get_first_child(rowsBox) { gtk_box_remove(gcast(rowsBox), child) }
        targets = []
        ranges = [:]
        let text = model.rows.isEmpty ? "These places have no properties to filter on." : (model.placesText ?? "Every place shows.")
        gtk_label_set_text(opaque(status), text)
        for row in model.rows { gtk_box_append(gcast(rowsBox), section(for: row)) }
        restore(place)
        // Opened before the properties were read: the focus goes in once there is something (only
        // then: a rebuild later, for a chip's ✕ or Clear, leaves it where the person put it).
        if focusOnFirstBuild, gtk_root_get_focus(gtk_widget_get_root(root)) == c.drawingArea { focusFirstControl() }
        focusOnFirstBuild = false
        c.eventLog.emit("filter-rows", [("rows", .array(model.rows.map { .string($0.property + ":" + $0.type.rawValue) }))])
    }

    /// Updates what a change made by the panel itself changes (range texts, histogram bars, the
    /// count) without rebuilding: a dragged slider keeps its grab.
    private func syncInPlace() {
        guard let model = model() else { return }
        isBuilding = true
        defer { isBuilding = false }
        gtk_label_set_text(opaque(status), model.placesText ?? "Every place shows.")
        for row in model.rows {
            if case .range(let r) = row.control { ranges[row.property]?.show(r, label: row.accessibleLabel) }
        }
    }

    /// Asks the controller for `settings` (made by one of the panel's controls).
    func ask(_ settings: FilterSettings) {
        guard !isBuilding, let c = controller, settings != c.presentation.filterSettings else { return }
        builtSettings = settings
        c.setFilter(settings)
    }

    /// The toggle's funnel in the button's text colour.
    private static let drawFunnel: @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { a, cr, w, h, _ in
        guard let a, let cr else { return }
        var rgba = GdkRGBA()
        gtk_style_context_get_color(gtk_widget_get_style_context(asWidget(a)), &rgba)
        cairo_set_source_rgba(cr, Double(rgba.red), Double(rgba.green), Double(rgba.blue), Double(rgba.alpha))
        let s = Double(min(w, h)) / 16, x0 = (Double(w) - 16 * s) / 2, y0 = (Double(h) - 16 * s) / 2
        func p(_ x: Double, _ y: Double) -> (Double, Double) { (x0 + x * s, y0 + y * s) }
        let pts = [p(1.5, 2), p(14.5, 2), p(9.5, 8.5), p(9.5, 14.5), p(6.5, 12.5), p(6.5, 8.5)]
        cairo_move_to(cr, pts[0].0, pts[0].1)
        for q in pts.dropFirst() { cairo_line_to(cr, q.0, q.1) }
        cairo_close_path(cr)
        cairo_fill(cr)
    }

    private static func installStyle() {
        let provider = gtk_css_provider_new()!
        gtk_css_provider_load_from_data(provider, """
        .cm-filter-panel { border-right: 1px solid alpha(@theme_fg_color, 0.15); box-shadow: 2px 0 10px alpha(black, 0.22); }
        .cm-filter-panel .cm-filter-name { font-weight: bold; }
        .cm-filter-chips {
          background: @theme_base_color; color: @theme_fg_color; border-radius: 18px; padding: 3px 4px 3px 12px;
          box-shadow: 0 1px 4px alpha(black, 0.28), 0 0 0 1px alpha(black, 0.10);
        }
        .cm-filter-chips .cm-filter-count { font-weight: bold; margin-right: 4px; }
        .cm-filter-chip { border-radius: 14px; padding: 2px 8px; min-height: 24px; }
        scale.cm-filter-end trough highlight { background-image: none; background-color: transparent; border-color: transparent; box-shadow: none; }
        """, -1)
        if let display = gdk_display_get_default() {
            gtk_style_context_add_provider_for_display(display, OpaquePointer(provider), UInt32(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        }
        g_object_unref(provider)
    }
}

/// The panel a background catalog goes back to (weakly: a closed window gets nothing).
final class FilterPanelTarget: @unchecked Sendable {
    weak var panel: FilterPanel?
    init(_ panel: FilterPanel) { self.panel = panel }
}
