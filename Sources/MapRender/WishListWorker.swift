import Foundation

/// A background thread working through a wish list that the drawing thread replaces every frame
/// (most wanted first): wishes that are no longer wanted are dropped before they start, and
/// results wait in an inbox until the drawing thread collects them. The thread starts with the
/// first wish and runs until `stop()` (its owner stops it; it keeps the worker alive meanwhile).
final class WishListWorker<Key: Hashable & Sendable, Job, Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var running: Key?
    private var finished: [(key: Key, output: Output)] = []
    private var stopped = false
    private var thread: Thread?
    private let name: String
    private let niceness: Int32
    private let key: (Job) -> Key
    private let work: (Job) -> Output
    /// Called on the worker thread after each result.
    var onFinished: (@Sendable () -> Void)?
    /// Results made so far.
    private(set) var doneCount = 0

    /// A worker whose thread is called `name` and runs at `niceness` (on Linux `setpriority` with
    /// `who = 0` is the calling thread); `work` makes a job's result on that thread.
    init(name: String, niceness: Int32, key: @escaping (Job) -> Key, work: @escaping (Job) -> Output) {
        self.name = name
        self.niceness = niceness
        self.key = key
        self.work = work
    }

    /// Replaces the wish list with `jobs` (most wanted first). A job is asked for once: repeats
    /// in `jobs` (the same name on two world copies), jobs being worked on and results waiting
    /// to be collected are dropped.
    func request(_ jobs: [Job]) {
        condition.lock()
        var seen = Set(finished.map(\.key))
        if let running { seen.insert(running) }
        queue = jobs.filter { seen.insert(key($0)).inserted }
        if thread == nil && !queue.isEmpty && !stopped { start() }
        condition.signal()
        condition.unlock()
    }

    /// The results finished since the last call.
    func takeFinished() -> [(key: Key, output: Output)] {
        condition.lock()
        defer { condition.unlock() }
        let done = finished
        finished.removeAll()
        return done
    }

    /// Whether jobs are queued or being worked on.
    var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !queue.isEmpty || running != nil
    }

    /// Stops the thread after the job in progress.
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.signal()
        condition.unlock()
    }

    private func start() {
        let t = Thread { [self] in run() }
        t.name = name
        t.qualityOfService = .utility
        thread = t
        t.start()
    }

    private func run() {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            let job = queue.removeFirst()
            let k = key(job)
            running = k
            condition.unlock()

            let output = work(job)

            condition.lock()
            running = nil
            finished.append((k, output))
            doneCount += 1
            let notify = onFinished
            condition.unlock()
            notify?()
        }
    }
}
