import Foundation

/// One point set's `PreparedPoints`, made when first asked and kept. After a live update the
/// new set's cache follows the old one's (`follow`): when asked, it updates the old prepared
/// points (only the changed points are prepared again: `PreparedPoints.updated`) instead of
/// preparing every point from scratch — if the old ones were made, or are being made then.
///
/// Thread-safe: one caller makes them, others asking meanwhile wait for the same result.
public final class PreparedPointsCache: @unchecked Sendable {
    private let lock = NSLock()
    private var made: PreparedPoints?
    /// The previous point set's cache and points, until this one's are made.
    private var previous: (cache: PreparedPointsCache, points: [GeoCoordinate])?
    /// Whether `prepared` is making them now (a follower then waits for them rather than
    /// preparing from scratch).
    private var making = false

    public init() {}

    /// The prepared points if already made (never waits, never makes them).
    public var ifMade: PreparedPoints? { lock.withLock { made } }

    /// Makes the next `prepared` start from `old`'s prepared points, made from `oldPoints`
    /// (the previous version of this set's points). Nothing is linked when `old` has none and
    /// isn't making them: then there is nothing to start from, and a chain of unmade caches
    /// would keep every old version's points alive.
    public func follow(_ old: PreparedPointsCache, oldPoints: [GeoCoordinate]) {
        guard old !== self, old.lock.withLock({ old.made != nil || old.making }) else { return }
        lock.withLock {
            if made == nil { previous = (old, oldPoints) }
        }
    }

    /// The prepared points of `points` with `options` (the same every call), made on first use:
    /// from the followed cache's when there is one with the same options, else from scratch.
    public func prepared(points: [GeoCoordinate], options: HierarchicalClusterer.Options) -> PreparedPoints {
        lock.lock()
        defer { lock.unlock() }
        if let made, made.count == points.count { return made }
        making = true
        defer { making = false }
        var result: PreparedPoints?
        if let (cache, oldPoints) = previous {
            previous = nil
            // The old cache's are made or being made (`follow`): asking waits for them.
            if let old = cache.madeWaiting(), old.count == oldPoints.count, old.serves(options) {
                result = old.updated(points: points, from: oldPoints)
            }
        }
        let prepared = result ?? PreparedPoints(points: points, options: options)
        made = prepared
        return prepared
    }

    /// The made points, waiting while they are being made (the maker holds the lock); nil if
    /// never asked.
    private func madeWaiting() -> PreparedPoints? {
        lock.withLock { made }
    }
}
