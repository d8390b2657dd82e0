import CGtk
import AppSupport
import MapModel
import MapRender

/// Building the scene for each frame, reporting it in the event log, and painting it.
extension MapViewController {
    /// Chooses how this frame draws the scene (`PanLayer`): builds the scene for the view, or none
    /// when the frame copies a pan layer; and while panning, the scene of the layer drawn ahead.
    func prepareScene(_ cr: OpaquePointer, moving: Bool) {
        let scale = BaseMapRenderer.deviceScale(of: cr)
        if let view = panLayer.prepare(camera: camera, scale: scale, content: panLayerContent(), moving: moving) {
            let scene = buildScene(for: view)
            panLayer.setScene(scene)
            lastScene = scene
            renderer.setAttribution(presentation.attribution(for: scene, view: view))
        } else if case .copy(let x, let y) = panLayer.mode {
            // The layer's scene, moved to the view when someone asks for `lastScene`.
            pendingSceneShift = ScreenPoint(x: -Double(x) / scale, y: -Double(y) / scale)
        }
        if let ahead = panLayer.cameraAhead() {
            panLayer.setSceneAhead(buildScene(for: ahead))
        }
        syncCardButtonsAfterFrame()
    }

    /// What the scene shows besides the camera, as one stamp for the pan layer (the
    /// presentation's, with the palette and the marks' size); nil while every frame must be drawn.
    func panLayerContent() -> Int? {
        guard let content = presentation.contentStamp(at: MapViewController.now()) else { return nil }
        var h = Hasher()
        h.combine(content)
        h.combine(renderer.palette.name)
        h.combine(sceneRenderer.style.pinRadius)
        return h.finalize()
    }

    /// The scene for `view` (the camera, or a pan layer's larger view of it), composed by the
    /// presentation; frames keep coming while its bubbles move.
    func buildScene(for view: Camera) -> Scene {
        let now = MapViewController.now()
        let (scene, events) = presentation.scene(for: view, now: now, moving: isGestureActive || cameraController.isAnimating,
                                                 reducedMotion: cameraController.motionPolicy.prefersReducedMotion)
        if presentation.transitions.isAnimating(at: now) { startTicking() }
        eventLog.emit(events)
        return scene
    }

    /// Something other than the camera changed what is drawn (data, selection, hover).
    func sceneDidChange() {
        updateMapAccessibility()
        redraw()
        cameraDidChange()
        forceSceneEvent = true
    }

    /// Where the drawing area's origin is in the window's surface (CSD margins, header bar), so
    /// logged positions can be clicked with `xdotool mousemove --window`.
    var surfaceOffset: ScreenPoint {
        guard let native = gtk_widget_get_native(drawingArea) else { return .zero }
        var x = 0.0, y = 0.0
        _ = gtk_widget_translate_coordinates(drawingArea, asWidget(native), 0, 0, &x, &y)
        var sx = 0.0, sy = 0.0
        gtk_native_get_surface_transform(native, &sx, &sy)
        return ScreenPoint(x: x + sx, y: y + sy)
    }

    /// Logs what is on screen (positions in window surface coordinates), and the open card
    /// when it is not the one last logged.
    func emitSceneEvent() {
        guard eventLog.isEnabled else { return }
        eventLog.emit(presentation.sceneEvents(for: lastScene, viewport: camera.viewportSize, offset: surfaceOffset))
    }
}
