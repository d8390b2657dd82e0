import CGtk
import MapModel

/// Drag pans the map (with kinetic inertia on release); the coordinate under the pointer at the
/// start stays under the pointer. A press that moves less than the click slop is a click.
enum DragGesture {
    static var handler = DragPanHandler()

    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let drag = gtk_gesture_drag_new()!
        let begin: @MainActor @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, _, _, data in
            guard let c = UserData.controller(data) else { return }
            c.gestureDidBegin()
            let now = MapViewController.now()
            // A press never stops the zoom its own double-click started; moving past the click
            // slop still does (update interrupts then).
            if ClickGesture.pressStartedZoom(at: now) {
                _ = DragGesture.handler.begin(in: GestureContext(camera: c.camera, now: now))
                return
            }
            c.apply(DragGesture.handler.begin(in: c.beginInput()))
        }
        let update: @MainActor @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, dx, dy, data in
            guard let c = UserData.controller(data) else { return }
            // Within the click slop this is still a click: leave any animation the press started
            // (a double-click zoom, a flight) running.
            if DragGesture.handler.isClick && (dx * dx + dy * dy).squareRoot() < DragPanHandler.clickSlopPixels { return }
            c.apply(DragGesture.handler.update(offset: ScreenPoint(x: dx, y: dy), in: c.beginInput()))
        }
        let end: @MainActor @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, dx, dy, data in
            guard let c = UserData.controller(data) else { return }
            c.gestureDidStop()
            // A press that never left the click slop is a click: the click handler has already
            // acted on it (maybe starting a flight), which this release must not interrupt.
            if DragGesture.handler.isClick && (dx * dx + dy * dy).squareRoot() < DragPanHandler.clickSlopPixels {
                c.gestureDidEnd()
                return
            }
            c.apply(DragGesture.handler.end(offset: ScreenPoint(x: dx, y: dy), in: c.beginInput()))
            c.gestureDidEnd()
        }
        connectSignal(drag, "drag-begin", unsafeBitCast(begin, to: GCallback.self), owner: controller)
        connectSignal(drag, "drag-update", unsafeBitCast(update, to: GCallback.self), owner: controller)
        connectSignal(drag, "drag-end", unsafeBitCast(end, to: GCallback.self), owner: controller)
        addController(drag, to: widget)
    }
}
