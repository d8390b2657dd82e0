import ClusterCore

/// Keyboard camera control: arrows pan, `+`/`-` zoom around the centre, `0`/Home shows all data.
/// Held keys repeat; each repeat aims from the previous step's target so movement stays even.
public struct KeyboardNavigationHandler: Sendable {
    /// Screen pixels panned per arrow press.
    public static let keyboardPanPixels = 100.0
    /// Length of the eased arrow pan.
    public static let keyboardPanDurationSeconds = 0.2
    /// Zoom levels per `+`/`-` press.
    public static let keyboardZoomLevels = 1.0
    /// Length of the eased `+`/`-` step.
    public static let keyboardZoomDurationSeconds = 0.25
    /// Margin around the data when showing all of it.
    public static let showAllPaddingPixels = 40.0
    /// "Show all" never zooms deeper than this (one place would otherwise fill the screen at z18).
    public static let showAllMaxZoom = 14.0

    /// The keys the map understands (the app maps GDK keyvals: arrows, plus/equal/KP_Add,
    /// minus/KP_Subtract, 0/KP_0/Home).
    public enum Key: Sendable, Equatable {
        case left, right, up, down, zoomIn, zoomOut, showAll
    }

    /// A handler (stateless).
    public init() {}

    /// A key press; `dataBounds` is the loaded data's extent, needed for `.showAll`.
    public func press(_ key: Key, dataBounds: GeoBounds? = nil, in context: GestureContext) -> CameraChange {
        let step = KeyboardNavigationHandler.keyboardPanPixels
        switch key {
        // The view moves towards the arrow, so the content moves the other way.
        case .left: return pan(dx: step, dy: 0, in: context)
        case .right: return pan(dx: -step, dy: 0, in: context)
        case .up: return pan(dx: 0, dy: step, in: context)
        case .down: return pan(dx: 0, dy: -step, in: context)
        case .zoomIn, .zoomOut:
            let size = context.camera.viewportSize
            let levels = key == .zoomIn ? KeyboardNavigationHandler.keyboardZoomLevels
                                        : -KeyboardNavigationHandler.keyboardZoomLevels
            return ZoomStep.change(by: levels, around: ScreenPoint(x: size.width / 2, y: size.height / 2),
                                   duration: KeyboardNavigationHandler.keyboardZoomDurationSeconds,
                                   in: context)
        case .showAll:
            guard let bounds = dataBounds else { return .none }
            let target = context.camera.fitting(bounds, paddingPixels: KeyboardNavigationHandler.showAllPaddingPixels,
                                                maxZoom: KeyboardNavigationHandler.showAllMaxZoom)
            return .fly(to: target, purpose: .showAll, in: context)
        }
    }

    private func pan(dx: Double, dy: Double, in context: GestureContext) -> CameraChange {
        let target = context.base(accumulating: .keyboardPan).panned(by: dx, dy)
        let ease = CameraEase(from: context.camera, to: target,
                              duration: KeyboardNavigationHandler.keyboardPanDurationSeconds)
        return .animate(CameraAnimation(.ease(ease), purpose: .keyboardPan, startTime: context.now))
    }
}
