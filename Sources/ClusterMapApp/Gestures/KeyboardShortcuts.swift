import CGtk
import MapModel

/// Map keys (SPEC §5.1): arrows pan, `+`/`-` zoom, `0`/Home shows all the data, Escape backs out.
/// Installed on the window in the bubble phase, so a focused text field keeps its own keys.
enum KeyboardShortcuts {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let keys = gtk_event_controller_key_new()!
        let pressed: @MainActor @convention(c) (OpaquePointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let c = UserData.controller(data) else { return 0 }
            let ctrlOrAlt = state.rawValue & (GDK_CONTROL_MASK.rawValue | GDK_ALT_MASK.rawValue)
            guard ctrlOrAlt == 0 else { return 0 }
            return c.handleKey(keyval) ? 1 : 0
        }
        connectSignal(keys, "key-pressed", unsafeBitCast(pressed, to: GCallback.self), owner: controller)
        addController(keys, to: widget)
    }

    /// The navigation key for a GDK key value, if it is one.
    static func navigationKey(_ keyval: UInt32) -> KeyboardNavigationHandler.Key? {
        switch Int32(keyval) {
        case GDK_KEY_Left, GDK_KEY_KP_Left: return .left
        case GDK_KEY_Right, GDK_KEY_KP_Right: return .right
        case GDK_KEY_Up, GDK_KEY_KP_Up: return .up
        case GDK_KEY_Down, GDK_KEY_KP_Down: return .down
        case GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add: return .zoomIn
        case GDK_KEY_minus, GDK_KEY_KP_Subtract, GDK_KEY_underscore: return .zoomOut
        case GDK_KEY_0, GDK_KEY_KP_0, GDK_KEY_Home, GDK_KEY_KP_Home: return .showAll
        default: return nil
        }
    }
}
