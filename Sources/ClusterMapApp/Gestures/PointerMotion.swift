import CGtk
import MapModel

/// Tracks the pointer over the map: hover feedback, and the position scroll zooms around
/// (GTK 4.8 scroll events carry no position).
enum PointerMotion {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>) {
        let motion = gtk_event_controller_motion_new()!
        let onMotion: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, x, y, _ in
            MapApplication.window?.controller.pointerMoved(to: ScreenPoint(x: x, y: y))
        }
        let onLeave: @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, _ in
            MapApplication.window?.controller.pointerLeft()
        }
        connectSignal(motion, "motion", unsafeBitCast(onMotion, to: GCallback.self))
        connectSignal(motion, "enter", unsafeBitCast(onMotion, to: GCallback.self))
        connectSignal(motion, "leave", unsafeBitCast(onLeave, to: GCallback.self))
        addController(motion, to: widget)

        // Per-item tooltips: the exact count and the first few names of a bubble.
        gtk_widget_set_has_tooltip(widget, 1)
        let query: @convention(c) (UnsafeMutablePointer<GtkWidget>?, Int32, Int32, gboolean, OpaquePointer?, gpointer?) -> gboolean = { _, x, y, _, tooltip, _ in
            guard let c = MapApplication.window?.controller, let tooltip,
                  let (text, area) = c.tooltip(at: ScreenPoint(x: Double(x), y: Double(y))) else { return 0 }
            gtk_tooltip_set_text(tooltip, text)
            var rect = GdkRectangle(x: Int32(area.x), y: Int32(area.y), width: Int32(area.width), height: Int32(area.height))
            gtk_tooltip_set_tip_area(tooltip, &rect)
            return 1
        }
        connectSignal(widget, "query-tooltip", unsafeBitCast(query, to: GCallback.self))
    }
}
