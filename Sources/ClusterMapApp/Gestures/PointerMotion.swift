import CGtk
import MapModel

/// Tracks the pointer over the map: hover feedback, and the position scroll zooms around
/// (GTK 4.8 scroll events carry no position).
enum PointerMotion {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let motion = gtk_event_controller_motion_new()!
        let onMotion: @MainActor @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, x, y, data in
            UserData.controller(data)?.pointerMoved(to: ScreenPoint(x: x, y: y))
        }
        let onLeave: @MainActor @convention(c) (OpaquePointer?, gpointer?) -> Void = { _, data in
            UserData.controller(data)?.pointerLeft()
        }
        connectSignal(motion, "motion", unsafeBitCast(onMotion, to: GCallback.self), owner: controller)
        connectSignal(motion, "enter", unsafeBitCast(onMotion, to: GCallback.self), owner: controller)
        connectSignal(motion, "leave", unsafeBitCast(onLeave, to: GCallback.self), owner: controller)
        addController(motion, to: widget)

        // Per-item tooltips: the exact count and the first few names of a bubble.
        gtk_widget_set_has_tooltip(widget, 1)
        let query: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, Int32, Int32, gboolean, OpaquePointer?, gpointer?) -> gboolean = { _, x, y, _, tooltip, data in
            guard let c = UserData.controller(data), let tooltip,
                  let (text, area) = c.tooltip(at: ScreenPoint(x: Double(x), y: Double(y))) else { return 0 }
            gtk_tooltip_set_text(tooltip, text)
            var rect = GdkRectangle(x: Int32(area.x), y: Int32(area.y), width: Int32(area.width), height: Int32(area.height))
            gtk_tooltip_set_tip_area(tooltip, &rect)
            return 1
        }
        connectSignal(widget, "query-tooltip", unsafeBitCast(query, to: GCallback.self), owner: controller)
    }
}
