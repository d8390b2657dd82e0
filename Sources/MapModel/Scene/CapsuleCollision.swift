/// Price capsules never pile up (issue 32 item 1): places kept out of clustering (Lisbon's
/// stays) would draw their capsules over each other at low zoom, unreadable. As MapKit hides
/// colliding annotations by display priority, a capsule that would overlap one of higher
/// priority is left out of the scene until the map zooms in far enough to part them.
public enum CapsuleCollision {
    /// Room kept between two capsules, pixels.
    public static let gap = 2.0

    /// Removes from `scene` the price-capsule places (`PinLabel.isMarker`) whose capsule would
    /// overlap a capsule kept before it. Priority: the selected place, then the hovered, then the
    /// keyboard-focused one, then the data's order. Other pins are left as they are, and the
    /// drawing order of those kept is unchanged.
    public static func hideColliding(in scene: inout Scene, style: BubbleStyle = BubbleStyle()) {
        func rect(_ p: ScenePin) -> ScreenRect? {
            guard let text = p.label, PinLabel.isMarker(text) else { return nil }
            let r = SceneHitTester.labelRect(for: p.center, text: text, style: style)
            return ScreenRect(x: r.x - gap / 2, y: r.y - gap / 2, width: r.width + gap, height: r.height + gap)
        }
        let focused = scene.focusRing?.id
        func rank(_ p: ScenePin) -> Int { p.isSelected ? 0 : p.isHovered ? 1 : p.id == focused ? 2 : 3 }
        let order = scene.pins.indices.filter { rect(scene.pins[$0]) != nil }
            .sorted { (rank(scene.pins[$0]), scene.pins[$0].pointIndex) < (rank(scene.pins[$1]), scene.pins[$1].pointIndex) }
        var kept: [ScreenRect] = [], hidden = Set<Int>()
        for i in order {
            guard let r = rect(scene.pins[i]) else { continue }
            if kept.contains(where: { $0.intersects(r) }) { hidden.insert(i) } else { kept.append(r) }
        }
        guard !hidden.isEmpty else { return }
        scene.pins = scene.pins.indices.filter { !hidden.contains($0) }.map { scene.pins[$0] }
    }
}
