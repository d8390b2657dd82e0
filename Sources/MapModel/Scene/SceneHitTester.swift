/// Finds what is under a screen point in a scene: the topmost item wins.
public enum SceneHitTester {
    /// What a point hits.
    public enum Hit: Equatable, Sendable {
        case callout(pointIndex: Int)
        /// A bubble's card (not on one of its buttons), and a button on it.
        case bubbleCard(SceneItemID)
        case bubbleCardButton(SceneItemID, CalloutAction)
        /// A button on the callout card.
        case calloutButton(pointIndex: Int, CalloutAction)
        case pin(SceneItemID, pointIndex: Int)
        case bubble(SceneItemID)
    }

    /// The topmost item under `p`: the callout, then pins (last drawn first), then bubbles.
    /// - Complexity: O(n) in the number of drawn items.
    public static func hit(_ scene: Scene, at p: ScreenPoint, style: BubbleStyle = BubbleStyle()) -> Hit? {
        if let c = scene.callout, c.frame.contains(p) {
            let local = ScreenPoint(x: p.x - c.frame.x, y: p.y - c.frame.y)
            let button = c.buttons.first { $0.frame.contains(local) }
            if let bubble = c.bubble { return button.map { .bubbleCardButton(bubble, $0.action) } ?? .bubbleCard(bubble) }
            if let b = button {
                return .calloutButton(pointIndex: c.pointIndex, b.action)
            }
            return .callout(pointIndex: c.pointIndex)
        }
        let pinR = style.pinRadius + style.hitSlop
        for pin in scene.pins.reversed() {
            let dx = p.x - pin.center.x, dy = p.y - pin.center.y
            if dx * dx + dy * dy <= pinR * pinR { return .pin(pin.id, pointIndex: pin.pointIndex) }
            if let label = pin.label, labelRect(for: pin.center, text: label, style: style).contains(p) {
                return .pin(pin.id, pointIndex: pin.pointIndex)
            }
        }
        for b in scene.bubbles.reversed() {
            let dx = p.x - b.center.x, dy = p.y - b.center.y
            let r = b.radius + style.hitSlop
            if dx * dx + dy * dy <= r * r { return .bubble(b.id) }
        }
        return nil
    }

    /// The capsule of a pin's label: to the right of the pin, vertically centred.
    /// Width is estimated from the character count (7 px per character plus padding) so hit-testing
    /// needs no font; the renderer uses the same rectangle.
    /// A price-like label (`PinLabel.isMarker`) is the marker itself: its capsule is centred on
    /// the place, a little taller.
    public static func labelRect(for center: ScreenPoint, text: String, style: BubbleStyle = BubbleStyle()) -> ScreenRect {
        let w = Double(text.count) * 7 + 12
        if PinLabel.isMarker(text) {
            let mw = max(w + 4, 2 * (style.pinRadius + style.hitSlop))
            return ScreenRect(x: center.x - mw / 2, y: center.y - 12, width: mw, height: 24)
        }
        return ScreenRect(x: center.x + style.pinRadius + 2, y: center.y - 10, width: w, height: 20)
    }
}
