import Foundation

/// Background threads working through a wish list that the drawing thread replaces every frame
/// (most wanted first): wishes that are no longer wanted are dropped before they start, and
/// results wait in an inbox until the drawing thread collects them. The threads start with the
/// first wish and run until `stop()` (its owner stops them; they keep the worker alive meanwhile).
final class WishListWorker<Key: Hashable & Sendable, Job, Output>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queue: [Job] = []
    private var running = Set<Key>()
    private var finished: [(key: Key, output: Output)] = []
    private var stopped = false
    private var started = false
    private let name: String
    private let niceness: Int32
    private let threadCount: Int
    private let key: (Job) -> Key
    private let work: (Job) -> Output
    /// Called on a worker thread after each result.
    var onFinished: (@Sendable () -> Void)?
    /// Results made so far.
    private(set) var doneCount = 0

    /// A worker whose `threads` threads are called `name` and run at `niceness` (on Linux
    /// `setpriority` with `who = 0` is the calling thread); `work` makes a job's result on one of
    /// them. More than one thread only where jobs mostly wait (online tiles: a few requests in
    /// flight at once) and `work` is safe to call concurrently.
    init(name: String, niceness: Int32, threads: Int = 1, key: @escaping (Job) -> Key, work: @escaping (Job) -> Output) {
        self.name = name
        self.niceness = niceness
        threadCount = max(1, threads)
        self.key = key
        self.work = work
    }

    /// Replaces the wish list with `jobs` (most wanted first). A job is asked for once: repeats
    /// in `jobs` (the same name on two world copies), jobs being worked on and results waiting
    /// to be collected are dropped. Returns the keys of the jobs that were waiting and are no
    /// longer wished for: they were dropped before they started.
    @discardableResult
    func request(_ jobs: [Job]) -> [Key] {
        condition.lock()
        var seen = Set(finished.map(\.key)).union(running)
        let old = queue.map(key)
        queue = jobs.filter { seen.insert(key($0)).inserted }
        let kept = Set(queue.map(key))
        let dropped = old.filter { !kept.contains($0) }
        if !started && !queue.isEmpty && !stopped { start() }
        condition.broadcast()
        condition.unlock()
        return dropped
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
        return !queue.isEmpty || !running.isEmpty
    }

    /// Stops the threads after the jobs in progress.
    func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    private func start() {
        started = true
        for i in 0..<threadCount {
            let t = Thread { [self] in run() }
            t.name = threadCount == 1 ? name : "\(name) \(i + 1)"
            t.qualityOfService = .utility
            t.start()
        }
    }

    private func run() {
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            let job = queue.removeFirst()
            let k = key(job)
            running.insert(k)
            condition.unlock()

            let output = work(job)

            condition.lock()
            running.remove(k)
            finished.append((k, output))
            doneCount += 1
            let notify = onFinished
            condition.unlock()
            notify?()
        }
    }
}
