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
/// Each worker is a `LatestRequestWorker`: while one value is worked on, later ones replace each
/// other and only the newest is worked on next. Outcomes go to `show` from the worker's thread.
public final class FilterJobWorkers: @unchecked Sendable {
    private let interim: LatestRequestWorker<FilterJob, Bool>
    private let exact: LatestRequestWorker<FilterJob, Bool>

    /// - Parameter show: receives every outcome worth showing (on a worker's thread).
    public convenience init(show: @escaping @Sendable (FilterOutcome) -> Void) {
        self.init(show: show, beforeExact: nil)
    }

    /// As above; `beforeExact` runs on the exact worker before each job (tests hold a build there).
    init(show: @escaping @Sendable (FilterOutcome) -> Void, beforeExact: (@Sendable (FilterJob) -> Void)?) {
        interim = LatestRequestWorker(label: "clustermap.filter-interim", work: { job in
            guard let outcome = job.runInterim() else { return false }
            show(outcome)
            return true
        }, deliver: { _, _ in })
        exact = LatestRequestWorker(label: "clustermap.filter", work: { job in
            beforeExact?(job)
            let outcome = job.runExact()
            guard !outcome.superseded else { return false }
            show(outcome)
            job.prepareForNextChange()
            return true
        }, deliver: { _, _ in })
    }

    /// Asks for `job`'s first frame and exact build (a readying job has no first frame).
    public func submit(_ job: FilterJob) {
        if !job.readiesOnly { interim.submit(job) }
        exact.submit(job)
    }

    /// How many values each worker started on (superseded waiting ones never are).
    public var startedCounts: (interim: Int, exact: Int) { (interim.startedCount, exact.startedCount) }
}
