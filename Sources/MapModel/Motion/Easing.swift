/// Timing curves that map linear progress 0…1 to eased progress 0…1.
///
/// Each curve is exact at its ends (0 ↦ 0, 1 ↦ 1) and clamps its input, so callers can feed
/// `elapsed / duration` directly and still get exact endpoints.
public enum Easing: Sendable, Equatable {
    /// No easing.
    case linear
    /// Smoothstep `3p² − 2p³`: gentle start and stop, peak speed 1.5× the average (flights).
    case easeInOut
    /// Cubic ease-out `1 − (1 − p)³`: starts at full speed and settles (zoom steps, reveals).
    case easeOut

    /// Eased progress for linear progress `p` (clamped to 0…1).
    public func callAsFunction(_ p: Double) -> Double {
        guard p.isFinite else { return p > 0 ? 1 : 0 }
        let t = min(1, max(0, p))
        switch self {
        case .linear: return t
        case .easeInOut: return t * t * (3 - 2 * t)
        case .easeOut:
            let r = 1 - t
            return 1 - r * r * r
        }
    }
}
