import CGtk

/// A GListModel of text rows whose items are made only when GTK asks for them: a GtkListView
/// asks for the rows on screen, so a list of a million places opens at once and costs a few
/// rows of memory (issue 15 item 2: a GtkListBox of a million labels froze the window for 14 s
/// and took 5 GB).
///
/// The rows are indices into something else (point indices); `text` gives a row's label and is
/// called on the GTK thread as rows come into view.
final class LazyListModel {
    /// The GListModel (a GObject of the type registered below), owning a reference to `self`.
    let object: OpaquePointer
    /// What each row shows, in row order (e.g. point indices).
    private(set) var rows: [Int] = []
    /// The label of a row's value (`labelRows`).
    private(set) var text: (Int) -> String = { String($0) }

    private static let dataKey = "cm-lazy-list-model"

    init() {
        let obj = g_object_new_with_properties(LazyListModel.type, 0, nil, nil)!
        object = OpaquePointer(obj)
        // The GObject keeps its Swift side alive for as long as GTK holds the model.
        g_object_set_data_full(obj, LazyListModel.dataKey, Unmanaged.passRetained(self).toOpaque()) { data in
            Unmanaged<LazyListModel>.fromOpaque(data!).release()
        }
    }

    /// Rows show the label `text` gives their value (asked only for rows in view).
    func labelRows(with text: @escaping (Int) -> String) { self.text = text }

    /// Replaces the rows and tells the views (one `items-changed` for the whole list).
    func setRows(_ new: [Int]) {
        let removed = UInt32(rows.count)
        rows = new
        g_list_model_items_changed(object, 0, removed, UInt32(new.count))
    }

    /// The model as a GObject pointer (for `gtk_single_selection_new`, which takes it over).
    var listModel: OpaquePointer { object }

    private static func model(of list: OpaquePointer?) -> LazyListModel? {
        guard let list, let data = g_object_get_data(UnsafeMutablePointer<GObject>(list), dataKey) else { return nil }
        return Unmanaged<LazyListModel>.fromOpaque(data).takeUnretainedValue()
    }

    /// The GType, registered once: a plain GObject implementing GListModel with items of
    /// GtkStringObject.
    private static let type: GType = {
        var info = GTypeInfo()
        info.class_size = UInt16(MemoryLayout<GObjectClass>.size)
        info.instance_size = UInt16(MemoryLayout<GObject>.size)
        let t = g_type_register_static(g_object_get_type(), "CmLazyListModel", &info, GTypeFlags(rawValue: 0))
        var iface = GInterfaceInfo()
        iface.interface_init = { g_iface, _ in
            let i = g_iface!.assumingMemoryBound(to: GListModelInterface.self)
            i.pointee.get_item_type = { _ in gtk_string_object_get_type() }
            i.pointee.get_n_items = { list in UInt32(LazyListModel.model(of: list)?.rows.count ?? 0) }
            i.pointee.get_item = { list, position in
                guard let m = LazyListModel.model(of: list), Int(position) < m.rows.count else { return nil }
                return gpointer(gtk_string_object_new(m.text(m.rows[Int(position)])))
            }
        }
        g_type_add_interface_static(t, g_list_model_get_type(), &iface)
        return t
    }()
}
