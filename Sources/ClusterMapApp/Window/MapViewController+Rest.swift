import CGtk
import AppSupport
import MapModel

/// Rest detection: once the camera (and everything the presentation animates) has been still for
/// `restDelaySeconds`, the controller reports `camera` and `scene`, refreshes hover and focus, and
/// draws the pan layer anew in idle time.
extension MapViewController {
    /// Called for every camera change: a check is queued (at most one at a time).
    func cameraDidChange() {
        lastCameraChange = ProcessClock.now()
        scheduleRestCheck()
        databaseCameraDidChange()
        clusterTilesCameraDidChange()
    }

    /// The map's size changed (a side panel opened beside it, the window resized): the scene at
    /// rest is reported again for the new size, so In View lists what is visible beside the panel.
    func viewportDidChange() {
        lastCameraChange = ProcessClock.now()
        scheduleRestCheck()
    }

    private func scheduleRestCheck() {
        guard !restCheckPending else { return }
        restCheckPending = true
        let check: @MainActor @convention(c) (gpointer?) -> gboolean = { data in
            UserData.controller(data)?.restCheck() ?? 0
        }
        g_timeout_add_full(G_PRIORITY_DEFAULT, UInt32(MapViewController.restDelaySeconds * 1000), check,
                           UserData.retain(self), UserData.release)
    }

    /// Called from a GLib timeout: emits `camera` and `scene` once the camera has been still.
    private func restCheck() -> gboolean {
        restCheckPending = false
        let still = ProcessClock.now() - lastCameraChange >= MapViewController.restDelaySeconds * 0.9
        let now = MapViewController.now()
        // A playing time bar is motion too: no rest (nor the rest layer's redraws) between its frames.
        if !still || isGestureActive || cameraController.isAnimating || presentation.isAnimating(at: now) || timeBar.isPlaying {
            scheduleRestCheck()
            return 0
        }
        if lastFrameWasMoving {
            // The frame on screen was drawn in motion (names whose sprites weren't made yet left
            // out, a scaled base map) and the one at rest hasn't come: GLib runs this timeout
            // before a redraw queued at the same time when the loop was busy, and an input that
            // stops an animation where it is queues none. Ask for it; report once it is drawn.
            redraw()
            scheduleRestCheck()
            return 0
        }
        let moved = lastRestCamera != camera
        if moved {
            lastRestCamera = camera
            eventLog.emit("camera", [("lat", .number(camera.center.latitude)),
                                     ("lon", .number(camera.center.longitude)),
                                     ("zoom", .number(camera.zoom))])
        }
        keepFocusThroughReclustering()
        if moved { refreshHover() }
        if moved || forceSceneEvent {
            forceSceneEvent = false
            emitTilesEvent()
            emitSceneEvent()
            sceneDidSettle()
        }
        scheduleRestLayer()
        return 0
    }
}
