import CGtk
import Foundation
import AppSupport
import MapModel
import MapRender

/// The list of what is in view, beside the map (SPEC §5.7): a GtkListView with one row per bubble
/// ("9 places" / "mostly museum") and per place (name / label), in the same reading order as Tab.
/// Selecting a place row selects it on the map (and the map's selection selects its row);
/// activating a row (Enter, double click) does what clicking the item on the map does.
final class InViewPanel {
    /// The panel: a heading and the list, shown beside the map.
    let root: UnsafeMutablePointer<GtkWidget>
    let listView: UnsafeMutablePointer<GtkWidget>
    private let countLabel: UnsafeMutablePointer<GtkWidget>
    private let emptyLabel: UnsafeMutablePointer<GtkWidget>
    private let scroller: UnsafeMutablePointer<GtkWidget>
    /// The bottom of the panel, where the legend shows too (SPEC §7).
    let legendSlot: UnsafeMutablePointer<GtkWidget>
    /// The map area the panel sits beside (wide windows) or over (narrow ones).
    private var map: UnsafeMutablePointer<GtkWidget>?
    /// Whether the panel floats over the map (the window is too narrow to put it beside).
    private(set) var isOverlaying = false
    private let strings: OpaquePointer
    private let selection: OpaquePointer
    /// The rows shown, in list order.
    private(set) var rows: [InViewRow] = []
    /// The selected place's callout text, read out as the description of its row.
    private(set) var selectedDescription: (id: SceneItemID, text: String)?
    /// The map it lists (given once both exist; see `attach(controller:)`).
    private weak var controller: MapViewController?
    /// True while the panel itself changes the list's selection (not the person).
    private var isSyncing = false
    /// The header-bar toggle (nil until installed).
    private(set) var toggle: UnsafeMutablePointer<GtkWidget>?

    static let actionName = "show-list"
    static let width: Int32 = 300

    init() {
        root = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)
        gtk_widget_add_css_class(root, "view")
        gtk_widget_set_size_request(root, InViewPanel.width, -1)
        gtk_widget_set_hexpand(root, 0) // rows expand inside the panel, not the panel beside the map
        AccessibleText.setLabel(of: root, to: "In view")

