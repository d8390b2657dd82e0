/// "Ease just enough" to bring something into view (SPEC §5.3: a selected pin and its callout),
/// without changing the zoom.
public enum RevealPan {
    /// Margin kept between the revealed rectangle and the viewport's edges.
    public static let marginPixels = 16.0
    /// Length of the reveal ease.
    public static let durationSeconds = 0.3

    /// The smallest content shift (screen pixels, as for `Camera.pan(by:_:)`) that puts `rect`
    /// inside the viewport with `margin` around it. When it cannot fit, its top-left edge wins
    /// (a callout's title is at its top).
    public static func delta(toShow rect: ScreenRect, in viewport: ScreenSize,
                             margin: Double = RevealPan.marginPixels) -> ScreenPoint {
        ScreenPoint(x: axisDelta(rect.minX, rect.maxX, viewport.width, margin),
                    y: axisDelta(rect.minY, rect.maxY, viewport.height, margin))
    }

    /// The change to make: an eased pan, or `.none` when `rect` is already in view.
    public static func change(toShow rect: ScreenRect, margin: Double = RevealPan.marginPixels,
                              in context: GestureContext) -> CameraChange {
        let d = delta(toShow: rect, in: context.camera.viewportSize, margin: margin)
        guard d.x != 0 || d.y != 0 else { return .none }
        let ease = CameraEase(from: context.camera, to: context.camera.panned(by: d.x, d.y),
                              duration: durationSeconds)
        return .animate(CameraAnimation(.ease(ease), purpose: .reveal, startTime: context.now))
    }

    private static func axisDelta(_ lo: Double, _ hi: Double, _ size: Double, _ margin: Double) -> Double {
        let minEdge = margin, maxEdge = size - margin
        // Too big to fit, or sticking out at the top/left: align the top/left edge.
        if hi - lo > maxEdge - minEdge || lo < minEdge { return minEdge - lo }
        if hi > maxEdge { return maxEdge - hi }
        return 0
    }
}
