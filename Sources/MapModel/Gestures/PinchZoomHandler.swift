import Foundation

/// Pinch zooms around the fingers' centre and pans with it (GtkGestureZoom).
///
/// GtkGestureZoom reports the scale since the gesture began; the handler turns each update into a
/// delta: zoom by `log2(scale / previous scale)` and pan by the centre's movement, so the place
/// between the fingers stays between them.
public struct PinchZoomHandler: Sendable {
    /// Scale changes smaller than this (as a ratio) are ignored: sensor noise while panning.
    public static let minimumScaleRatioChange = 1e-4

    private var lastScale = 1.0
    private var lastCenter: ScreenPoint?

    /// A handler between pinches.
    public init() {}

    /// The pinch began with the fingers' centre at `center`.
    public mutating func begin(center: ScreenPoint, in context: GestureContext) -> CameraChange {
        lastScale = 1
        lastCenter = center
        return .none
    }

    /// The cumulative scale is now `scale`, the fingers' centre `center`.
    public mutating func update(scale: Double, center: ScreenPoint, in context: GestureContext) -> CameraChange {
        guard scale.isFinite, scale > 0, center.x.isFinite, center.y.isFinite else { return .none }
        let previous = lastCenter ?? center
        var ratio = scale / lastScale
        if abs(ratio - 1) < PinchZoomHandler.minimumScaleRatioChange { ratio = 1 } else { lastScale = scale }
        lastCenter = center
        var c = context.camera
        // Pan first: the point that was under the old centre comes under the new centre; then
        // zoom around the new centre, which keeps it there.
        c.pan(by: center.x - previous.x, center.y - previous.y)
        if ratio != 1 { c.zoom(by: log2(ratio), around: center) }
        return c == context.camera ? .none : .set(c)
    }

    /// The pinch ended (no inertia for pinches).
    public mutating func end(in context: GestureContext) -> CameraChange {
        lastCenter = nil
        lastScale = 1
        return .none
    }
}
