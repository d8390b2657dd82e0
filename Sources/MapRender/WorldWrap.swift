/// Horizontal world wrapping: which copies of the unit-square world cover a span of world pixels.
public enum WorldWrap {
    /// Integer offsets k such that world copy `[k·worldSize, (k+1)·worldSize)` intersects the
    /// world-pixel span `minX ... maxX` (unwrapped world pixels at the current zoom).
    public static func copies(minX: Double, maxX: Double, worldSize: Double) -> ClosedRange<Int> {
        guard worldSize > 0, minX.isFinite, maxX.isFinite, maxX >= minX else { return 0...0 }
        let first = Int((minX / worldSize).rounded(.down))
        var last = Int((maxX / worldSize).rounded(.down))
        // A span ending exactly on a copy's west edge doesn't need that copy.
        if Double(last) * worldSize == maxX && last > first { last -= 1 }
        return first...last
    }
}
