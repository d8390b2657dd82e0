/// Double-click zooms in one level at the pointer, animated; a double-click during that step
/// adds another level.
public struct DoubleClickZoomHandler: Sendable {
    /// Zoom levels per double-click.
    public static let zoomLevelsPerDoubleClick = 1.0
    /// Length of the eased step.
    public static let zoomAnimationDurationSeconds = 0.3

    /// A handler (stateless).
    public init() {}

    /// A double-click at `pointer`; `zoomOut` (e.g. with Shift) zooms out instead.
    public func doubleClick(at pointer: ScreenPoint, zoomOut: Bool = false,
                            in context: GestureContext) -> CameraChange {
        let levels = zoomOut ? -DoubleClickZoomHandler.zoomLevelsPerDoubleClick
                             : DoubleClickZoomHandler.zoomLevelsPerDoubleClick
        return ZoomStep.change(by: levels, around: pointer,
                               duration: DoubleClickZoomHandler.zoomAnimationDurationSeconds, in: context)
    }
}
