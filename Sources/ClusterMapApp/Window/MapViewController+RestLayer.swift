import CGtk
import MapModel
import MapRender

/// The pan layer drawn at rest: once the camera has settled, GLib idle time draws a layer around
/// the view (`PanLayer.restStep`: the scene first, then a band of rows per idle call), so that a
/// drag or a kinetic pan copies it from its first frame instead of drawing its first frames
/// directly while a layer is drawn in bands. Frames at rest are still drawn directly.
extension MapViewController {
    /// Queues the rest layer's steps in idle time (once; they stop by themselves when nothing is
    /// left to do, the camera moves, or what the scene shows changes).
    func scheduleRestLayer() {
        guard !restLayerPending else { return }
        restLayerPending = true
        let step: @MainActor @convention(c) (gpointer?) -> gboolean = { data in
            guard let c = UserData.controller(data) else { return 0 }
            let more = c.restLayerStep()
            if !more { c.restLayerPending = false }
            return more ? 1 : 0
        }
        // Default idle priority: below input, redraws and the frame clock, so a step never delays
        // a frame that is due; an input arriving during a step waits for one band at most.
        g_idle_add_full(G_PRIORITY_DEFAULT_IDLE, step, UserData.retain(self), UserData.release)
    }

    /// One step of the rest layer; whether more are due.
    private func restLayerStep() -> Bool {
        guard !isClosed, !isGestureActive, !cameraController.isAnimating else { return false }
        let before = panLayer.restLayerCount
        let more = panLayer.restStep(camera: camera, content: panLayerContent(), palette: renderer.palette) { buildScene(for: $0) }
        if panLayer.restLayerCount != before, let plan = panLayer.plan {
            // For tests: a pan starting now copies this layer from its first frame.
            eventLog.emit("pan-layer", [("width", .int(Int(plan.layerSize.width))), ("height", .int(Int(plan.layerSize.height)))])
        }
        return more
    }
}
