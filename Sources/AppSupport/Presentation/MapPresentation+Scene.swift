import MapModel

/// The scene for a camera: bubbles, pins, callout and fan from the data and the state, the
/// places' names beside their pins, the base-map names around them, and the credits line.
extension MapPresentation {
    /// The scene for `view` (the camera, or a pan layer's larger view of it) at `now`; `moving`
    /// while the camera moves (names not measured yet are then left to a later frame). The events
    /// are the data motion a live update started.
    public func scene(for view: Camera, now: Double, moving: Bool, reducedMotion: Bool,
                      data dataScene: Scene? = nil) -> (scene: Scene, events: [MapEvent]) {
        var events: [MapEvent] = []
        var scene = dataScene ?? self.dataScene(for: view, now: now, reducedMotion: reducedMotion, events: &events)
        nameLaterPlaces(in: &scene)
        // Places kept out of clustering: their price capsules would pile up at low zoom.
        if session?.keepsPlacesApart == true { CapsuleCollision.hideColliding(in: &scene, style: sceneBuilder.style) }
        if let session, session.bubbleColoring != nil {
            session.decorateBubbles(in: &scene, remembered: bubbleLooks)
            bubbleLooks = Dictionary(scene.bubbles.map { ($0.id, $0.look) }, uniquingKeysWith: { a, _ in a })
        }
        // Cluster by and totals (issue 29): category colours, side by side, totals, weights.
        session?.grouping?.decorate(&scene, style: sceneBuilder.style)
        session?.remote?.labelTotals(in: &scene)
        // A bubble's card goes over its bubble where the layout left it (issue 29 item 5).
        events += placeBubbleCard(in: &scene, view: view, now: now)
        scene.placeNames = PlaceNamePlacer().names(for: scene, zoom: view.zoom) { [labelRenderer] text in
            labelRenderer.size(of: text, kind: .place)
        }
        scene.labels = baseMapLabels(for: view, moving: moving)
        scene.dropLabelsUnderMarks()
        return (scene, events)
    }

    /// The credits line for a frame showing `scene`: the data's and the base map's, GeoNames
    /// while its names show, the street map's last while any of its tiles is drawn in `view`
    /// (always when no view is given).
    public func attribution(for scene: Scene, view: Camera? = nil) -> String {
        let street = streetMap.flatMap { layer in view.map { layer.showsTiles(camera: $0) } ?? true ? layer.attribution : nil }
        return LabelAttribution.line(dataAttribution, labels: scene.labels, showsData: !scene.bubbles.isEmpty || !scene.pins.isEmpty)
            + (street.map { " · " + $0 } ?? "")
    }

    /// Bubbles, pins, callout and the rest of what the data shows.
    private func dataScene(for camera: Camera, now: Double, reducedMotion: Bool, events: inout [MapEvent]) -> Scene {
        guard let session else { return Scene() }
        let queried = session.visibleItems(for: camera)
        let indexZoom = Int(min(camera.zoom, Double(MapDataSession.clusterOptions.maxZoom + 1)).rounded(.down))
        let items = transitions.items(for: queried, indexZoom: indexZoom, now: now, reducedMotion: reducedMotion)
        if let m = transitions.takeDataMotion() {
            events.append(MapEvent("data-motion", [("pop", .int(m.popping)), ("fade_in", .int(m.fadingIn)),
                                                   ("fade_out", .int(m.fadingOut)), ("glide", .int(m.gliding))]))
        }
        var container: SceneItemID?
        if let sel = state.selectedPoint {
            let z = Int(camera.zoom.rounded(.down))
            if let cache = containerCache, cache.point == sel, cache.zoom == z {
                container = cache.container
            } else {
                container = session.container(of: sel, among: queried, camera: camera)
                containerCache = (sel, z, container)
            }
        }
        var state = self.state
        if let opened = calloutOpenedAt {
            let t = min(1, max(0, (now - opened) / MapPresentation.calloutAppearSeconds))
            state.calloutProgress = Easing.easeOut(t)
        }
        return sceneBuilder.build(camera: camera, items: items, places: session.places, state: state,
                                  selectedContainer: container)
    }

    /// The base-map names for `camera`, measured by the scene renderer's label sprites; a vector
    /// street map's names are placed first and built-in names give way where it is drawn.
    private func baseMapLabels(for camera: Camera, moving: Bool) -> [SceneLabel] {
        labelLayout.setOverlay(streetMap?.labelOverlay(for: camera, margin: labelLayout.margin))
        return labelLayout.labels(for: camera, isAnimating: moving, measuredBy: labelRenderer)
    }
}
