import CGtk
import AppSupport
import MapModel

/// Camera changes: gestures hand the controller `CameraChange`s (MapLibre's handlers return
/// deltas); it sets the camera or starts an animation driven by the frame clock.
extension MapViewController {
    /// Stops any running animation and returns the context a gesture handler needs.
    func beginInput() -> GestureContext {
        let ctx = cameraController.interrupt(at: MapViewController.now())
        if let stopped = ctx.interrupted, stopped.isFlight {
            eventLog.emit("flight-end", [("interrupted", .bool(true))])
        }
        return ctx
    }

    /// Applies a gesture's change: sets the camera or starts an animation driven by the frame clock.
    func apply(_ change: CameraChange) {
        let now = MapViewController.now()
        let before = camera
        if let animation = cameraController.apply(change, at: now) {
            if case .flight(let path) = animation.kind { logFlightStart(path) }
            clearHoverForMotion()
            startTicking()
        }
        if camera != before { cameraDidChange(); redraw() }
        // The fan belongs to one zoom: any zoom change (gesture or animation) closes it.
        if camera.zoom != before.zoom || cameraController.animation.map({ $0.target.zoom != before.zoom }) == true {
            closeFan()
        }
    }

    /// Zooms one step around the viewport centre (buttons).
    func zoomStep(_ direction: Double) {
        let ctx = beginInput()
        apply(KeyboardNavigationHandler().press(direction > 0 ? .zoomIn : .zoomOut, in: ctx))
    }

    /// Attaches every gesture controller to the map and the key controller to the window.
    func installGestures(window: UnsafeMutablePointer<GtkWidget>) {
        DragGesture.install(on: drawingArea, controller: self)
        ClickGesture.install(on: drawingArea, controller: self)
        BubbleCardGesture.install(on: drawingArea, controller: self)
        ScrollGesture.install(on: drawingArea, controller: self)
        PinchGesture.install(on: drawingArea, controller: self)
        PointerMotion.install(on: drawingArea, controller: self)
        MapFocusKeys.install(on: drawingArea, controller: self)
        AccessibleText.setLabel(of: drawingArea, to: "Map")
        KeyboardShortcuts.install(on: window, controller: self)
    }
}
