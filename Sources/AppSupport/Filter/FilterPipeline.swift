import Foundation
import ClusterCore
import GeoData

/// The presentation's filter state: what is asked, the engine for the shown session, and which
/// request is the newest (older results arriving late are dropped).
public final class FilterPipeline {
    /// The filter asked last (shown once its clusters are ready).
    public internal(set) var settings = FilterSettings()
    /// The last filter that could not be answered (unknown property, bad type), until a later one is.
    public internal(set) var lastError: FilterSettingsError?
    /// The engine for the shown session (made again when the session changes).
    var engine: FilterEngine?
    /// Counts requests; a result is shown only if it answers the newest.
    var generation = 0
    /// The generation whose exact clusters show (an interim of it arriving late is dropped).
    var settledGeneration = 0
    /// The fast path for small changes: the passing places last worked out, held live.
    let interim = FilterInterim()
    /// The newest request, for jobs on other threads to see they are outdated.
    let latest = FilterLatest()
    /// The interim last shown: its request and how long after the request it was ready (the
    /// settled `filter` event's `interim_ms`).
    var shownInterim: (generation: Int, milliseconds: Double)?

    init() {}

    /// The engine for `session` (kept while the session stays).
    func engine(for session: MapDataSession) -> FilterEngine {
        if let engine, engine.session === session { return engine }
        let made = FilterEngine(session: session, following: engine)
        engine = made
        return made
    }
}

/// One filter to work out off the GTK thread (`run`), then to hand to `MapPresentation.finishFilter`.
public struct FilterJob: Sendable {
    let engine: FilterEngine
    /// What is asked.
    public let settings: FilterSettings
    let generation: Int
    /// The fast path's state (nil: no interim).
    let interim: FilterInterim?
    /// The session's full build of every place, taken on the GTK thread while its live index had
    /// no change since (nil otherwise): with no filter asked the fast path holds it; with one, it
    /// is what a recount thins (`FilterRecount`).
    var unfiltered: LiveClusterIndex.UnchangedBuild? = nil
    /// Only readies the fast path for the data shown with no filter (`MapPresentation.readyFilterFastPath`):
    /// works nothing out, and `finishFilter` shows nothing for it.
    var readiesOnly = false
    /// A step of a playing time bar: its exact build waits until play stops when it has a first
    /// frame (`FilterJobWorkers.settlePlay`, issue 29 item 4).
    public var playStep = false

    /// When the value was asked (interim and settled times count from it).
    var requested = DispatchTime.now().uptimeNanoseconds
    /// The newest request's generation, shared with the presentation (nil: never outdated).
    var latest: FilterLatest? = nil

    /// Whether a newer value was asked since this one (its work can stop: nothing of it will show).
    public var isOutdated: Bool { latest.map { $0.generation != generation } ?? false }

    /// Works the filter out (slow: call off the GTK thread): the interim first frame handed to
    /// `showInterim` (if there is one), then the exact build, returned. Without `showInterim`
    /// (`render`, tests) only the exact build is made. The window runs the two on separate
    /// workers instead (`FilterJobWorkers`), so an interim never waits behind a build.
    public func run(showingInterim showInterim: ((FilterOutcome) -> Void)? = nil) -> FilterOutcome {
        var interimMs: Double?
        if let showInterim, let quick = runInterim() {
            interimMs = (try? quick.answer.get())??.milliseconds
            showInterim(quick)
        }
        var exact = runExact()
        exact.interimMilliseconds = interimMs
        return exact
    }

    /// The interim first frame for this value, at once (nil: none — the exact build is the first
    /// frame): a small change repaired into the places shown before, or any change recounted over
    /// the unfiltered build where the exact build would miss the budget (`FilterInterim.firstFrame`).
    public func runInterim() -> FilterOutcome? {
        guard !readiesOnly, !isOutdated, let interim,
              let quick = interim.firstFrame(settings, engine: engine, unfiltered: unfiltered, requested: requested,
                                                playing: playStep) else { return nil }
        return FilterOutcome(job: self, answer: .success(quick))
    }

    /// The exact answer (the clusters of a fresh build of the passing places), or for an outdated
    /// value nothing (`superseded`: a newer value was asked before its build started; one asked
    /// during the build is dropped when shown).
    public func runExact() -> FilterOutcome {
        if readiesOnly {
            interim?.settle(nil, session: engine.session, unfiltered: unfiltered)
            return FilterOutcome(job: self, answer: .success(nil))
        }
        if isOutdated { return FilterOutcome(job: self, answer: .success(nil), superseded: true) }
        let answer: Result<FilteredClusters?, FilterSettingsError>
        do {
            answer = .success(try engine.run(settings))
        } catch let e as FilterSettingsError {
            answer = .failure(e)
        } catch {
            answer = .failure(FilterSettingsError(option: "where", value: "", message: "\(error)"))
        }
        let settledMs = Double(DispatchTime.now().uptimeNanoseconds - requested) / 1e6
        // Also after an error: the interim shown must not be changed again (nothing is held).
        if let interim {
            interim.settle((try? answer.get()) ?? nil, session: engine.session, unfiltered: settings.isEmpty ? unfiltered : nil,
                           recountable: unfiltered)
        }
        return FilterOutcome(job: self, answer: answer, settledMilliseconds: settledMs)
    }

    /// Gets the fast path ready for the next change (adopts the exact build just made and makes
    /// its live repair state): call it on the worker after handing the outcome over, so neither
    /// frame waits for it. Skipped where no interim could be worth it (a small passing set).
    public func prepareForNextChange() {
        if !isOutdated { interim?.prepare() }
    }
}

/// A worked-out filter: the clusters to show (nil: every place), or why it can't be answered.
public struct FilterOutcome: Sendable {
    let job: FilterJob
    /// The answer.
    public let answer: Result<FilteredClusters?, FilterSettingsError>
    /// For the exact answer: how long after the job started its interim was ready (nil: none
    /// shown), and how long until this answer was.
    var interimMilliseconds: Double? = nil
    var settledMilliseconds: Double? = nil
    /// Not worked out: a newer value was asked first (never shown).
    var superseded = false

    /// Whether this is an interim answer (shown at once, then replaced by the exact one).
    public var isInterim: Bool { (try? answer.get())??.isInterim ?? false }
}

/// The newest filter request's generation, readable from any thread (a job checks it to stop
/// working on an outdated value).
public final class FilterLatest: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    var generation: Int {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
