import CGtk
import MapModel

/// Scroll zooms around the pointer: a wheel notch is a fixed step, touchpad scrolling is continuous.
enum ScrollGesture {
    /// Zoom levels per wheel notch.
    static let zoomLevelsPerWheelNotch = 0.5
    /// Zoom levels per pixel of smooth (touchpad) scrolling.
    static let zoomLevelsPerScrollPixel = 0.01

    static func install(on widget: UnsafeMutablePointer<GtkWidget>) {
        let flags = GtkEventControllerScrollFlags(rawValue: GTK_EVENT_CONTROLLER_SCROLL_VERTICAL.rawValue)
        let scroll = gtk_event_controller_scroll_new(flags)!
        let onScroll: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> gboolean = { ctl, _, dy, _ in
            guard let c = MapApplication.window?.controller else { return 0 }
            let isWheel = gtk_event_controller_scroll_get_unit(ctl) == GDK_SCROLL_UNIT_WHEEL
            let delta = isWheel ? -dy * ScrollGesture.zoomLevelsPerWheelNotch : -dy * ScrollGesture.zoomLevelsPerScrollPixel
            c.setCamera(c.camera.zoomed(by: delta, around: c.pointer))
            c.gestureDidEnd()
            return 1
        }
        connectSignal(scroll, "scroll", unsafeBitCast(onScroll, to: GCallback.self))
        addController(scroll, to: widget)
    }
}
