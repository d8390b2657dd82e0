import Foundation

/// Inertia after a drag: the release velocity decays exponentially until it is too slow to see
/// (libshumate/GTK kinetic scrolling: `v(t) = v₀·e^(−k·t)`).
///
/// `offset(at:)` is the total screen displacement since release, a pure function of elapsed
/// time: `v₀/k·(1 − e^(−k·t))`, frozen once the speed drops below `stopSpeedPixelsPerSecond`.
public struct KineticPan: Sendable, Equatable {
    /// Decay rate k of the velocity (1/s): speed halves every ln 2 / k ≈ 0.17 s; a throw
    /// travels v₀/k in total.
    public static let decayRatePerSecond = 4.0
    /// Releases slower than this do not coast (a deliberate stop is not a throw).
    public static let minStartSpeedPixelsPerSecond = 60.0
    /// The pan stops once its speed falls below this.
    public static let stopSpeedPixelsPerSecond = 10.0
    /// Release speeds are capped here so a jittery flick cannot send the map across the world.
    public static let maxSpeedPixelsPerSecond = 3000.0
    /// Only drag samples this recent (before release) count towards the release velocity.
    public static let velocityWindowSeconds = 0.08

    /// A pointer position during a drag, with its time in seconds.
    public struct Sample: Sendable, Equatable {
        public var time: Double
        public var position: ScreenPoint
        public init(time: Double, position: ScreenPoint) { self.time = time; self.position = position }
    }

    /// Release velocity in screen pixels per second (after capping).
    public let velocity: ScreenPoint
    /// Seconds until the pan stops.
    public let duration: Double

    /// A coasting pan from a release velocity (px/s); nil when too slow to coast.
    public init?(velocity v: ScreenPoint) {
        var vx = v.x, vy = v.y
        guard vx.isFinite, vy.isFinite else { return nil }
        var speed = (vx * vx + vy * vy).squareRoot()
        guard speed >= KineticPan.minStartSpeedPixelsPerSecond else { return nil }
        if speed > KineticPan.maxSpeedPixelsPerSecond {
            let f = KineticPan.maxSpeedPixelsPerSecond / speed
            vx *= f; vy *= f
            speed = KineticPan.maxSpeedPixelsPerSecond
        }
        velocity = ScreenPoint(x: vx, y: vy)
        duration = log(speed / KineticPan.stopSpeedPixelsPerSecond) / KineticPan.decayRatePerSecond
    }

    /// A coasting pan from the drag's samples, released at `releaseTime`; nil under reduced
    /// motion or when the release was too slow.
    public init?(samples: [Sample], releaseTime: Double, reducedMotion: Bool) {
        guard !reducedMotion else { return nil }
        self.init(velocity: KineticPan.velocity(of: samples, at: releaseTime))
    }

    /// Release velocity (px/s) from the samples within `velocityWindowSeconds` before release:
    /// the average over that window, zero if the pointer had stopped before letting go.
    public static func velocity(of samples: [Sample], at releaseTime: Double) -> ScreenPoint {
        let recent = samples.filter {
            $0.time >= releaseTime - velocityWindowSeconds && $0.time <= releaseTime
        }
        guard let first = recent.first, let last = recent.last else { return .zero }
        let dt = last.time - first.time
        // Too short a span (two events in one frame) gives a meaningless ratio.
        guard dt >= 0.005 else { return .zero }
        return ScreenPoint(x: (last.position.x - first.position.x) / dt,
                           y: (last.position.y - first.position.y) / dt)
    }

    /// Whether the pan has stopped `elapsed` seconds after release.
    public func isFinished(at elapsed: Double) -> Bool { elapsed >= duration }

    /// Speed (px/s) `elapsed` seconds after release; 0 once stopped.
    public func speed(at elapsed: Double) -> Double {
        guard elapsed < duration else { return 0 }
        let s = (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot()
        return s * exp(-KineticPan.decayRatePerSecond * max(0, elapsed))
    }

    /// Total screen displacement since release, `elapsed` seconds after it.
    public func offset(at elapsed: Double) -> ScreenPoint {
        let t = min(max(0, elapsed), duration)
        let k = KineticPan.decayRatePerSecond
        let f = (1 - exp(-k * t)) / k
        return ScreenPoint(x: velocity.x * f, y: velocity.y * f)
    }
}
