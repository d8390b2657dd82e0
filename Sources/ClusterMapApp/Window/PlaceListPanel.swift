import CGtk
import Foundation
import AppSupport

/// A card over the map listing many places to pick from (a same-spot bubble with more than 50
/// members, SPEC §5.4), with a search field that filters by name. Picking a row selects it.
///
/// Opens at once at any size (issue 15 item 2): the rows are a `LazyListModel` over the point
/// indices in a GtkListView, so only the rows on screen are made and only their names fetched.
/// Filtering a big list runs off the GTK thread; each new search supersedes the last.
/// Logs `{"event":"place-list","rows":N,"query":…}` whenever the rows change.
final class PlaceListPanel {
    let root: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    private let search: UnsafeMutablePointer<GtkWidget>
    private let listView: UnsafeMutablePointer<GtkWidget>
    private let model = LazyListModel()
    /// Every member's point index, in list order; the model shows the ones matching the search.
    private var all: [Int] = []
    private var nameOf: @Sendable (Int) -> String = { _ in "" }
    private var filterGeneration = 0
    private var filterCancel: CancelFlag?
    /// Called with the picked point index.
    private(set) var onPick: ((Int) -> Void)?
    /// Called when the list's close button is pressed.
    private(set) var onClose: (() -> Void)?

    /// Lists up to this long are filtered on the GTK thread (a few milliseconds).
    static let syncFilterLimit = 5_000

    /// The point indices shown, in row order.
    var points: [Int] { model.rows }

    private let eventLog: EventLog

    init(eventLog: EventLog) {
        self.eventLog = eventLog
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
        // The selection model takes over the list model's reference; the view takes the selection's.
        let selection = gtk_single_selection_new(model.listModel)!
        g_object_ref(UnsafeMutableRawPointer(model.listModel))   // `model` keeps its own
        listView = gtk_list_view_new(selection, PlaceListPanel.rowFactory())
        gtk_widget_add_css_class(listView, "navigation-sidebar")
        gtk_list_view_set_single_click_activate(opaque(listView), 1)
        gtk_scrolled_window_set_child(opaque(scroller), listView)
        gtk_widget_set_margin_bottom(scroller, 8)

        gtk_box_append(gcast(root), header)
        gtk_box_append(gcast(root), search)
        gtk_box_append(gcast(root), scroller)
        gtk_widget_set_visible(root, 0)
        connectSignals(close: close)
    }

    /// Puts the (hidden) panel over the map, above what the overlay holds so far.
    func attach(to overlay: UnsafeMutablePointer<GtkWidget>) {
        gtk_overlay_add_overlay(opaque(overlay), root)
    }

