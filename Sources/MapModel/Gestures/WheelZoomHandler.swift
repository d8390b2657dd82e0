/// A mouse-wheel notch zooms around the pointer in a short smooth step; quick successive notches
/// add up (each aims from the previous step's target, not from where the animation was).
///
/// Use for scroll events whose unit is `GDK_SCROLL_UNIT_WHEEL` (with or without Ctrl). High-
/// resolution wheels send fractions of a notch; they zoom by the same fraction.
public struct WheelZoomHandler: Sendable {
    /// Zoom levels per wheel notch.
    public static let zoomLevelsPerWheelNotch = 1.0
    /// Length of the eased step.
    public static let zoomAnimationDurationSeconds = 0.25

    /// A handler (it keeps no state: accumulation comes from the interrupted animation).
    public init() {}

    /// `notches` as GTK reports them (positive = scroll down = zoom out), at `pointer`.
    public func scroll(notches: Double, at pointer: ScreenPoint, in context: GestureContext) -> CameraChange {
        guard notches.isFinite, notches != 0 else { return .none }
        return ZoomStep.change(by: -notches * WheelZoomHandler.zoomLevelsPerWheelNotch,
                               around: pointer, duration: WheelZoomHandler.zoomAnimationDurationSeconds,
                               in: context)
    }
}

/// Shared by the step-zoom gestures (wheel, double-click, `+`/`-`): an eased zoom around a point
/// whose target adds to the target of the zoom step it interrupted.
enum ZoomStep {
    static func change(by levels: Double, around anchor: ScreenPoint, duration: Double,
                       in context: GestureContext) -> CameraChange {
        let camera = context.camera
        let aimed = context.base(accumulating: .zoomStep).zoom + levels
        let targetZoom = min(camera.maxZoom, max(camera.minZoom, aimed))
        let delta = targetZoom - camera.zoom
        guard abs(delta) > 1e-9 else { return .none }
        let ease = CameraEase.zoom(from: camera, by: delta, around: anchor, duration: duration)
        return .animate(CameraAnimation(.ease(ease), purpose: .zoomStep, startTime: context.now))
    }
}
