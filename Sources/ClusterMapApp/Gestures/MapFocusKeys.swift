import CGtk

/// Keys that move keyboard focus over the map's items (SPEC §5.7): Tab / Shift+Tab in reading
/// order, Enter or Space to activate, Shift+Enter or Menu for a bubble's card, Escape to back out. On the map widget itself, so Tab only
/// walks the items while the map has focus and leaves it after the last one.
enum MapFocusKeys {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let keys = gtk_event_controller_key_new()!
        let pressed: @MainActor @convention(c) (OpaquePointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let c = UserData.controller(data) else { return 0 }
            let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
            switch Int32(keyval) {
            case GDK_KEY_Tab, GDK_KEY_KP_Tab:
                // An open card's buttons come first (real buttons: a screen reader names them).
                return (!shift && c.cardButtons.focusFirst()) || c.moveFocus(forward: !shift) ? 1 : 0
            case GDK_KEY_ISO_Left_Tab:
                return c.moveFocus(forward: false) ? 1 : 0
            case GDK_KEY_Menu:
                return c.openFocusedBubbleCard() ? 1 : 0
            // Shift+Enter on a place still selects it (only a bubble has a card).
            case GDK_KEY_Return where shift, GDK_KEY_KP_Enter where shift:
                return c.openFocusedBubbleCard() || c.activateFocused() ? 1 : 0
            case GDK_KEY_Return, GDK_KEY_KP_Enter, GDK_KEY_space:
                return c.activateFocused() ? 1 : 0
            default:
                return 0
            }
        }
        connectSignal(keys, "key-pressed", unsafeBitCast(pressed, to: GCallback.self), owner: controller)
        addController(keys, to: widget)
    }
}