    private func connectSignals(close: UnsafeMutablePointer<GtkWidget>) {
        let activated: @MainActor @convention(c) (OpaquePointer?, UInt32, gpointer?) -> Void = { _, position, data in
            UserData.object(data, as: PlaceListPanel.self)?.pick(row: Int(position))
        }
        connectSignal(listView, "activate", unsafeBitCast(activated, to: GCallback.self), owner: self)
        let closed: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            UserData.object(data, as: PlaceListPanel.self)?.onClose?()
        }
        connectSignal(close, "clicked", unsafeBitCast(closed, to: GCallback.self), owner: self)
        let changed: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            UserData.object(data, as: PlaceListPanel.self)?.searchDidChange()
        }
        connectSignal(search, "search-changed", unsafeBitCast(changed, to: GCallback.self), owner: self)
        // Enter in the search field picks the first match.
        let enter: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            UserData.object(data, as: PlaceListPanel.self)?.pick(row: 0)
        }
        connectSignal(search, "activate", unsafeBitCast(enter, to: GCallback.self), owner: self)
        // Escape in the search field (its "stop-search") closes the list, as the close button's
        // "Close (Esc)" says; the entry took the key, so the window never saw it.
        connectSignal(search, "stop-search", unsafeBitCast(closed, to: GCallback.self), owner: self)
    }

    /// Rows are plain labels (names are text, never markup), filled as they come into view.
    private static func rowFactory() -> OpaquePointer {
        let factory = gtk_signal_list_item_factory_new()!
        typealias ItemCB = @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        let setup: ItemCB = { _, item, _ in
            let label = gtk_label_new(nil)!
            gtk_label_set_xalign(opaque(label), 0)
            gtk_label_set_ellipsize(opaque(label), PANGO_ELLIPSIZE_END)
            gtk_list_item_set_child(item, label)
        }
        let bind: ItemCB = { _, item, _ in
            guard let label = gtk_list_item_get_child(item), let obj = gtk_list_item_get_item(item) else { return }
            gtk_label_set_text(opaque(label), gtk_string_object_get_string(OpaquePointer(obj)))
        }
        connectSignal(factory, "setup", unsafeBitCast(setup, to: GCallback.self))
        connectSignal(factory, "bind", unsafeBitCast(bind, to: GCallback.self))
        return factory
    }

    /// Whether the panel is showing.
    var isShown: Bool { gtk_widget_get_visible(root) != 0 }

    /// What picking a row and closing the list do (its owner's, given as the list opens).
    func setActions(pick: @escaping (Int) -> Void, close: @escaping () -> Void) {
        onPick = pick
        onClose = close
    }

    /// Shows `points` (named by `name`, fetched only for rows in view) near a point of the map.
    func show(title text: String, points: [Int], name: @escaping @Sendable (Int) -> String,
              near p: (x: Double, y: Double), in size: (w: Double, h: Double)) {
        filterCancel?.cancel()
        filterGeneration += 1
        all = points
        nameOf = name
        model.labelRows(with: name)
        gtk_label_set_text(opaque(title), text)
        gtk_editable_set_text(opaque(search), "")   // (a change here filters nothing: same rows)
        setRows(points, query: "")
        // Beside the bubble, kept inside the map.
        let x = min(max(8, p.x + 24), max(8, size.w - 300))
        let y = min(max(8, p.y - 40), max(8, size.h - 340))
        gtk_widget_set_margin_start(root, Int32(x))
        gtk_widget_set_margin_top(root, Int32(y))
        gtk_widget_set_visible(root, 1)
        gtk_widget_grab_focus(search)
    }

    func hide() {
        filterCancel?.cancel()
        gtk_widget_set_visible(root, 0)
    }

    private func pick(row: Int) {
        let rows = model.rows
        if row >= 0 && row < rows.count { onPick?(rows[row]) }
    }

    private func setRows(_ rows: [Int], query: String) {
        if rows != model.rows || rows.isEmpty { model.setRows(rows) }
        eventLog.emit("place-list", [("rows", .int(rows.count)), ("query", .string(query))])
    }

    private func searchDidChange() {
        let query = gtk_editable_get_text(opaque(search)).map { String(cString: $0).lowercased() } ?? ""
        filterCancel?.cancel()
        filterGeneration += 1
        guard !query.isEmpty else { setRows(all, query: ""); return }
        let all = self.all, nameOf = self.nameOf
        if all.count <= PlaceListPanel.syncFilterLimit {
            setRows(all.filter { nameOf($0).lowercased().contains(query) }, query: query)
            return
        }
        // Big lists filter in the background; a newer search cancels this one.
        let generation = filterGeneration
        let cancel = CancelFlag()
        filterCancel = cancel
        Thread.detachNewThread { [weak self] in
            var matches: [Int] = []
            for (k, i) in all.enumerated() {
                if k & 4095 == 0 && cancel.isCancelled { return }
                if nameOf(i).lowercased().contains(query) { matches.append(i) }
            }
            let result = matches
            runOnGtkThread { [weak self] in
                guard let panel = self, panel.filterGeneration == generation else { return }
                panel.setRows(result, query: query)
            }
        }
    }
}
