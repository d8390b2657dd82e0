/// Bubble size and colour steps by count (SPEC §7: < 100, < 750, ≥ 750) and pin sizes.
public struct BubbleStyle: Sendable, Equatable {
    /// Upper bounds (exclusive) of the first steps; counts at or above the last are the top step.
    public var stepThresholds: [Int] = [100, 750]
    /// Radius in logical pixels per step.
    public var radii: [Double] = [15, 20, 26]
    /// Pin radius in logical pixels (a 16-px mark, SPEC §7).
    public var pinRadius: Double = 8
    /// Extra pixels around an item that still count as a hit (fingers and imprecise pointers):
    /// a pin's hit area is 24 px across.
    public var hitSlop: Double = 4

    public init() {}

    /// The style step for a count.
    public func step(forCount count: Int) -> Int {
        for (i, t) in stepThresholds.enumerated() where count < t { return i }
        return stepThresholds.count
    }

    /// The bubble radius for a count.
    public func radius(forCount count: Int) -> Double {
        radii[min(step(forCount: count), radii.count - 1)]
    }
}
