import Foundation

/// Runs slow work (a filtered re-clustering) off the caller's thread so that the newest request
/// wins: while one request is being worked on, later ones replace each other, and only the
/// latest is worked on next; a result is delivered only while no newer request is waiting.
/// A dragged range therefore never queues work, and the previous clusters stay shown until the
/// newest are ready (the caller keeps showing them until `deliver` hands over new ones).
///
/// `deliver` is called on the worker's thread; a GTK window hands the result to its own thread
/// (`g_idle_add`).
public final class LatestRequestWorker<Request: Sendable, Output: Sendable>: @unchecked Sendable {
    private let work: @Sendable (Request) -> Output
    private let deliver: @Sendable (Request, Output) -> Void
    private let queue: DispatchQueue
    private let lock = NSLock()
    private var waiting: Request?
    private var isRunning = false
    private var requested = 0
    private var _started = 0

    /// - Parameters:
    ///   - work: turns a request into its output (runs on the worker's thread).
    ///   - deliver: receives the newest request's output.
    public init(label: String = "clustermap.latest-request", work: @escaping @Sendable (Request) -> Output,
                deliver: @escaping @Sendable (Request, Output) -> Void) {
        self.work = work
        self.deliver = deliver
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// How many requests were worked on (superseded ones never are).
    public var startedCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return _started
    }

    /// Asks for `request`'s output, replacing any request still waiting.
    public func submit(_ request: Request) {
        lock.lock()
        requested += 1
        waiting = request
        let start = !isRunning
        if start { isRunning = true }
        lock.unlock()
        if start { queue.async { self.drain() } }
    }

    private func drain() {
        while true {
            lock.lock()
            guard let next = waiting else {
                isRunning = false
                lock.unlock()
                return
            }
            waiting = nil
            _started += 1
            let generation = requested
            lock.unlock()
            let output = work(next)
            lock.lock()
            let isNewest = generation == requested
            lock.unlock()
            if isNewest { deliver(next, output) }
        }
    }
}
