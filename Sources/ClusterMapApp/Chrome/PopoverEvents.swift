import AppSupport
import CGtk

/// The `popover` event: a menu button's menu has opened (logged after GTK's own handler, when
/// its first item has the keyboard focus), so a test presses keys in it without a guessed pause.
enum PopoverEvents {
    /// Logs `popover` with `name` each time `button`'s menu opens.
    static func log(_ button: UnsafeMutablePointer<GtkWidget>, name: String, eventLog: EventLog) {
        guard let popover = gtk_menu_button_get_popover(opaque(button)) else { return }
        let shown: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            guard let data else { return }
            let box = Unmanaged<Box>.fromOpaque(data).takeUnretainedValue()
            box.eventLog.emit("popover", [("name", .string(box.name))])
        }
        let release: GClosureNotify = { data, _ in
            if let data { Unmanaged<Box>.fromOpaque(data).release() }
        }
        g_signal_connect_data(popover, "map", unsafeBitCast(shown, to: GCallback.self),
                              Unmanaged.passRetained(Box(name: name, eventLog: eventLog)).toOpaque(), release, G_CONNECT_AFTER)
    }

    /// What the handler needs, kept alive by the signal connection (released with it).
    private final class Box {
        let name: String
        let eventLog: EventLog
        init(name: String, eventLog: EventLog) { self.name = name; self.eventLog = eventLog }
    }
}