        let heading = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 6)!
        gtk_widget_set_margin_top(heading, 12); gtk_widget_set_margin_bottom(heading, 6)
        gtk_widget_set_margin_start(heading, 16); gtk_widget_set_margin_end(heading, 16)
        let title = gtk_label_new("In View")!
        gtk_widget_add_css_class(title, "heading")
        gtk_label_set_xalign(opaque(title), 0)
        gtk_widget_set_hexpand(title, 1)
        countLabel = gtk_label_new("")
        gtk_widget_add_css_class(countLabel, "dim-label")
        gtk_widget_add_css_class(countLabel, "caption")
        gtk_box_append(gcast(heading), title)
        gtk_box_append(gcast(heading), countLabel)

        strings = gtk_string_list_new(nil)
        selection = gtk_single_selection_new(strings)
        gtk_single_selection_set_autoselect(selection, 0)
        gtk_single_selection_set_can_unselect(selection, 1)
        let factory = gtk_signal_list_item_factory_new()!
        listView = gtk_list_view_new(selection, factory)
        gtk_widget_add_css_class(listView, "navigation-sidebar")
        AccessibleText.setLabel(of: listView, to: "Places in view")
        scroller = gtk_scrolled_window_new()
        gtk_scrolled_window_set_policy(opaque(scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        gtk_scrolled_window_set_child(opaque(scroller), listView)
        gtk_widget_set_vexpand(scroller, 1)

        emptyLabel = gtk_label_new("Nothing in view.\nMove the map or zoom out.")
        gtk_label_set_justify(opaque(emptyLabel), GTK_JUSTIFY_CENTER)
        gtk_widget_add_css_class(emptyLabel, "dim-label")
        gtk_widget_set_vexpand(emptyLabel, 1)
        gtk_widget_set_valign(emptyLabel, GTK_ALIGN_CENTER)
        gtk_widget_set_visible(emptyLabel, 0)

        gtk_box_append(gcast(root), heading)
        gtk_box_append(gcast(root), scroller)
        gtk_box_append(gcast(root), emptyLabel)
        legendSlot = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_box_append(gcast(root), legendSlot)
        gtk_widget_add_css_class(root, "cm-inview")
        gtk_widget_set_halign(root, GTK_ALIGN_END)
        gtk_widget_set_visible(root, 0)

        connectSignal(factory, "setup", unsafeBitCast(InViewPanel.setupRow, to: GCallback.self))
        connectSignal(factory, "bind", unsafeBitCast(InViewPanel.bindRow, to: GCallback.self), owner: self)
        let activated: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, UInt32, gpointer?) -> Void = { _, position, data in
            UserData.object(data, as: InViewPanel.self)?.activate(row: Int(position))
        }
        connectSignal(listView, "activate", unsafeBitCast(activated, to: GCallback.self), owner: self)
        let changed: @MainActor @convention(c) (OpaquePointer?, UInt32, UInt32, gpointer?) -> Void = { _, _, _, data in
            UserData.object(data, as: InViewPanel.self)?.selectionDidChange()
        }
        connectSignal(selection, "selection-changed", unsafeBitCast(changed, to: GCallback.self), owner: self)
    }

    /// The map controller the panel lists and drives (made after the panel, which it is given).
    func attach(controller: MapViewController) { self.controller = controller }

    /// The map's palette (the badges' bubble colours).
    var palette: MapPalette { controller?.renderer.palette ?? .light }

    /// The map with the panel on its right, hidden until toggled. An overlay, so that the one
    /// panel can sit beside the map on wide windows (the map gives it room) and float over it on
    /// narrow ones, as the GNOME HIG's adaptive sidebars do.
    func wrap(map: UnsafeMutablePointer<GtkWidget>, drawingArea: UnsafeMutablePointer<GtkWidget>) -> UnsafeMutablePointer<GtkWidget> {
        self.map = map
        let overlay = gtk_overlay_new()!
        gtk_widget_set_hexpand(map, 1)
        gtk_overlay_set_child(opaque(overlay), map)
        gtk_overlay_add_overlay(opaque(overlay), root)
        // The map's size changes with the window: re-decide beside/over once layout is done.
        let resized: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, Int32, Int32, gpointer?) -> Void = { _, _, _, data in
            guard let panel = UserData.object(data, as: InViewPanel.self) else { return }
            runOnGtkThread { [weak panel] in panel?.adaptToWindowWidth() }
        }
        connectSignal(drawingArea, "resize", unsafeBitCast(resized, to: GCallback.self), owner: self)
        return overlay
    }

    /// Below this window width the panel floats over the map instead of narrowing it.
    static let overlayBelowWindowWidth = 720

    /// Puts the panel beside the map (wide) or over it (narrow), sized for the window.
    func adaptToWindowWidth() {
        guard let map, let native = gtk_widget_get_native(root) else { return }
        let windowWidth = Int(gtk_widget_get_width(asWidget(native)))
        guard windowWidth > 0 else { return }
        let overlaying = windowWidth < InViewPanel.overlayBelowWindowWidth
        let width = overlaying ? min(Int(InViewPanel.width), max(200, windowWidth - 48)) : Int(InViewPanel.width)
        if overlaying != isOverlaying {
            isOverlaying = overlaying
            if overlaying { gtk_widget_add_css_class(root, "cm-floating") } else { gtk_widget_remove_css_class(root, "cm-floating") }
            controller?.eventLog.emit("list-panel-layout", [("overlay", .bool(overlaying))])
        }
        gtk_widget_set_size_request(root, Int32(width), -1)
        let margin = Int32(isShown && !overlaying ? width : 0)
        if gtk_widget_get_margin_end(map) != margin { gtk_widget_set_margin_end(map, margin) }
    }

    var isShown: Bool { gtk_widget_get_visible(root) != 0 }

    // MARK: Toggle (header bar button, F9, window action)

    /// Adds the stateful `win.show-list` action, its F9 accelerator and a toggle button at the end
    /// of the header bar.
    func installToggle(window: UnsafeMutablePointer<GtkWidget>, header: UnsafeMutablePointer<GtkWidget>) {
        let action = g_simple_action_new_stateful(InViewPanel.actionName, nil, g_variant_new_boolean(0))!
        let changeState: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { action, value, data in
            guard let action, let value else { return }
            g_simple_action_set_state(action, value)
            UserData.object(data, as: InViewPanel.self)?.setShown(g_variant_get_boolean(value) != 0)
        }
        connectSignal(action, "change-state", unsafeBitCast(changeState, to: GCallback.self), owner: self)
        g_action_map_add_action(OpaquePointer(window), action)
        if let app = gtk_window_get_application(gcast(window)) {
            var accels: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("F9")), nil]
            gtk_application_set_accels_for_action(app, "win.\(InViewPanel.actionName)", &accels)
            free(UnsafeMutableRawPointer(mutating: accels[0]))
        }
        let button = gtk_toggle_button_new()!
        gtk_button_set_icon_name(gcast(button), "sidebar-show-right-symbolic")
        gtk_widget_set_tooltip_text(button, "Show the places in view (F9)")
        AccessibleText.setLabel(of: button, to: "List of places in view")
        gtk_actionable_set_action_name(opaque(button), "win.\(InViewPanel.actionName)")
        gtk_header_bar_pack_end(opaque(header), button)
        toggle = button
    }

    /// Told when the panel opens or closes (the map's legend card steps aside while it is open).
    private(set) var onShownChange: ((Bool) -> Void)?

    /// Sets who is told when the panel opens or closes.
    func setShownChange(_ action: @escaping (Bool) -> Void) {
        onShownChange = action
    }

    /// Shows or hides the panel; shown, it is filled at once and takes keyboard focus.
    func setShown(_ shown: Bool) {
        guard shown != isShown else { return }
        gtk_widget_set_visible(root, shown ? 1 : 0)
        onShownChange?(shown)
        adaptToWindowWidth()
        guard let c = controller, !c.isClosed else { return }
        if shown {
            // Where the window's own coordinates (those of the accessibility tree) start in its
            // surface (CSD margins), so tests can click rows found through AT-SPI with xdotool.
            var sx = 0.0, sy = 0.0
            if let native = gtk_widget_get_native(root) { gtk_native_get_surface_transform(native, &sx, &sy) }
            c.eventLog.emit("list-panel", [("shown", .bool(true)), ("origin_x", .number(sx)), ("origin_y", .number(sy))])
            update(from: c, force: true)
            gtk_widget_grab_focus(rows.isEmpty ? c.drawingArea : listView)
        } else {
            c.eventLog.emit("list-panel", [("shown", .bool(false))])
            gtk_widget_grab_focus(c.drawingArea)
        }
    }

    // MARK: Rows

    /// Refreshes the rows from the controller's last scene (at rest; not every frame) and logs
    /// them when they changed.
    func update(from c: MapViewController, force: Bool = false) {
        guard isShown, let session = c.session else { return }
        let order = FocusNavigator.readingOrder(c.lastScene, viewport: c.camera.viewportSize).map(\.id)
        let new = session.inViewRows(order: order, scene: c.lastScene)
        let description = c.sceneState.callout.map { callout in
            (id: SceneItemID.point(callout.pointIndex), text: ([callout.title] + callout.lines).joined(separator: ". "))
        }
        let describedBefore = selectedDescription
        selectedDescription = description
        isSyncing = true
        if let splice = ListSplice.between(rows, new) {
            rows = new
            var added: [UnsafeMutablePointer<CChar>?] = new[splice.inserted].map { strdup("\($0.id.logID)") }
            added.append(nil)
            added.withUnsafeBufferPointer { buf in
                buf.baseAddress!.withMemoryRebound(to: UnsafePointer<CChar>?.self, capacity: buf.count) {
                    gtk_string_list_splice(strings, UInt32(splice.position), UInt32(splice.removed), $0)
                }
            }
            for p in added { free(p) }
            logRows(c)
        } else if force {
            logRows(c)
        }
        // Rebind the rows whose description (the selected place's callout text) changed.
        for d in [describedBefore?.id, description?.id].compactMap({ $0 }) where describedBefore?.text != description?.text {
            if let i = rows.firstIndex(where: { $0.id == d }) { g_list_model_items_changed(strings, UInt32(i), 1, 1) }
        }
        syncSelection(with: c)
        isSyncing = false
        let places = rows.reduce(0) { $0 + $1.count }
        gtk_label_set_text(opaque(countLabel), rows.isEmpty ? "" : "\(MapDataSession.formatted(places)) \(session.noun(count: places))")
        gtk_widget_set_visible(scroller, rows.isEmpty ? 0 : 1)
        gtk_widget_set_visible(emptyLabel, rows.isEmpty ? 1 : 0)
    }

    /// The data was renumbered (a remote source's next view): until the rows are read again from
    /// the next scene, a place row activates its place's new index, or nothing when it left.
    func renumber(_ newID: (Int) -> Int?) {
        for k in rows.indices {
            guard case .point(let i) = rows[k].id else { continue }
            rows[k].id = .point(newID(i) ?? -1)
        }
    }

    private func logRows(_ c: MapViewController) {
        let list: [JSONValue] = rows.map {
            .object([("id", .int($0.id.logID)), ("name", .string($0.name)), ("kind", .string($0.kind.rawValue)),
                     ("count", .int($0.count))])
        }
        c.eventLog.emit("list", [("rows", .array(list))])
    }

    /// The map's selected place selects its row (or nothing).
    private func syncSelection(with c: MapViewController) {
        var position = UInt32(GTK_INVALID_LIST_POSITION)
        if let sel = c.sceneState.selectedPoint, let i = rows.firstIndex(where: { $0.id == .point(sel) }) {
            position = UInt32(i)
        } else if let current = selectedRow, case .bubble = current.kind {
            return // a bubble row the person picked stays picked
        }
        if gtk_single_selection_get_selected(selection) != position {
            gtk_single_selection_set_selected(selection, position)
        }
    }

    private var selectedRow: InViewRow? {
        let i = Int(gtk_single_selection_get_selected(selection))
        return rows.indices.contains(i) ? rows[i] : nil
    }

    /// The person picked a row: a place is selected on the map; a bubble gets the map's focus ring.
    private func selectionDidChange() {
        guard !isSyncing, let c = controller, !c.isClosed, let row = selectedRow else { return }
        switch row.id {
        case .point(let i):
            if c.sceneState.selectedPoint != i { c.select(point: i) }
        case .cluster:
            c.setFocus(row.id)
        }
    }

    /// Enter or double click on a row: what clicking the item on the map does.
    private func activate(row position: Int) {
        guard rows.indices.contains(position), let c = controller, !c.isClosed else { return }
        let row = rows[position]
        c.eventLog.emit("list-activate", [("id", .int(row.id.logID)), ("kind", .string(row.kind.rawValue))])
        switch row.id {
        case .cluster: c.activateBubble(row.id)
        case .point(let i): c.select(point: i)
        }
    }
}
