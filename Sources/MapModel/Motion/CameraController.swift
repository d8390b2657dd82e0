/// Owns the camera and at most one running animation; the single place gestures and the
/// frame clock meet.
///
/// Every input first calls `interrupt(at:)` (the running animation stops where it is), hands the
/// returned context to its gesture handler, and passes the handler's `CameraChange` to
/// `apply(_:at:)`. The frame-clock driver calls `advance(to:)` on each frame. The motion policy is
/// applied here, so handlers need not know about reduced motion: flights become jumps with a
/// short cross-fade, eases become immediate, kinetic pans are dropped.
///
/// All times are seconds on one monotonic clock: use the frame clock's frame time
/// (`gdk_frame_clock_get_frame_time` / 1e6) for ticks and `g_get_monotonic_time()` / 1e6 for input
/// events — the same clock.
public struct CameraController: Sendable {
    /// The camera to draw.
    public private(set) var camera: Camera
    /// The running animation, if any.
    public private(set) var animation: CameraAnimation?
    /// Reduced-motion settings; change them live with `updateMotionPolicy(_:at:)`.
    public private(set) var motionPolicy: MotionPolicy

    /// Creates a controller showing `camera`.
    public init(camera: Camera, motionPolicy: MotionPolicy = MotionPolicy()) {
        self.camera = camera
        self.motionPolicy = motionPolicy
    }

    /// Whether an animation is running (the driver keeps its tick callback while this holds).
    public var isAnimating: Bool { animation != nil }

    /// Stops any running animation where it is and returns what a gesture handler needs.
    /// Call first on every input (SPEC §5.1: new input interrupts at once, from where the camera is).
    public mutating func interrupt(at now: Double) -> GestureContext {
        let stopped = animation
        if let a = stopped {
            camera = a.interrupt(at: now).resized(to: camera.viewportSize)
            animation = nil
        }
        return GestureContext(camera: camera, now: now, interrupted: stopped)
    }

    /// Applies a handler's change at `now` (interrupting anything still running first).
    /// Returns the animation that was started, if any (to log a flight's start).
    @discardableResult
    public mutating func apply(_ change: CameraChange, at now: Double) -> CameraAnimation? {
        _ = interrupt(at: now)
        switch adjustedForMotionPolicy(change) {
        case .none:
            return nil
        case .set(let c):
            camera = c.resized(to: camera.viewportSize)
            return nil
        case .animate(let a):
            animation = a
            camera = a.camera(at: now).resized(to: camera.viewportSize)
            return a
        }
    }

    /// What the frame clock gets on each tick.
    public struct Frame: Sendable {
        /// The camera to draw.
        public let camera: Camera
        /// The animation that ended on this frame (log `flight-end` for flights).
        public let finished: CameraAnimation?
        /// Whether an animation is still running after this frame.
        public let isAnimating: Bool
    }

    /// Advances the running animation to `now` (the frame clock's time in seconds).
    public mutating func advance(to now: Double) -> Frame {
        guard let a = animation else { return Frame(camera: camera, finished: nil, isAnimating: false) }
        camera = a.camera(at: now).resized(to: camera.viewportSize)
        if a.isFinished(at: now) {
            animation = nil
            return Frame(camera: camera, finished: a, isAnimating: false)
        }
        return Frame(camera: camera, finished: nil, isAnimating: true)
    }

    /// Shows `camera` at once, stopping any animation (window set-up, tests).
    public mutating func jump(to camera: Camera, at now: Double) {
        apply(.set(camera), at: now)
    }

    /// Follows a new viewport size (window resize); a running animation continues in it.
    public mutating func setViewportSize(_ size: ScreenSize) {
        camera.viewportSize = size
    }

    /// Follows a change of the reduced-motion settings. When motion becomes reduced mid-flight or
    /// mid-ease, the camera goes straight to the target (a kinetic pan just stops); that
    /// animation is returned so the app can log its end.
    @discardableResult
    public mutating func updateMotionPolicy(_ policy: MotionPolicy, at now: Double) -> CameraAnimation? {
        motionPolicy = policy
        guard policy.prefersReducedMotion, let a = animation else { return nil }
        if case .flight(let f) = a.kind, f.isJump { return nil }
        animation = nil
        if case .kinetic = a.kind {
            camera = a.camera(at: now).resized(to: camera.viewportSize)
        } else {
            camera = a.target.resized(to: camera.viewportSize)
        }
        return a
    }

    private func adjustedForMotionPolicy(_ change: CameraChange) -> CameraChange {
        guard case .animate(let a) = change else { return change }
        if motionPolicy.prefersReducedMotion {
            switch a.kind {
            case .flight(let f):
                let jump = FlightPath.jump(from: f.start, to: f.target,
                                           crossFadeSeconds: MotionPolicy.reducedMotionCrossFadeSeconds)
                return .animate(CameraAnimation(.flight(jump), purpose: a.purpose, startTime: a.startTime))
            case .ease:
                return .set(a.target)
            case .kinetic:
                return .none
            }
        }
        // A zero-length ease or pan is just a camera change; flights stay animations so the app
        // logs their start and end.
        if case .flight = a.kind { return change }
        return a.duration > 0 ? change : .set(a.target)
    }
}

extension Camera {
    /// A copy with another viewport size (only when it differs, to keep values identical).
    func resized(to size: ScreenSize) -> Camera {
        if viewportSize == size { return self }
        var c = self
        c.viewportSize = size
        return c
    }
}
