import Foundation

/// A helper thread that paints the second band of a frame while the drawing thread paints the
/// first (see `ScaledBlitList`): one job at a time, started and waited for within a frame.
///
/// A dedicated thread rather than a dispatch queue: it is woken at most once or twice a frame, and
/// its CPU time is counted apart (`cpuMilliseconds`) so benchmarks can report what a frame cost
/// on both cores, not just on the drawing thread.
///
/// Hand-offs: a sleeping thread on an idle (halted) virtual CPU takes a while to wake, and a frame
/// hands over two or three jobs. So while a frame is being drawn (`frameBegins` … `frameEnds`)
/// the helper polls for the next job instead of sleeping, yielding its core to anything else
/// runnable, and the drawing thread polls the same way for a job to finish. Between frames it
/// sleeps. `wakeMilliseconds` and `waitMilliseconds` say what the hand-offs cost.
public final class BandHelper: @unchecked Sendable {
    /// The process's helper.
    public static let shared = BandHelper()

    private let condition = NSCondition()
    private var job: (@Sendable () -> Void)?
    /// The current job's number, and whether the helper has taken it (see `Pending.waitOrWithdraw`).
    private var ticket = 0
    private var taken = false
    private var withdrawals = 0
    private var jobStarted = 0.0
    private var thread: Thread?
    private var sleeping = false
    private var cpu = 0.0, wake = 0.0, wait = 0.0, poll = 0.0
    /// Until when (uptime, ms) the helper polls for jobs rather than sleeping.
    private var pollUntil = 0.0

    /// The longest a frame keeps the helper polling, ms (a frame that forgets `frameEnds`, or is
    /// slower than this, only costs the polling up to here).
    public static let longestPoll = 12.0

    /// CPU time the helper has spent on jobs so far, milliseconds.
    public var cpuMilliseconds: Double { locked { cpu } }
    /// Time from handing a job over to the helper starting it, summed, milliseconds.
    public var wakeMilliseconds: Double { locked { wake } }
    /// Time drawing threads waited for the helper to finish a job, summed, milliseconds.
    public var waitMilliseconds: Double { locked { wait } }
    /// CPU time the helper spent polling for jobs, milliseconds.
    public var pollMilliseconds: Double { locked { poll } }
    /// Jobs taken back before the helper started them (`Pending.waitOrWithdraw`).
    public var withdrawnCount: Int { locked { withdrawals } }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// Whether the helper polls during frames (else it sleeps between jobs; for comparisons).
    public var pollsDuringFrames: Bool {
        get { locked { polls } }
        set { locked { polls = newValue } }
    }
    private var polls = true

    /// A frame starts: keep the helper awake (polling) for its jobs, for at most `longestPoll`.
    public func frameBegins() {
        condition.lock()
        guard polls else { return condition.unlock() }
        pollUntil = BandHelper.now() + BandHelper.longestPoll
        if sleeping { condition.broadcast() }
        condition.unlock()
    }

    /// The frame is done: the helper may sleep.
    public func frameEnds() {
        condition.lock()
        pollUntil = 0
        condition.unlock()
    }

    /// A started job; `wait()` returns once it has finished.
    struct Pending {
        let helper: BandHelper
        let ticket: Int
        func wait() { helper.waitForJob() }
        /// Waits for the job if the helper has started it; if it has not yet (still waking up, or
        /// its core busy with another process), takes it back: the job never runs. For jobs whose
        /// work the caller can do itself (bands handed out by `csb_claim_band`): a late helper
        /// then costs nothing. Returns whether the job ran.
        @discardableResult
        func waitOrWithdraw() -> Bool { helper.waitOrWithdraw(ticket) }
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
        ticket &+= 1
        taken = false
        jobStarted = BandHelper.now()
        if sleeping { condition.broadcast() }
        let pending = Pending(helper: self, ticket: ticket)
        condition.unlock()
        return pending
    }

    private func waitOrWithdraw(_ ticket: Int) -> Bool {
        condition.lock()
        if job != nil, self.ticket == ticket, !taken {
            job = nil
            withdrawals += 1
            condition.broadcast()
            condition.unlock()
            return false
        }
        condition.unlock()
        waitForJob()
        return true
    }

    private func waitForJob() {
        let t0 = BandHelper.now()
        condition.lock()
        // Poll briefly first: the helper usually finishes about when this thread does, and a
        // thread put to sleep here would have to be woken again.
        while job != nil && BandHelper.now() - t0 < 2 {
            condition.unlock()
            sched_yield()
            condition.lock()
        }
        while job != nil { condition.wait() }
        wait += BandHelper.now() - t0
        condition.unlock()
    }

    private func loop() {
        while true {
            condition.lock()
            var polled = 0.0
            while job == nil {
                if BandHelper.now() < pollUntil {
                    if polled == 0 { polled = BandHelper.threadCPU() }
                    condition.unlock()
                    sched_yield()
                    condition.lock()
                } else {
                    if polled != 0 { poll += BandHelper.threadCPU() - polled; polled = 0 }
                    sleeping = true
                    condition.wait()
                    sleeping = false
                }
            }
            let work = job!
            taken = true
            if polled != 0 { poll += BandHelper.threadCPU() - polled }
            wake += BandHelper.now() - jobStarted
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

    /// Uptime, milliseconds.
    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }

    /// CPU time of the calling thread, milliseconds.
    static func threadCPU() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
    }
}
