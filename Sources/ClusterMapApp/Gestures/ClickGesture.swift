import CGtk
import MapModel

/// Clicks: a single click (pointer moved less than the drag slop) selects what is under it;
/// a double-click on the empty map zooms in one level at the pointer. A double-click on a bubble
/// or place acts like a click on it (people double-click markers; that must not zoom past them),
/// and a new single click on the selected place deselects it.
enum ClickGesture {
    /// Whether the current double-click started on an item (its release then counts as a click).
    private static var doubleClickOnItem = false
    /// When the last double-click started its zoom step (monotonic seconds).
    private static var doubleClickZoomStartedAt = -Double.infinity

    /// Whether the press being handled right now started a double-click zoom. GTK runs this click
    /// gesture before the drag gesture on the same press, and the drag's begin must not stop the
    /// zoom it just started (it did: a double-click zoomed by 0.0003 levels instead of one).
    static func pressStartedZoom(at now: Double) -> Bool {
        now - doubleClickZoomStartedAt < 0.05
    }

    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let click = gtk_gesture_click_new()!
        let pressed: @MainActor @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, data in
            guard let c = UserData.controller(data) else { return }
            gtk_widget_grab_focus(c.drawingArea)
            ClickGesture.doubleClickOnItem = false
            guard n == 2 else { return }
            let p = ScreenPoint(x: x, y: y)
            if c.item(at: p) {
                ClickGesture.doubleClickOnItem = true
                return
            }
            c.apply(DoubleClickZoomHandler().doubleClick(at: p, in: c.beginInput()))
            ClickGesture.doubleClickZoomStartedAt = MapViewController.now()
            c.gestureDidEnd()
        }
        let released: @MainActor @convention(c) (OpaquePointer?, Int32, Double, Double, gpointer?) -> Void = { _, n, x, y, data in
            guard let c = UserData.controller(data) else { return }
            // GTK reports "released" after a drag too: only a press that barely moved is a click.
            guard n == 1 || ClickGesture.doubleClickOnItem, DragGesture.handler.isClick else { return }
            c.handleClick(at: ScreenPoint(x: x, y: y), repeated: n > 1)
        }
        connectSignal(click, "pressed", unsafeBitCast(pressed, to: GCallback.self), owner: controller)
        connectSignal(click, "released", unsafeBitCast(released, to: GCallback.self), owner: controller)
        addController(click, to: widget)
    }
}
