import CGtk
import MapModel

/// Two-finger pinch zooms around the fingers' centre (GtkGestureZoom), panning with it.
enum PinchGesture {
    static var handler = PinchZoomHandler()

    static func install(on widget: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        let zoom = gtk_gesture_zoom_new()!
        let begin: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { gesture, _, data in
            guard let c = UserData.controller(data) else { return }
            c.gestureDidBegin()
            c.apply(PinchGesture.handler.begin(center: PinchGesture.center(gesture, fallback: c.pointer), in: c.beginInput()))
        }
        let changed: @MainActor @convention(c) (OpaquePointer?, Double, gpointer?) -> Void = { gesture, scale, data in
            guard let c = UserData.controller(data) else { return }
            let centre = PinchGesture.center(gesture, fallback: c.pointer)
            c.apply(PinchGesture.handler.update(scale: scale, center: centre, in: c.beginInput()))
        }
        let end: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
            guard let c = UserData.controller(data) else { return }
            c.gestureDidStop()
            c.apply(PinchGesture.handler.end(in: c.beginInput()))
            c.gestureDidEnd()
        }
        connectSignal(zoom, "begin", unsafeBitCast(begin, to: GCallback.self), owner: controller)
        connectSignal(zoom, "scale-changed", unsafeBitCast(changed, to: GCallback.self), owner: controller)
        connectSignal(zoom, "end", unsafeBitCast(end, to: GCallback.self), owner: controller)
        addController(zoom, to: widget)
    }

    private static func center(_ gesture: OpaquePointer?, fallback: ScreenPoint) -> ScreenPoint {
        var x = 0.0, y = 0.0
        guard let gesture, gtk_gesture_get_bounding_box_center(gesture, &x, &y) != 0 else { return fallback }
        return ScreenPoint(x: x, y: y)
    }
}
