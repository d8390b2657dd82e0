import CGtk
import AppSupport
import ClusterCore
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
            panLayer.scene = scene
            lastScene = scene
            renderer.attribution = LabelAttribution.line(dataAttribution, labels: scene.labels,
                                                         showsData: !scene.bubbles.isEmpty || !scene.pins.isEmpty)
                + (tileLayer?.attribution.map { " · " + $0 } ?? "")
        } else if case .copy(let x, let y) = panLayer.mode {
            // The layer's scene, moved to the view when someone asks for `lastScene`.
            pendingSceneShift = ScreenPoint(x: -Double(x) / scale, y: -Double(y) / scale)
        }
        if let ahead = panLayer.cameraAhead() {
            panLayer.sceneAhead = buildScene(for: ahead)
        }
    }

    /// What the scene shows besides the camera, as one stamp for the pan layer; nil while it
    /// changes from frame to frame by itself (bubbles splitting or merging, a callout growing) or
    /// a street map places names as its tiles arrive: then every frame is drawn directly.
    func panLayerContent() -> Int? {
        let now = MapViewController.now()
        guard tileLayer == nil, !transitions.isAnimating(at: now), !isCalloutAnimating(at: now) else { return nil }
        var h = Hasher()
        h.combine(sceneContentVersion)
        h.combine(session.map { ObjectIdentifier($0) })
        h.combine(renderer.palette.name)
        h.combine(labelLayout.index.count)
        // Names measured off the drawing thread since (see `MapLabelRenderer.sizeIfMeasured`): a
        // layer placed without them is out of date once they are known.
        h.combine(sceneRenderer.labelRenderer.sizeRevision)
        h.combine(sceneRenderer.style.pinRadius)
        return h.finalize()
    }

    /// The scene for `view` (the camera, or a pan layer's larger view of it) and the state.
    func buildScene(for view: Camera) -> Scene {
        var scene = buildDataScene(for: view)
        session?.decorateBubbles(in: &scene)
        scene.placeNames = PlaceNamePlacer().names(for: scene, zoom: view.zoom) { [sceneRenderer] text in
            sceneRenderer.labelRenderer.size(of: text, kind: .place)
        }
        scene.labels = baseMapLabels(for: view)
        scene.dropLabelsUnderMarks()
        return scene
    }

    /// Bubbles, pins, callout and the rest of what the data shows.
    private func buildDataScene(for camera: Camera) -> Scene {
        guard let session else { return Scene() }
        let now = MapViewController.now()
        let queried = session.visibleItems(for: camera)
        let indexZoom = Int(min(camera.zoom, Double(MapDataSession.clusterOptions.maxZoom + 1)).rounded(.down))
        let items = transitions.items(for: queried, indexZoom: indexZoom, now: now,
                                      reducedMotion: cameraController.motionPolicy.prefersReducedMotion)
        if transitions.isAnimating(at: now) { startTicking() }
        if let m = transitions.takeDataMotion() {
            eventLog.emit("data-motion", [("pop", .int(m.popping)), ("fade_in", .int(m.fadingIn)),
                                          ("fade_out", .int(m.fadingOut)), ("glide", .int(m.gliding))])
        }
        var container: SceneItemID?
        if let sel = sceneState.selectedPoint {
            let z = Int(camera.zoom.rounded(.down))
            if let cache = containerCache, cache.point == sel, cache.zoom == z {
                container = cache.container
            } else {
                container = session.container(of: sel, among: queried, camera: camera)
                containerCache = (sel, z, container)
            }
        }
        var state = sceneState
        if let opened = calloutOpenedAt {
            let t = min(1, max(0, (now - opened) / MapViewController.calloutAppearSeconds))
            state.calloutProgress = Easing.easeOut(t)
        }
        return sceneBuilder.build(camera: camera, items: items, places: session.places, state: state,
                                  selectedContainer: container)
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

    /// Logs the open callout's box in window surface coordinates.
    func emitCalloutEvent() {
        guard let c = lastScene.callout else { return }
        let o = surfaceOffset
        eventLog.emit("callout", [("id", .int(c.pointIndex)), ("x", .number((c.frame.x + o.x).rounded())),
                                  ("y", .number((c.frame.y + o.y).rounded())), ("width", .number(c.frame.width.rounded())),
                                  ("height", .number(c.frame.height.rounded())),
                                  ("title", .string(c.title)), ("lines", .array(c.lines.map { .string($0) })),
                                  ("buttons", .array(c.buttons.map { b in
                                      .object([("action", .string(b.action.rawValue)),
                                               ("x", .number((c.frame.x + b.frame.x + b.frame.width / 2 + o.x).rounded())),
                                               ("y", .number((c.frame.y + b.frame.y + b.frame.height / 2 + o.y).rounded()))])
                                  }))])
    }

    /// Logs what is on screen (positions in window surface coordinates).
    func emitSceneEvent() {
        guard eventLog.isEnabled else { return }
        let o = surfaceOffset
        func r(_ v: Double) -> JSONValue { .number((v * 10).rounded() / 10) }
        let vw = camera.viewportSize.width, vh = camera.viewportSize.height
        func onScreen(_ p: ScreenPoint) -> Bool { p.x >= 0 && p.y >= 0 && p.x <= vw && p.y <= vh }
        let bubbles: [JSONValue] = lastScene.bubbles.filter { onScreen($0.center) }.map {
            var fields: [(String, JSONValue)] = [("id", .int($0.id.logID)), ("x", r($0.center.x + o.x)),
                                                 ("y", r($0.center.y + o.y)), ("r", r($0.radius)), ("count", .int($0.count))]
            if $0.containsSelection { fields.append(("marked", .bool(true))) }
            return .object(fields)
        }
        let pins: [JSONValue] = lastScene.pins.filter { onScreen($0.center) }.map {
            var fields: [(String, JSONValue)] = [("id", .int($0.id.logID)), ("x", r($0.center.x + o.x)),
                                                 ("y", r($0.center.y + o.y)), ("name", .string($0.name))]
            if $0.isSelected { fields.append(("selected", .bool(true))) }
            return .object(fields)
        }
        let labels: [JSONValue] = lastScene.labels.map {
            .object([("text", .string($0.text)), ("x", r($0.frame.x + o.x)), ("y", r($0.frame.y + o.y)),
                     ("width", r($0.frame.width)), ("height", r($0.frame.height))])
        }
        let names: [JSONValue] = lastScene.placeNames.map {
            .object([("text", .string($0.text)), ("x", r($0.frame.x + o.x)), ("y", r($0.frame.y + o.y)),
                     ("width", r($0.frame.width)), ("height", r($0.frame.height))])
        }
        eventLog.emit("scene", [("bubbles", .array(bubbles)), ("pins", .array(pins)), ("labels", .array(labels)),
                                ("names", .array(names))])
        if lastScene.callout?.pointIndex != lastLoggedCallout {
            lastLoggedCallout = lastScene.callout?.pointIndex
            emitCalloutEvent()
        }
    }

}
