import ClusterCore

/// Builds the `Scene` for a camera from clustered items and the interaction state. Pure: the
/// same inputs give the same scene, so tests read it as text (ARCHITECTURE §2).
public struct SceneBuilder: Sendable {
    public var style: BubbleStyle
    public var fanLayout: FanLayout

    public init(style: BubbleStyle = BubbleStyle(), fanLayout: FanLayout = FanLayout()) {
        self.style = style
        self.fanLayout = fanLayout
    }

    /// Builds the scene.
    /// - Parameters:
    ///   - items: the items to draw (from the clusterer's query for the visible area).
    ///   - selectedContainer: the visible bubble that holds the selected place, if it is clustered.
    /// - Complexity: O(n) in the number of items (times the number of world copies in view).
    public func build(camera: Camera, items: [PlacedItem], places: PlaceDirectory, state: SceneState,
                      selectedContainer: SceneItemID? = nil) -> Scene {
        var scene = Scene()
        let margin = style.radii.max() ?? 30
        let vw = camera.viewportSize.width, vh = camera.viewportSize.height
        let ws = camera.worldSize
        var selectedPin: ScenePin?
        let fanCluster = state.fan?.cluster

        for placed in items {
            let base = camera.screenPoint(for: placed.coordinate)
            guard base.y >= -margin && base.y <= vh + margin else { continue }
            for x in SceneBuilder.wrappedXs(base.x, worldSize: ws, from: -margin, to: vw + margin) {
                let p = ScreenPoint(x: x, y: base.y)
                let id = placed.id
                switch placed.item.kind {
                case .cluster:
                    let count = placed.item.count
                    var b = SceneBubble(id: id, center: p, radius: style.radius(forCount: count), count: count,
                                        label: abbreviatedCount(count), step: style.step(forCount: count))
                    b.alpha = placed.alpha
                    b.scale = placed.scale
                    b.containsSelection = id == selectedContainer
                    b.isHovered = id == state.hovered
                    if id == fanCluster { b.alpha *= 0.5 }
                    scene.bubbles.append(b)
                case .point(let index):
                    var pin = ScenePin(id: id, pointIndex: index, center: p, name: places.name(of: index),
                                       label: places.label(of: index), color: places.color(of: index))
                    pin.alpha = placed.alpha
                    pin.scale = placed.scale
                    pin.isHovered = id == state.hovered
                    if index == state.selectedPoint {
                        pin.isSelected = true
                        if selectedPin == nil || abs(p.x - vw / 2) < abs(selectedPin!.center.x - vw / 2) { selectedPin = pin }
                    } else {
                        scene.pins.append(pin)
                    }
                }
            }
        }

        if let fan = state.fan { addFan(fan, camera: camera, places: places, state: state, to: &scene, selected: &selectedPin) }

        // The selected place stays drawn at its real position even inside a bubble (SPEC §5.3).
        if selectedPin == nil, let sel = state.selectedPoint {
            let p = camera.screenPoint(for: places.coordinate(of: sel))
            if p.x >= -margin && p.x <= vw + margin && p.y >= -margin && p.y <= vh + margin {
                var pin = ScenePin(id: .point(sel), pointIndex: sel, center: p, name: places.name(of: sel),
                                   label: places.label(of: sel), color: places.color(of: sel))
                pin.isSelected = true
                selectedPin = pin
            }
        }
        if let s = selectedPin {
            scene.pins.append(s)
            if let content = state.callout, content.pointIndex == s.pointIndex {
                let anchor = ScreenPoint(x: s.center.x, y: s.center.y - style.pinRadius)
                var c = SceneCallout(pointIndex: s.pointIndex, frame: CalloutPlacement.frame(above: s.center, size: content.size),
                                     anchor: anchor, title: content.title, lines: content.lines)
                c.buttons = content.buttons
                c.progress = state.calloutProgress
                c.fades = state.calloutFades
                scene.callout = c
            }
        }

        // Only while the hovered bubble is drawn: after a flight or a zoom it is gone, and so is
        // its outline (it used to stay on the map after the flight).
        if state.hoverMembers.count >= 3, case .cluster? = state.hovered,
           scene.bubbles.contains(where: { $0.id == state.hovered }) {
            scene.hull = ConvexHull.hull(of: state.hoverMembers.map { camera.screenPoint(for: $0) })
        }
        if let f = state.focused {
            if let b = scene.bubbles.first(where: { $0.id == f }) {
                scene.focusRing = SceneFocusRing(id: f, center: b.center, radius: b.radius + 4)
            } else if let pin = scene.pins.first(where: { $0.id == f }) {
                scene.focusRing = SceneFocusRing(id: f, center: pin.center, radius: style.pinRadius + 5)
            }
        }
        return scene
    }

    /// The fanned-out members of a same-spot bubble, with legs from its centre.
    private func addFan(_ fan: SceneState.Fan, camera: Camera, places: PlaceDirectory, state: SceneState,
                        to scene: inout Scene, selected: inout ScenePin?) {
        let c = camera.screenPoint(for: fan.center)
        for (i, offset) in fanLayout.offsets(count: fan.members.count).enumerated() {
            let index = fan.members[i]
            let p = ScreenPoint(x: c.x + offset.x, y: c.y + offset.y)
            scene.fanLegs.append(SceneLeg(from: c, to: p))
            var pin = ScenePin(id: .point(index), pointIndex: index, center: p, name: places.name(of: index),
                               label: places.label(of: index), color: places.color(of: index))
            pin.isHovered = pin.id == state.hovered
            if index == state.selectedPoint { pin.isSelected = true; selected = pin } else { scene.pins.append(pin) }
        }
    }

    /// The x positions of every world copy of `x` that fall within `lo…hi`.
    static func wrappedXs(_ x: Double, worldSize ws: Double, from lo: Double, to hi: Double) -> [Double] {
        guard ws > 0 else { return [x] }
        var first = x
        while first - ws >= lo { first -= ws }
        while first < lo { first += ws }
        var out: [Double] = []
        var v = first
        while v <= hi { out.append(v); v += ws }
        return out
    }
}
