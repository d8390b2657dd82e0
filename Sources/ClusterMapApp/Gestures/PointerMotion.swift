import CGtk
import MapModel

/// Tracks the pointer over the map (GTK 4.8 scroll events carry no position).
enum PointerMotion {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>) {
        let motion = gtk_event_controller_motion_new()!
        let onMotion: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, x, y, _ in
            MapApplication.window?.controller.pointer = ScreenPoint(x: x, y: y)
        }
        connectSignal(motion, "motion", unsafeBitCast(onMotion, to: GCallback.self))
        connectSignal(motion, "enter", unsafeBitCast(onMotion, to: GCallback.self))
        addController(motion, to: widget)
    }
}
