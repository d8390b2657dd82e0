import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel

/// The header bar's search field (SPEC §6): type a place name, pick from up to eight matches
/// (Up/Down, Enter or a click), and the camera flies there and selects the place.
///
/// The name index (`PlaceSearch`) is built off the GTK thread whenever the data changes; a search
/// typed (or an Enter pressed) before it is ready runs when it arrives.
final class SearchField {
    let entry: UnsafeMutablePointer<GtkWidget>
    private let popover: UnsafeMutablePointer<GtkWidget>
    private let list: UnsafeMutablePointer<GtkWidget>
    private var index: PlaceSearch?
    private weak var indexedSession: MapDataSession?
    private var indexGeneration = 0
    private var matches: [PlaceSearch.Match] = []
    /// Enter was pressed before the index was ready.
    private var activateWhenReady = false
    private let eventLog: EventLog
    /// The chrome whose map a chosen place is shown on (given once both exist; see `connect(to:)`).
    private weak var chrome: AppChrome?

    static let resultLimit = 8
    /// The empty field's hint ("Search" alone on a narrow window, NarrowHeader).
    static let placeholder = "Search places"
    /// Zoom the camera flies to for a found place (closer views are kept).
    static let placeZoom = 12.0

    init(eventLog: EventLog) {
        self.eventLog = eventLog
        entry = gtk_search_entry_new()!
        setStringProperty(entry, "placeholder-text", SearchField.placeholder)
        // Shrinks with the window (down to a few characters at 360 px), 300 px when there is room.
        gtk_editable_set_width_chars(opaque(entry), 0)
        gtk_editable_set_max_width_chars(opaque(entry), 34)
        gtk_widget_set_tooltip_text(entry, "Find a place by name (Ctrl+F)")
        gtk_search_entry_set_search_delay(opaque(entry), 60)

        list = gtk_list_box_new()!
        gtk_list_box_set_selection_mode(opaque(list), GTK_SELECTION_BROWSE)
        gtk_list_box_set_activate_on_single_click(opaque(list), 1)
        gtk_widget_add_css_class(list, "cm-search-results")
        gtk_widget_set_focusable(list, 0)

        popover = gtk_popover_new()!
        gtk_popover_set_child(gcast(popover), list)
        gtk_popover_set_autohide(gcast(popover), 0)   // keep typing in the entry
        gtk_popover_set_has_arrow(gcast(popover), 0)
        gtk_popover_set_position(gcast(popover), GTK_POS_BOTTOM)
        gtk_widget_add_css_class(popover, "menu")
        gtk_widget_set_parent(popover, entry)
        gtk_widget_set_size_request(popover, 280, -1)
        // A widget GTK doesn't know as a child must be unparented by hand before its parent is
        // finalized, or every quit warns "Finalizing GtkSearchEntry … still has children left".
        let unparent: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, popover in
            guard let popover else { return }
            gtk_widget_unparent(popover.assumingMemoryBound(to: GtkWidget.self))
        }
        connectSignal(entry, "destroy", unsafeBitCast(unparent, to: GCallback.self), data: gpointer(popover))

        typealias EntryCB = @MainActor @convention(c) (OpaquePointer?, gpointer?) -> Void
        let changed: EntryCB = { _, data in UserData.object(data, as: SearchField.self)?.textDidChange() }
        let activate: EntryCB = { _, data in UserData.object(data, as: SearchField.self)?.activate(row: nil) }
        let stop: EntryCB = { _, data in UserData.object(data, as: SearchField.self)?.stop() }
        connectSignal(entry, "search-changed", unsafeBitCast(changed, to: GCallback.self), owner: self)
        connectSignal(entry, "activate", unsafeBitCast(activate, to: GCallback.self), owner: self)
        connectSignal(entry, "stop-search", unsafeBitCast(stop, to: GCallback.self), owner: self)
        let rowActivated: @MainActor @convention(c) (OpaquePointer?, UnsafeMutablePointer<GtkListBoxRow>?, gpointer?) -> Void = { _, row, data in
            guard let row else { return }
            UserData.object(data, as: SearchField.self)?.activate(row: Int(gtk_list_box_row_get_index(row)))
        }
        connectSignal(list, "row-activated", unsafeBitCast(rowActivated, to: GCallback.self), owner: self)

