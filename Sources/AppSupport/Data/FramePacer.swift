/// Paces the map's frames while a big file loads (issue 14): at most one frame per
/// `minimumInterval`, so the map still follows the pointer — SPEC §8 asks for frames at most
/// 33 ms apart during a load — while drawing (and the display server's copy of each frame)
/// leaves the two cores to the loader. Panning at 60 frames a second during a 10M-point load
/// costs the load about a third of its speed on two cores; at 30 it costs half as much.
///
/// The window paces at every refresh now (see `MapViewController.framePacer`: measured, the
/// loader's lower priority is enough); the pacer stays as the one place that decides it.
///
/// Pure: the caller passes the time; `request` says when to ask GTK for the frame.
public struct FramePacer: Sendable {
    /// What to do with a request for a frame.
    public enum Decision: Equatable, Sendable {
        /// Ask for it now.
        case now
        /// Ask for it after this many seconds (a timer; no other request needs one meanwhile).
        case after(Double)
        /// A frame is already on its way: nothing to do.
        case alreadyPending
    }

    /// Shortest time from one frame's refresh (the frame clock's time) to the next request.
    /// Between one and two refreshes (16.7 ms at 60 Hz): the request is drawn at the next
    /// refresh, so frames come every second refresh, 33 ms apart, and a timer up to 13 ms late
    /// still makes it.
    public var minimumInterval: Double

    private var lastFrame = -Double.infinity
    private var pending = false

    public init(minimumInterval: Double = 0.020) {
        self.minimumInterval = minimumInterval
    }

    /// A frame is wanted at `now`.
    public mutating func request(at now: Double) -> Decision {
        if pending { return .alreadyPending }
        let wait = lastFrame + minimumInterval - now
        guard wait > 0 else { return .now }
        pending = true
        return .after(wait)
    }

    /// The timer of an `.after` decision fired (ask GTK for the frame now).
    public mutating func timerFired() { pending = false }

    /// A frame was drawn at `now`.
    public mutating func frameDrawn(at now: Double) {
        lastFrame = now
    }
}
