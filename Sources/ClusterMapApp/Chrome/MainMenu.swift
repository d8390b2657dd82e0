import CGtk

/// The main menu (SPEC §6): Reduce Motion and Dark Style (stateful `win.` actions, shown as check
/// items), Keyboard Shortcuts, About and Quit. F10 opens it (a primary menu).
final class MainMenu {
    let button: UnsafeMutablePointer<GtkWidget>
    private let reduceMotion: OpaquePointer
    private let darkStyle: OpaquePointer

    init(window: UnsafeMutablePointer<GtkWidget>, reducedMotion: Bool, dark: Bool) {
        typealias ChangeState = @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        func toggle(_ name: String, _ on: Bool, _ cb: ChangeState) -> OpaquePointer {
            let a = g_simple_action_new_stateful(name, nil, g_variant_new_boolean(on ? 1 : 0))!
            connectSignal(a, "change-state", unsafeBitCast(cb, to: GCallback.self))
            g_action_map_add_action(OpaquePointer(window), a)
            return a
        }
        reduceMotion = toggle("reduce-motion", reducedMotion) { action, value, _ in
            guard let action, let value else { return }
            g_simple_action_set_state(action, value)
            currentChrome?.setReducedMotion(g_variant_get_boolean(value) != 0)
        }
        darkStyle = toggle("dark-style", dark) { action, value, _ in
            guard let action, let value else { return }
            g_simple_action_set_state(action, value)
            currentChrome?.setDarkStyle(g_variant_get_boolean(value) != 0)
        }

        let menu = g_menu_new()!
        let view = g_menu_new()!
        g_menu_append(view, "_Reduce Motion", "win.reduce-motion")
        g_menu_append(view, "_Dark Style", "win.dark-style")
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
        for m in [view, help, quit, menu] { unref(m) }
    }

    /// Keeps the check marks in step when the preference changes elsewhere (restored state).
    func setChecks(reducedMotion: Bool, dark: Bool) {
        g_simple_action_set_state(reduceMotion, g_variant_new_boolean(reducedMotion ? 1 : 0))
        g_simple_action_set_state(darkStyle, g_variant_new_boolean(dark ? 1 : 0))
    }
}
