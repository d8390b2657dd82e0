import CGtk
import MapModel

/// Drag pans the map: the coordinate under the pointer at the start stays under the pointer.
enum DragGesture {
    nonisolated(unsafe) private static var startCamera: Camera?

    static func install(on widget: UnsafeMutablePointer<GtkWidget>) {
        let drag = gtk_gesture_drag_new()!
        let begin: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, _, _, _ in
            guard let c = MapApplication.window?.controller else { return }
            DragGesture.startCamera = c.camera
            c.isDragging = true
        }
        let update: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, dx, dy, _ in
            guard let c = MapApplication.window?.controller, let start = DragGesture.startCamera else { return }
            c.setCamera(start.panned(by: dx, dy))
        }
        let end: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> Void = { _, _, _, _ in
            guard let c = MapApplication.window?.controller else { return }
            c.isDragging = false
            DragGesture.startCamera = nil
            c.gestureDidEnd()
        }
        connectSignal(drag, "drag-begin", unsafeBitCast(begin, to: GCallback.self))
        connectSignal(drag, "drag-update", unsafeBitCast(update, to: GCallback.self))
        connectSignal(drag, "drag-end", unsafeBitCast(end, to: GCallback.self))
        addController(drag, to: widget)
    }
}
