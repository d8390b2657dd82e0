import CGtk
import MapModel

/// Clicks: a single click (pointer moved less than the drag slop) selects what is under it;
/// a double-click zooms in one level at the pointer.
enum ClickGesture {
    static func install(on widget: UnsafeMutablePointer<GtkWidget>) {
        let click = gtk_gesture_click_new()!
        let pressed: @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, _ in
            guard let c = MapApplication.window?.controller else { return }
            gtk_widget_grab_focus(c.drawingArea)
            if n == 2 {
                c.apply(DoubleClickZoomHandler().doubleClick(at: ScreenPoint(x: x, y: y), in: c.beginInput()))
                c.gestureDidEnd()
            }
        }
        let released: @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, _ in
            guard let c = MapApplication.window?.controller else { return }
            // GTK reports "released" after a drag too: only a press that barely moved is a click.
            guard n == 1, DragGesture.handler.isClick else { return }
            c.handleClick(at: ScreenPoint(x: x, y: y))
        }
        connectSignal(click, "pressed", unsafeBitCast(pressed, to: GCallback.self))
        connectSignal(click, "released", unsafeBitCast(released, to: GCallback.self))
        addController(click, to: widget)
    }
}
