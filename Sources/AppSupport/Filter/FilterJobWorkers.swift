import Foundation
import ClusterCore

/// The window's filter work (issue 29 item 3: "a dragged range never queues work: the latest
/// value wins; the previous clusters stay until the new ones are ready"), on two workers so that
/// a first frame never waits behind a build:
/// - the *interim* worker makes each newest value's first frame at once (`FilterJob.runInterim`:
///   a repair or a recount, milliseconds), even while the exact worker is busy with an older value;
/// - the *exact* worker makes the newest value's exact build (`FilterJob.runExact`), then readies
///   the fast path for the next change. A value outdated before its build starts is skipped (a
///   checkpoint); one outdated during its build is dropped when handed over (`finishFilter`).
///
/// A step of a playing time bar (`FilterJob.playStep`, issue 29 item 4) gets only its first frame:
/// the bar moves on as soon as it shows, so an exact build started for it would be outdated before
/// it ends, and on two cores it takes the CPU the next steps' first frames need. Its exact build is
/// held until play stops (`settlePlay`), and made then for the newest step only. A step with no
/// first frame (few places pass: the exact build is fast) is built at once, as any value.
///
/// Each worker is a `LatestRequestWorker`: while one value is worked on, later ones replace each
/// other and only the newest is worked on next. Outcomes go to `show` from the worker's thread.
public final class FilterJobWorkers: @unchecked Sendable {
    private let interim: LatestRequestWorker<FilterJob, Bool>
    private let exact: LatestRequestWorker<FilterJob, Bool>
    /// The newest play step, whose exact build waits until play stops.
    private let held: HeldPlayStep

    /// - Parameter show: receives every outcome worth showing (on a worker's thread).
    public convenience init(show: @escaping @Sendable (FilterOutcome) -> Void) {
        self.init(show: show, beforeExact: nil)
    }

    /// As above; `beforeExact` runs on the exact worker before each job (tests hold a build there).
    init(show: @escaping @Sendable (FilterOutcome) -> Void, beforeExact: (@Sendable (FilterJob) -> Void)?) {
        let exact = LatestRequestWorker<FilterJob, Bool>(label: "clustermap.filter", work: { job in
            beforeExact?(job)
            let outcome = job.runExact()
            guard !outcome.superseded else { return false }
            show(outcome)
            job.prepareForNextChange()
            return true
        }, deliver: { _, _ in })
        let held = HeldPlayStep()
        interim = LatestRequestWorker(label: "clustermap.filter-interim", work: { job in
            guard let outcome = job.runInterim() else {
                // A play step with no first frame: its exact build is the frame, made now.
                if job.playStep, !job.isOutdated, held.take(generation: job.generation) != nil { exact.submit(job) }
                return false
            }
            show(outcome)
            return true
        }, deliver: { _, _ in })
        self.exact = exact
        self.held = held
    }

    /// Asks for `job`'s first frame and exact build (a readying job has no first frame; a play
    /// step's exact build waits for `settlePlay`).
    public func submit(_ job: FilterJob) {
        if job.playStep, !job.readiesOnly {
            held.hold(job)
            interim.submit(job)
            return
        }
        _ = held.take(generation: nil)  // outdated by this value
        if !job.readiesOnly { interim.submit(job) }
        exact.submit(job)
    }

    /// The time bar stopped playing: the newest step's exact build is made now (nothing if it was
    /// already built, or a newer value was asked since), so the map settles to the exact clusters.
    public func settlePlay() {
        if let job = held.take(generation: nil) { exact.submit(job) }
    }

    /// How many values each worker started on (superseded waiting ones never are).
    public var startedCounts: (interim: Int, exact: Int) { (interim.startedCount, exact.startedCount) }
}

/// The newest play step whose exact build waits (`FilterJobWorkers`), shared by the workers.
private final class HeldPlayStep: @unchecked Sendable {
    private let lock = NSLock()
    private var job: FilterJob?

    func hold(_ job: FilterJob) { lock.withLock { self.job = job } }

    /// Takes the held step (only if it is `generation`'s, when given), leaving none.
    func take(generation: Int?) -> FilterJob? {
        lock.withLock {
            guard let held = job, generation == nil || held.generation == generation else { return nil }
            job = nil
            return held
        }
    }
}
