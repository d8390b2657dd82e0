import Foundation

/// Lets progress through at most ~30 times a second (issue 14): every update costs the GTK
/// thread a wake-up and a redraw of the progress bar, and the loader reports every 1% of a file
/// whatever its size. The first and the last (complete) update always pass.
public final class ProgressThrottle: @unchecked Sendable {
    /// Shortest time between two updates that pass.
    public let interval: Double
    private let lock = NSLock()
    private var last = -Double.infinity
    private var held: Int?
    private let clock: @Sendable () -> Double

    /// `clock` gives seconds (monotonic); tests pass their own.
    public init(interval: Double = 1.0 / 30, clock: @escaping @Sendable () -> Double = ProgressThrottle.monotonicSeconds) {
        self.interval = interval
        self.clock = clock
    }

    /// Whether an update at `fraction` (1 = done) should be shown.
    public func admits(_ fraction: Double) -> Bool {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        guard fraction >= 1 || now - last >= interval else { return false }
        last = now
        return true
    }

    /// Whether a stream's update at `bytes` read should be shown. One that is held back is kept:
    /// `takeHeldBytes` gives it when the stream has ended, so the count shown is complete.
    public func admits(bytes: Int) -> Bool {
        let now = clock()
        lock.lock()
        defer { lock.unlock() }
        guard now - last >= interval else {
            held = bytes
            return false
        }
        last = now
        held = nil
        return true
    }

    /// The last stream update held back, once (nil when the last one was shown).
    public func takeHeldBytes() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        let h = held
        held = nil
        return h
    }

    public static func monotonicSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
