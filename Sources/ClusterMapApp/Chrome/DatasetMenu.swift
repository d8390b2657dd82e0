import CGtk
import AppSupport
import GeoData

/// The header bar's dataset menu (SPEC §6): the bundled datasets as radio items on the stateful
/// `win.dataset` action; choosing one loads it and then fits the camera to it. The button's
/// label names what the map shows.
final class DatasetMenu {
    let button: UnsafeMutablePointer<GtkWidget>
    private let title: UnsafeMutablePointer<GtkWidget>
    /// The button's icon, shown instead of the name on a narrow window.
    private let icon: UnsafeMutablePointer<GtkWidget>
    private let action: OpaquePointer
    /// The chrome it loads through (it is made after the menu; see `connect(to:)`).
    private weak var chrome: AppChrome?

    init(window: UnsafeMutablePointer<GtkWidget>, initial: String?) {
        let type = g_variant_type_new("s")
        action = g_simple_action_new_stateful("dataset", type, g_variant_new_string(initial ?? ""))
        g_variant_type_free(type)
        g_action_map_add_action(OpaquePointer(window), action)

        let menu = g_menu_new()!
        let bundled = g_menu_new()!
        for ds in DatasetCatalog.all {
            let item = g_menu_item_new(ds.title, nil)!
            g_menu_item_set_action_and_target_value(item, "win.dataset", g_variant_new_string(ds.id))
            g_menu_append_item(bundled, item)
            unref(item)
        }
        g_menu_append_section(menu, "Bundled Datasets", menuModel(bundled))
        // The live path with no network: the earthquakes added in time order.
        let live = g_menu_new()!
        let replay = g_menu_item_new(DatasetMenu.replayTitle, nil)!
        g_menu_item_set_action_and_target_value(replay, "win.dataset", g_variant_new_string(LaunchOptions.liveEarthquakes))
        g_menu_append_item(live, replay)
        unref(replay)
        g_menu_append_section(menu, "Live Demo", menuModel(live))
        let files = g_menu_new()!
        g_menu_append(files, "Open Files…", "win.open")
        g_menu_append(files, "Save Places As…", "win.save-places")   // FileOpening+Saving.swift
        g_menu_append_section(menu, nil, menuModel(files))

        button = gtk_menu_button_new()!
        gtk_menu_button_set_menu_model(opaque(button), menuModel(menu))
        // The name ellipsizes on narrow windows (a plain menu-button label never shrinks).
        let content = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 4)!
        title = gtk_label_new(nil)!
        gtk_label_set_ellipsize(opaque(title), PANGO_ELLIPSIZE_END)
        gtk_label_set_max_width_chars(opaque(title), 24)
        icon = gtk_image_new_from_icon_name("view-list-symbolic")!
        gtk_widget_set_visible(icon, 0)
        gtk_box_append(gcast(content), icon)
        gtk_box_append(gcast(content), title)
        gtk_box_append(gcast(content), gtk_image_new_from_icon_name("pan-down-symbolic"))
        gtk_menu_button_set_child(opaque(button), content)
        gtk_widget_set_tooltip_text(button, "Bundled datasets")
        unref(bundled); unref(live); unref(files); unref(menu)
        setTitle(initial == LaunchOptions.liveEarthquakes ? DatasetMenu.replayTitle
                 : initial.flatMap { DatasetCatalog.dataset(id: $0)?.title } ?? "Data")
    }

    /// The menu's name for the earthquake replay (`live-earthquakes`).
    static let replayTitle = "Earthquakes, Replayed Live"

    /// Names what the map shows.
    func setTitle(_ title: String) {
        gtk_label_set_text(opaque(self.title), title)
        AccessibleText.setLabel(of: button, to: "Data: \(title)")
        updateTooltip()
    }

    /// On a narrow window the button is an icon (its name was only "…" there); the tooltip and
    /// the accessible label still name the data.
    private(set) var isIconOnly = false {
        didSet {
            gtk_widget_set_visible(title, isIconOnly ? 0 : 1)
            gtk_widget_set_visible(icon, isIconOnly ? 1 : 0)
            updateTooltip()
        }
    }

    private func updateTooltip() {
        let name = gtk_label_get_text(opaque(title)).map { String(cString: $0) } ?? ""
        gtk_widget_set_tooltip_text(button, isIconOnly && !name.isEmpty ? "Data: \(name)" : "Bundled datasets")
    }

    /// Makes the button an icon (narrow window) or its data's name again.
    func setIconOnly(_ iconOnly: Bool) {
        isIconOnly = iconOnly
    }

    /// Marks a dataset as the one shown ("" when the map shows opened files).
    func setCurrent(_ id: String?) {
        g_simple_action_set_state(action, g_variant_new_string(id ?? ""))
    }

    /// Connects the menu's action to the chrome, which the callback finds in its user data.
    func connect(to chrome: AppChrome) {
        self.chrome = chrome
        let change: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { action, value, data in
            guard let value, let s = g_variant_get_string(value, nil) else { return }
            UserData.object(data, as: AppChrome.self)?.datasetMenu.choose(String(cString: s))
        }
        connectSignal(action, "change-state", unsafeBitCast(change, to: GCallback.self), owner: chrome)
    }

    private func choose(_ id: String) {
        if id == LaunchOptions.liveEarthquakes, let chrome {
            chrome.controller.eventLog.emit("open", [("dataset", .string(id)), ("from", .string("menu"))])
            chrome.willLoad(title: DatasetMenu.replayTitle, dataset: id)
            chrome.controller.loadReplay()
            return
        }
        guard let chrome, let ds = DatasetCatalog.dataset(id: id) else { return }
        guard let dir = chrome.controller.dataDirectory else {
            chrome.show(message: "Cannot find the bundled data folder (set CLUSTERMAP_DATA_DIR).", isError: true)
            return
        }
        chrome.controller.eventLog.emit("open", [("dataset", .string(id)), ("from", .string("menu"))])
        chrome.willLoad(title: ds.title, dataset: ds.id)
        chrome.controller.load(files: [ds.path(in: dir)], datasets: [ds])
    }
}
