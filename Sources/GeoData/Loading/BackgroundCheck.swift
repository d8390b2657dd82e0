import Foundation

/// A check of the bytes read so far that runs on its own thread while reading goes on: checking
/// 32 MB costs a parse of them, which would otherwise add to every big load (issue 15 item 7).
final class BackgroundCheck: @unchecked Sendable {
    private let condition = NSCondition()
    private var finished = false
    private var error: Error?
    private var cancelled = false

    /// Starts `body` on a new thread; it gets a closure that says whether to stop early.
    static func start(_ body: @escaping @Sendable (_ isCancelled: @escaping @Sendable () -> Bool) throws -> Void) -> BackgroundCheck {
        let check = BackgroundCheck()
        Thread.detachNewThread {
            var failure: Error?
            do { try body { check.isCancelled } } catch { failure = error }
            check.condition.lock()
            check.error = failure
            check.finished = true
            check.condition.broadcast()
            check.condition.unlock()
        }
        return check
    }

    private var isCancelled: Bool {
        condition.lock(); defer { condition.unlock() }
        return cancelled
    }

    /// The error the check found, once it has finished (nil while it runs or when it passed).
    var failure: Error? {
        condition.lock(); defer { condition.unlock() }
        return finished && !(error is CancellationError) ? error : nil
    }

    /// Waits for the check to finish; returns its error (nil when it passed).
    func wait() -> Error? {
        condition.lock()
        while !finished { condition.wait() }
        condition.unlock()
        return failure
    }

    /// Asks the check to stop; its result no longer matters.
    func cancel() {
        condition.lock(); cancelled = true; condition.unlock()
    }
}
