/// Touchpad (smooth) scrolling zooms continuously around the pointer, following the fingers
/// with no animation of its own; Ctrl+scroll does the same.
///
/// Use for scroll events whose unit is `GDK_SCROLL_UNIT_SURFACE`. GTK 4.8 scroll events carry no
/// position: pass the last pointer position from a motion controller.
public struct ContinuousScrollZoomHandler: Sendable {
    /// Zoom levels per pixel of vertical scrolling (100 px of finger travel = one level).
    public static let zoomLevelsPerScrollPixel = 0.01

    /// A handler (stateless).
    public init() {}

    /// A scroll of `deltaY` surface pixels (positive = down = zoom out) at `pointer`.
    public func scroll(deltaY: Double, at pointer: ScreenPoint, in context: GestureContext) -> CameraChange {
        guard deltaY.isFinite, deltaY != 0 else { return .none }
        return .set(context.camera.zoomed(by: -deltaY * ContinuousScrollZoomHandler.zoomLevelsPerScrollPixel,
                                          around: pointer))
    }
}
