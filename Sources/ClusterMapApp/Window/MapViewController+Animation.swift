import CGtk
import AppSupport
import MapModel

/// The frame-clock driver: the only place that reads the clock for animations (time is an input
/// everywhere else).
extension MapViewController {
    func startTicking() {
        guard tickCallbackID == 0 else { return }
        let tick: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, OpaquePointer?, gpointer?) -> gboolean = { _, clock, data in
            guard let c = UserData.controller(data), let clock else { return 0 }
            return c.tick(frameTime: Double(gdk_frame_clock_get_frame_time(clock)) / 1e6) ? 1 : 0
        }
        tickCallbackID = gtk_widget_add_tick_callback(drawingArea, tick, UserData.retain(self), UserData.release)
    }

    /// Advances the running animations (camera, bubble transitions, callout); returns whether
    /// to keep ticking.
    private func tick(frameTime: Double) -> Bool {
        let now = max(frameTime, MapViewController.now())
        if cameraController.isAnimating {
            let frame = cameraController.advance(to: now)
            cameraDidChange()
            if let finished = frame.finished, finished.isFlight {
                eventLog.emit("flight-end")
            }
        }
        redraw()
        if cameraController.isAnimating || presentation.isAnimating(at: now) {
            return true
        }
        tickCallbackID = 0
        return false
    }

    func logFlightStart(_ path: FlightPath) {
        func cam(_ c: Camera) -> JSONValue {
            .object([("lat", .number(c.center.latitude)), ("lon", .number(c.center.longitude)), ("zoom", .number(c.zoom))])
        }
        eventLog.emit("flight-start", [("from", cam(path.start)), ("to", cam(path.target)),
                                       ("duration_ms", .number((path.duration * 1000).rounded())),
                                       ("reduced", .bool(path.isJump))])
    }
}

extension CameraAnimation {
    /// Whether this animation is a flight (logged with flight-start / flight-end).
    var isFlight: Bool {
        if case .flight = kind { return true }
        return false
    }
}
