/// What a gesture handler asks of the camera: nothing, an immediate change, or an animation.
public enum CameraChange: Sendable {
    /// Leave the camera alone.
    case none
    /// Show this camera now.
    case set(Camera)
    /// Start this animation (it replaces any running one).
    case animate(CameraAnimation)

    /// A flight from the context's camera to `target` starting now (clicking a bubble, fly-to).
    /// Under reduced motion the controller turns it into a jump.
    public static func fly(to target: Camera, purpose: CameraAnimation.Purpose = .flight,
                           in context: GestureContext) -> CameraChange {
        .animate(CameraAnimation(.flight(FlightPath(from: context.camera, to: target)),
                                 purpose: purpose, startTime: context.now))
    }
}

/// What a gesture handler sees: the camera after any running animation was stopped, the time,
/// and the animation that was stopped (so successive wheel notches can accumulate).
public struct GestureContext: Sendable {
    /// The camera as it is now (where a running animation was interrupted).
    public let camera: Camera
    /// Clock time in seconds.
    public let now: Double
    /// The animation this input interrupted, if any.
    public let interrupted: CameraAnimation?

    /// Creates a context (tests; the app gets one from `CameraController.interrupt(at:)`).
    public init(camera: Camera, now: Double, interrupted: CameraAnimation? = nil) {
        self.camera = camera
        self.now = now
        self.interrupted = interrupted
    }

    /// The camera a step-like gesture should build on: the interrupted animation's target when
    /// it was the same kind of step (so quick repeats add up), else the current camera.
    func base(accumulating purpose: CameraAnimation.Purpose) -> Camera {
        if let a = interrupted, a.purpose == purpose { return a.target }
        return camera
    }
}
