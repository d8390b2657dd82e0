/// A running camera animation: a flight, an ease or a kinetic pan, started at a given time.
///
/// The frame-clock driver asks it for the camera at `now` (seconds on any monotonic clock, the
/// same one used for `startTime`); nothing here reads a clock.
public struct CameraAnimation: Sendable {
    /// The motion itself.
    public enum Kind: Sendable {
        /// A van Wijk–Nuij flight (or its jump).
        case flight(FlightPath)
        /// A short ease.
        case ease(CameraEase)
        /// Inertia after a drag, applied to the camera at release.
        case kinetic(KineticPan, from: Camera)
    }

    /// Why the animation runs; gestures use it to accumulate (a second wheel notch during a
    /// wheel zoom step aims further than the first one's target).
    public enum Purpose: Sendable, Equatable {
        /// Click on a bubble, or any fly-to.
        case flight
        /// Zoom step around a point (wheel notch, double-click, `+`/`-`).
        case zoomStep
        /// Keyboard arrow pan.
        case keyboardPan
        /// Ease to show all the data (`0`/Home).
        case showAll
        /// Ease just enough to reveal a callout.
        case reveal
        /// Inertia after a drag.
        case kinetic
    }

    /// The motion.
    public let kind: Kind
    /// Why it runs.
    public let purpose: Purpose
    /// Clock time (seconds) at which it started.
    public let startTime: Double

    /// Creates an animation starting at `startTime`.
    public init(_ kind: Kind, purpose: Purpose, startTime: Double) {
        self.kind = kind
        self.purpose = purpose
        self.startTime = startTime
    }

    /// Seconds from start to end.
    public var duration: Double {
        switch kind {
        case .flight(let f): return f.duration
        case .ease(let e): return e.duration
        case .kinetic(let k, _): return k.duration
        }
    }

    /// The camera at the start.
    public var start: Camera {
        switch kind {
        case .flight(let f): return f.start
        case .ease(let e): return e.start
        case .kinetic(_, let c): return c
        }
    }

    /// The camera it ends at.
    public var target: Camera {
        switch kind {
        case .flight(let f): return f.target
        case .ease(let e): return e.target
        case .kinetic(let k, let c):
            let o = k.offset(at: k.duration)
            return c.panned(by: o.x, o.y)
        }
    }

    /// The camera at clock time `now`.
    public func camera(at now: Double) -> Camera {
        let t = now - startTime
        switch kind {
        case .flight(let f): return f.camera(at: t)
        case .ease(let e): return e.camera(at: t)
        case .kinetic(let k, let c):
            if k.isFinished(at: t) { return target }
            let o = k.offset(at: t)
            return c.panned(by: o.x, o.y)
        }
    }

    /// Whether it is over at clock time `now`.
    public func isFinished(at now: Double) -> Bool { now - startTime >= duration }

    /// Stops the animation at `now` and returns the camera where it was (the new input starts
    /// from there, never from the target).
    public func interrupt(at now: Double) -> Camera { camera(at: now) }
}
