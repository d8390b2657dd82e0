import Foundation

/// A helper thread that paints the second band of a frame while the drawing thread paints the
/// first (see `ScaledBlitList`): one job at a time, started and waited for within a frame.
///
/// A dedicated thread rather than a dispatch queue: it is woken at most once or twice a frame, and
/// its CPU time is counted apart (`cpuMilliseconds`) so benchmarks can report what a frame cost
/// on both cores, not just on the drawing thread.
public final class BandHelper: @unchecked Sendable {
    /// The process's helper.
    public static let shared = BandHelper()

    private let condition = NSCondition()
    private var job: (@Sendable () -> Void)?
    private var thread: Thread?
    private var cpu = 0.0

    /// CPU time the helper has spent on jobs so far, milliseconds.
    public var cpuMilliseconds: Double {
        condition.lock()
        defer { condition.unlock() }
        return cpu
    }

    /// A started job; `wait()` returns once it has finished.
    struct Pending {
        let helper: BandHelper
        func wait() { helper.waitForJob() }
    }

    /// Runs `work` on the helper thread; call `wait()` on the result before touching what it uses.
    func start(_ work: @escaping @Sendable () -> Void) -> Pending {
        condition.lock()
        if thread == nil {
            let t = Thread { [unowned self] in self.loop() }
            t.name = "frame bands"
            t.qualityOfService = .userInteractive
            thread = t
            t.start()
        }
        while job != nil { condition.wait() }  // another drawing thread's band
        job = work
        condition.broadcast()
        condition.unlock()
        return Pending(helper: self)
    }

    private func waitForJob() {
        condition.lock()
        while job != nil { condition.wait() }
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            while job == nil { condition.wait() }
            let work = job!
            condition.unlock()
            let c0 = BandHelper.threadCPU()
            work()
            let spent = BandHelper.threadCPU() - c0
            condition.lock()
            cpu += spent
            job = nil
            condition.broadcast()
            condition.unlock()
        }
    }

    /// CPU time of the calling thread, milliseconds.
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }
}
