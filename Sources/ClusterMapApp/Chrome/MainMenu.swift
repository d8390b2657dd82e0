import AppSupport
import CGtk

/// The main menu (SPEC §6): Reduce Motion and Dark Style (stateful `win.` actions, shown as check
/// items), Keyboard Shortcuts, About and Quit. F10 opens it (a primary menu).
final class MainMenu {
    let button: UnsafeMutablePointer<GtkWidget>
    /// "Map": `builtin`, `osm`, `maptiler`, or `other` (a tile file or a custom URL).
    private let basemap: OpaquePointer
    /// The actions and what they do, connected to the chrome once it exists (`connect(to:)`).
    private var handlers: [(action: OpaquePointer, signal: String, callback: GCallback)] = []

    init(window: UnsafeMutablePointer<GtkWidget>, reducedMotion: Bool, dark: Bool) {
        typealias ChangeState = @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        // The window's action map keeps the actions (their check marks follow their state).
        var handlers: [(action: OpaquePointer, signal: String, callback: GCallback)] = []
        func toggle(_ name: String, _ on: Bool, _ cb: ChangeState) {
            let a = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(on ? 1 : 0))!
            handlers.append((a, "change-state", unsafeBitCast(cb, to: GCallback.self)))
            g_action_map_add_action(OpaquePointer(window), a)
        }
        toggle("reduce-motion", reducedMotion) { action, value, data in
            guard let action, let value else { return }
            g_simple_action_set_state(action, value)
            UserData.object(data, as: AppChrome.self)?.setReducedMotion(g_variant_get_boolean(value) != 0)
        }
        toggle("dark-style", dark) { action, value, data in
            guard let action, let value else { return }
            g_simple_action_set_state(action, value)
            UserData.object(data, as: AppChrome.self)?.setDarkStyle(g_variant_get_boolean(value) != 0)
        }

        typealias Activate = @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        basemap = g_simple_action_new_stateful("basemap", g_variant_type_new("s"), g_variant_new_string("builtin"))!
        let chooseMap: ChangeState = { action, value, data in
            guard let action, let value, let chrome = UserData.object(data, as: AppChrome.self) else { return }
            let choice = String(cString: g_variant_get_string(value, nil))
            g_simple_action_set_state(action, value)
            switch choice {
            case "osm": chrome.controller.switchBaseMap(to: LaunchOptions.openStreetMapTemplate)
            case "builtin": chrome.controller.switchBaseMap(to: nil)
            case "maptiler": chrome.chooseMapTiler()
            default: break
            }
        }
        handlers.append((basemap, "change-state", unsafeBitCast(chooseMap, to: GCallback.self)))
        g_action_map_add_action(OpaquePointer(window), basemap)
        let openTiles = g_simple_action_new("open-tile-file", nil)!
        let openTilesCallback: Activate = { _, _, data in UserData.object(data, as: AppChrome.self)?.fileOpening.showChooser() }
        handlers.append((openTiles, "activate", unsafeBitCast(openTilesCallback, to: GCallback.self)))
        g_action_map_add_action(OpaquePointer(window), openTiles)

        let customURL = g_simple_action_new("custom-tile-url", nil)!
        let customURLCallback: Activate = { _, _, data in UserData.object(data, as: AppChrome.self)?.chooseCustomTileURL() }
        handlers.append((customURL, "activate", unsafeBitCast(customURLCallback, to: GCallback.self)))
        self.handlers = handlers
        g_action_map_add_action(OpaquePointer(window), customURL)

        let menu = g_menu_new()!
        let map = g_menu_new()!
        g_menu_append(map, "_Built-in Map (offline)", "win.basemap::builtin")
        g_menu_append(map, "_OpenStreetMap (online)", "win.basemap::osm")
        g_menu_append(map, "_MapTiler Streets (online)…", "win.basemap::maptiler")
        g_menu_append(map, "Custom Tile _URL…", "win.custom-tile-url")
        g_menu_append(map, "Open _Tile File…", "win.open-tile-file")
        g_menu_append_section(menu, "Map", menuModel(map))
        let data = g_menu_new()!
        g_menu_append(data, "Refresh _Now", "win.refresh-now")
        g_menu_append(data, "Connect to _Database…", "win.connect-database")
        g_menu_append_section(menu, nil, menuModel(data))
        unref(data)
        let view = g_menu_new()!
        g_menu_append(view, "_Reduce Motion", "win.reduce-motion")
        g_menu_append(view, "_Dark Style", "win.dark-style")
        g_menu_append(view, "_Time Bar", "win.time-bar")
        g_menu_append_section(menu, nil, menuModel(view))
        let help = g_menu_new()!
        g_menu_append(help, "_Keyboard Shortcuts", "win.show-help-overlay")
        g_menu_append(help, "_About ClusterMap", "win.about")
        g_menu_append_section(menu, nil, menuModel(help))
        let quit = g_menu_new()!
        g_menu_append(quit, "_Quit", "win.quit")
        g_menu_append_section(menu, nil, menuModel(quit))

        button = gtk_menu_button_new()!
        gtk_menu_button_set_icon_name(opaque(button), "open-menu-symbolic")
        gtk_menu_button_set_menu_model(opaque(button), menuModel(menu))
        gtk_menu_button_set_primary(opaque(button), 1)
        gtk_widget_set_tooltip_text(button, "Main Menu (F10)")
        for m in [map, view, help, quit, menu] { unref(m) }
    }

    /// Connects the menu's actions to the chrome (made after the menu, which it holds): each
    /// callback finds the chrome in its user data.
    func connect(to chrome: AppChrome) {
        for h in handlers { connectSignal(h.action, h.signal, h.callback, owner: chrome) }
        handlers = []
    }

    /// Shows which map is in use (the radio items), without switching anything.
    func setBasemap(_ source: String?) {
        let state: String
        switch source {
        case nil: state = "builtin"
        case LaunchOptions.openStreetMapTemplate: state = "osm"
        case let s? where MapTilerSource.isMapTiler(s): state = "maptiler"
        default: state = "other"  // a tile file or a custom URL: no radio item checked
        }
        g_simple_action_set_state(basemap, g_variant_new_string(state))
    }
}
