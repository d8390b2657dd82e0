/// Fade-in of a tile that just arrived: its opacity as a function of time (time is an input, so
/// tests need no clock).
public enum TileFade {
    /// Default fade duration in seconds; short enough not to feel slow on a pan.
    public static let defaultDuration = 0.2

    /// Opacity 0…1 of a tile that arrived at `arrival` seconds, at time `now`; 1 with reduced
    /// motion or a non-positive duration.
    public static func opacity(arrival: Double, now: Double, duration: Double = defaultDuration,
                               reducedMotion: Bool = false) -> Double {
        guard !reducedMotion, duration > 0 else { return 1 }
        let t = (now - arrival) / duration
        guard t.isFinite else { return 1 }
        // Smoothstep: starts and ends gently.
        let c = min(1, max(0, t))
        return c * c * (3 - 2 * c)
    }
}
