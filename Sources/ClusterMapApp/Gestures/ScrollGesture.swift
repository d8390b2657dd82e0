import CGtk
import MapModel

/// Scroll zooms around the pointer: a wheel notch is an eased step, touchpad scrolling (and
/// Ctrl+scroll on a touchpad) is continuous. GTK 4.8 scroll events carry no position, so the
/// pointer position comes from `PointerMotion`.
enum ScrollGesture {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let flags = GtkEventControllerScrollFlags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_VERTICAL.rawValue)
        let scroll = gtk_event_controller_scroll_new(flags)!
        let onScroll: @MainActor @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> gboolean = { ctl, _, dy, data in
            guard let c = UserData.controller(data) else { return 0 }
            let ctx = c.beginInput()
            if gtk_event_controller_scroll_get_unit(ctl) == GDK_SCROLL_UNIT_WHEEL {
                c.apply(WheelZoomHandler().scroll(notches: dy, at: c.pointer, in: ctx))
            } else {
                c.apply(ContinuousScrollZoomHandler().scroll(deltaY: dy, at: c.pointer, in: ctx))
            }
            c.gestureDidEnd()
            return 1
        }
        connectSignal(scroll, "scroll", unsafeBitCast(onScroll, to: GCallback.self), owner: controller)
        addController(scroll, to: widget)
    }
}