        // Up/Down move through the matches while the text keeps the focus.
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let pressed: @MainActor @convention(c) (OpaquePointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, _, data in
            guard let s = UserData.object(data, as: SearchField.self) else { return 0 }
            switch Int32(keyval) {
            case GDK_KEY_Down, GDK_KEY_KP_Down: return s.moveSelection(+1) ? 1 : 0
            case GDK_KEY_Up, GDK_KEY_KP_Up: return s.moveSelection(-1) ? 1 : 0
            default: return 0
            }
        }
        connectSignal(keys, "key-pressed", unsafeBitCast(pressed, to: GCallback.self), owner: self)
        addController(keys, to: entry)

        // Leaving the field closes the matches.
        let focus = gtk_event_controller_focus_new()!
        let leave: @MainActor @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            // After a click on a match was handled.
            runAfter(milliseconds: 150) { [weak field = UserData.object(data, as: SearchField.self)] in
                guard let s = field, gtk_widget_has_focus(s.entry) == 0,
                      gtk_widget_is_focus(s.entry) == 0 else { return }
                s.hidePopover()
            }
        }
        connectSignal(focus, "leave", unsafeBitCast(leave, to: GCallback.self), owner: self)
        // Tests type once the field has the focus, instead of sleeping after Ctrl+F.
        let enter: @MainActor @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            UserData.object(data, as: SearchField.self)?.eventLog.emit("widget", [("name", .string("search")), ("focus", .bool(true))])
        }
        connectSignal(focus, "enter", unsafeBitCast(enter, to: GCallback.self), owner: self)
        addController(focus, to: entry)
    }

    /// The chrome that shows a chosen place (made after the field, which it is given).
    func connect(to chrome: AppChrome) { self.chrome = chrome }

    /// Ctrl+F: focus the field with its text selected.
    func focus() {
        gtk_widget_grab_focus(entry)
        gtk_editable_select_region(opaque(entry), 0, -1)
    }

    private var text: String {
        guard let t = gtk_editable_get_text(opaque(entry)) else { return "" }
        return String(cString: t)
    }

    // MARK: Index

    /// Rebuilds the name index for new data (off the GTK thread), or, for a live change of the
    /// shown data (`names`), updates it in place so removed places are no longer offered.
    func dataDidChange(_ session: MapDataSession?, names: MapDataSession.NameChanges? = nil) {
        if let names, let session, var updated = index {
            index = nil  // one reference while it changes (no copy)
            session.update(&updated, with: names)
            index = updated
            indexedSession = session
            eventLog.emit("search-index", [("names", .int(updated.count)), ("live", .bool(true))])
            if !text.isEmpty && gtk_widget_get_visible(popover) != 0 { refresh() }
            return
        }
        indexGeneration += 1
        index = nil
        indexedSession = session
        guard let session else { refresh(); return }
        let generation = indexGeneration
        Thread.detachNewThread { [weak self] in
            let started = ProcessClock.now()
            let search = session.makePlaceSearch()
            let ms = (ProcessClock.now() - started) * 1000
            runOnGtkThread { [weak self] in self?.indexDidLoad(search, generation: generation, ms: ms) }
        }
    }

    private func indexDidLoad(_ search: PlaceSearch, generation: Int, ms: Double) {
        guard generation == indexGeneration else { return }
        index = search
        eventLog.emit("search-index", [("names", .int(search.count)), ("ms", .number(ms.rounded()))])
        if !text.isEmpty { refresh() }
        if activateWhenReady {
            activateWhenReady = false
            activate(row: nil)
        }
    }

    // MARK: Matches

    private func textDidChange() {
        refresh()
    }

    private func refresh() {
        let query = text
        matches = index?.search(query, limit: SearchField.resultLimit) ?? []
        while let row = gtk_widget_get_first_child(list) {
            gtk_list_box_remove(opaque(list), row)
        }
        guard !query.trimmingCharacters(in: .whitespaces).isEmpty, gtk_widget_get_mapped(entry) != 0 else {
            hidePopover(); return
        }
        if index != nil {
            eventLog.emit("search-results", [("query", .string(query)),
                                            ("names", .array(matches.map { .string($0.name) }))])
        }
        if index == nil {
            addInfoRow(indexedSession == nil ? "No places loaded" : "Preparing search…")
        } else if matches.isEmpty {
            addInfoRow("No places match “\(query)”")
        } else {
            for m in matches { addRow(m) }
            if let first = gtk_list_box_get_row_at_index(opaque(list), 0) {
                gtk_list_box_select_row(opaque(list), first)
            }
        }
        gtk_popover_popup(gcast(popover))
    }

    private func addInfoRow(_ text: String) {
        let label = plainLabel(text)
        gtk_widget_add_css_class(label, "dim-label")
        gtk_widget_set_margin_top(label, 6); gtk_widget_set_margin_bottom(label, 6)
        gtk_widget_set_margin_start(label, 8); gtk_widget_set_margin_end(label, 8)
        gtk_list_box_append(opaque(list), label)
        if let row = gtk_list_box_get_row_at_index(opaque(list), 0) {
            gtk_list_box_row_set_activatable(row, 0)
            gtk_list_box_row_set_selectable(row, 0)
        }
    }

    private func addRow(_ m: PlaceSearch.Match) {
        let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 2)!
        gtk_widget_set_margin_top(box, 4); gtk_widget_set_margin_bottom(box, 4)
        gtk_widget_set_margin_start(box, 6); gtk_widget_set_margin_end(box, 6)
        let name = plainLabel(m.name.isEmpty ? "Unnamed place" : m.name)
        gtk_label_set_ellipsize(opaque(name), PANGO_ELLIPSIZE_END)
        gtk_box_append(gcast(box), name)
        if let detail = detail(for: m.index) {
            let sub = plainLabel(detail)
            gtk_widget_add_css_class(sub, "dim-label")
            gtk_widget_add_css_class(sub, "caption")
            gtk_label_set_ellipsize(opaque(sub), PANGO_ELLIPSIZE_END)
            gtk_box_append(gcast(box), sub)
        }
        gtk_list_box_append(opaque(list), box)
        if let row = gtk_widget_get_parent(box) { gtk_widget_set_focusable(row, 0) }
    }

    /// A second line that tells same-named places apart ("Portugal · pop. 517,802").
    private func detail(for point: Int) -> String? {
        indexedSession?.searchDetail(of: point)
    }

    private func moveSelection(_ step: Int) -> Bool {
        guard !matches.isEmpty, gtk_widget_get_visible(popover) != 0 else { return false }
        let current = gtk_list_box_get_selected_row(opaque(list)).map { Int(gtk_list_box_row_get_index($0)) } ?? -1
        let next = max(0, min(matches.count - 1, current + step))
        if let row = gtk_list_box_get_row_at_index(opaque(list), Int32(next)) {
            gtk_list_box_select_row(opaque(list), row)
        }
        return true
    }

    private func hidePopover() {
        if gtk_widget_get_visible(popover) != 0 { gtk_popover_popdown(gcast(popover)) }
    }

    /// Enter (row nil: the highlighted match) or a click on a match: fly there and select it.
    private func activate(row: Int?) {
        guard let index else {
            if indexedSession != nil && !text.isEmpty { activateWhenReady = true }
            return
        }
        // Enter right after typing may come before the delayed search-changed: search now.
        matches = index.search(text, limit: SearchField.resultLimit)
        var chosen = row
        if chosen == nil, let selected = gtk_list_box_get_selected_row(opaque(list)) {
            chosen = Int(gtk_list_box_row_get_index(selected))
        }
        let i = min(max(chosen ?? 0, 0), matches.count - 1)
        guard i >= 0, i < matches.count else { return }
        let match = matches[i]
        hidePopover()
        guard let chrome else { return }
        gtk_widget_grab_focus(chrome.controller.drawingArea)
        chrome.flyTo(point: match.index)
    }

    /// Escape in the field: clear it and give the keys back to the map.
    private func stop() {
        gtk_editable_set_text(opaque(entry), "")
        hidePopover()
        if let c = chrome?.controller { gtk_widget_grab_focus(c.drawingArea) }
    }
}
