import CGtk
import MapModel

/// Two-finger pinch zooms around the fingers' centre (GtkGestureZoom), panning with it.
enum PinchGesture {
    nonisolated(unsafe) static var handler = PinchZoomHandler()

    static func install(on widget: UnsafeMutablePointer<GtkWidget>) {
        let zoom = gtk_gesture_zoom_new()!
        let begin: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { gesture, _, _ in
            guard let c = MapApplication.window?.controller else { return }
            c.isGestureActive = true
            c.apply(PinchGesture.handler.begin(center: PinchGesture.center(gesture, fallback: c.pointer), in: c.beginInput()))
        }
        let changed: @convention(c) (OpaquePointer?, Double, gpointer?) -> Void = { gesture, scale, _ in
            guard let c = MapApplication.window?.controller else { return }
            let centre = PinchGesture.center(gesture, fallback: c.pointer)
            c.apply(PinchGesture.handler.update(scale: scale, center: centre, in: c.beginInput()))
        }
        let end: @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, _ in
            guard let c = MapApplication.window?.controller else { return }
            c.isGestureActive = false
            c.apply(PinchGesture.handler.end(in: c.beginInput()))
            c.gestureDidEnd()
        }
        connectSignal(zoom, "begin", unsafeBitCast(begin, to: GCallback.self))
        connectSignal(zoom, "scale-changed", unsafeBitCast(changed, to: GCallback.self))
        connectSignal(zoom, "end", unsafeBitCast(end, to: GCallback.self))
        addController(zoom, to: widget)
    }

    private static func center(_ gesture: OpaquePointer?, fallback: ScreenPoint) -> ScreenPoint {
        var x = 0.0, y = 0.0
        guard let gesture, gtk_gesture_get_bounding_box_center(gesture, &x, &y) != 0 else { return fallback }
        return ScreenPoint(x: x, y: y)
    }
}
