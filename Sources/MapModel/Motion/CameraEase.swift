import Foundation
import ClusterCore

/// A short eased move from one camera to another (wheel zoom steps, keyboard pans, revealing a
/// callout), as a pure function of elapsed time.
///
/// With an anchor, the zoom is interpolated and applied around the anchor, so the point under
/// the pointer stays put on every frame, not only at the end. Without one, the centre (in world
/// pixels, the short way round) and the zoom are interpolated together.
public struct CameraEase: Sendable {
    /// Default length of a zoom step or a small pan.
    public static let defaultDurationSeconds = 0.25

    /// The camera at elapsed time 0.
    public let start: Camera
    /// The camera at the end, returned exactly from `duration` on.
    public let target: Camera
    /// Seconds from start to target.
    public let duration: Double
    /// Screen point kept fixed while zooming, if any.
    public let anchor: ScreenPoint?
    /// Timing curve.
    public let easing: Easing

    /// Eases from `start` to `target`, interpolating centre and zoom.
    public init(from start: Camera, to target: Camera,
                duration: Double = CameraEase.defaultDurationSeconds, easing: Easing = .easeOut) {
        self.start = start
        self.target = target
        self.duration = max(0, duration)
        self.anchor = nil
        self.easing = easing
    }

    /// Eases a zoom by `delta` levels around `anchor` (the coordinate under it stays under it).
    public static func zoom(from start: Camera, by delta: Double, around anchor: ScreenPoint,
                            duration: Double = CameraEase.defaultDurationSeconds,
                            easing: Easing = .easeOut) -> CameraEase {
        CameraEase(start: start, target: start.zoomed(by: delta, around: anchor),
                   duration: duration, anchor: anchor, easing: easing)
    }

    private init(start: Camera, target: Camera, duration: Double, anchor: ScreenPoint?, easing: Easing) {
        self.start = start
        self.target = target
        self.duration = max(0, duration)
        self.anchor = anchor
        self.easing = easing
    }

    /// Whether the ease is over `elapsed` seconds after its start.
    public func isFinished(at elapsed: Double) -> Bool { elapsed >= duration }

    /// The camera `elapsed` seconds after the start (exactly `start` at 0, `target` at the end).
    public func camera(at elapsed: Double) -> Camera {
        if elapsed >= duration { return target }
        if elapsed <= 0 { return start }
        let e = easing(elapsed / duration)
        if let anchor {
            return start.zoomed(by: (target.zoom - start.zoom) * e, around: anchor)
        }
        let a = start.world0Center, b = target.world0Center
        let dx = Camera.shortestDelta(from: a.x, to: b.x, width: Camera.world0Size)
        return start.moved(toWorld0: a.x + dx * e, a.y + (b.y - a.y) * e,
                           zoom: start.zoom + (target.zoom - start.zoom) * e)
    }
}
