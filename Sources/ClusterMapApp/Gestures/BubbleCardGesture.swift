import CGtk
import MapModel

/// A secondary click (right button) on a bubble opens its card (issue 29 item 5); on a place it
/// selects it, as a click does; on the empty map it closes what is open. The primary click
/// keeps flying into bubbles (SPEC §5.2).
enum BubbleCardGesture {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 3)
        let pressed: @MainActor @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { gesture, n, x, y, data in
            guard let c = UserData.controller(data), n == 1 else { return }
            gtk_widget_grab_focus(c.drawingArea)
            gtk_gesture_set_state(gesture, GTK_EVENT_SEQUENCE_CLAIMED)
            c.secondaryClick(at: ScreenPoint(x: x, y: y))
        }
        connectSignal(click, "pressed", unsafeBitCast(pressed, to: GCallback.self), owner: controller)
        addController(click, to: widget)
    }

    /// Shift+Enter or Menu (or a secondary click) on a bubble's row in the In View list opens that
    /// bubble's card on the map (picking a bubble's row gives the map's focus to it). Caught before the list, which
    /// takes Enter with any modifier as "activate" (fly in).
    static func installListKeys(on list: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let keys = gtk_event_controller_key_new()!
        gtk_event_controller_set_propagation_phase(keys, GTK_PHASE_CAPTURE)
        let pressed: @MainActor @convention(c) (OpaquePointer?, UInt32, UInt32, GdkModifierType, gpointer?) -> gboolean = { _, keyval, _, state, data in
            guard let c = UserData.controller(data) else { return 0 }
            let shift = state.rawValue & GDK_SHIFT_MASK.rawValue != 0
            let k = Int32(keyval)
            guard k == GDK_KEY_Menu || (shift && (k == GDK_KEY_Return || k == GDK_KEY_KP_Enter)) else { return 0 }
            return c.openFocusedBubbleCard() ? 1 : 0
        }
        connectSignal(keys, "key-pressed", unsafeBitCast(pressed, to: GCallback.self), owner: controller)
        addController(keys, to: list)
        installListClick(on: list, controller: controller)
    }

    /// A secondary click on a bubble's row opens that bubble's card, as on the map (the row's
    /// bubble gets the map's focus first, as picking the row gives it).
    private static func installListClick(on list: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let click = gtk_gesture_click_new()!
        gtk_gesture_single_set_button(click, 3)
        // Before the rows' own click handling (which may take any button).
        gtk_event_controller_set_propagation_phase(click, GTK_PHASE_CAPTURE)
        let pressed: @MainActor @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { gesture, n, x, y, data in
            guard let c = UserData.controller(data), n == 1, let panel = c.inView,
                  let position = panel.rowPosition(at: x, y), case .cluster = panel.rows[position].id else { return }
            gtk_gesture_set_state(gesture, GTK_EVENT_SEQUENCE_CLAIMED)
            c.setFocus(panel.rows[position].id)
            c.openBubbleCard(panel.rows[position].id)
        }
        connectSignal(click, "pressed", unsafeBitCast(pressed, to: GCallback.self), owner: controller)
        addController(click, to: list)
    }
}
