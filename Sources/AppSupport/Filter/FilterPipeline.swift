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
    /// With no filter asked: the session's full build of every place, taken on the GTK thread
    /// while its live index had no change since (nil otherwise), for the fast path to hold.
    var unfiltered: LiveClusterIndex.UnchangedBuild? = nil
    /// Only readies the fast path for the data shown with no filter (`MapPresentation.readyFilterFastPath`):
    /// works nothing out, and `finishFilter` shows nothing for it.
    var readiesOnly = false

    /// Works the filter out (slow: call off the GTK thread). A small change of a plain filter is
    /// first handed to `showInterim` as an interim outcome (clusters from the live index, in
    /// milliseconds), then the exact build is made and returned: the interim always settles.
    /// Without `showInterim` (`render`, tests) only the exact build is made.
    public func run(showingInterim showInterim: ((FilterOutcome) -> Void)? = nil) -> FilterOutcome {
        let started = DispatchTime.now().uptimeNanoseconds
        if readiesOnly {
            interim?.settle(nil, session: engine.session, unfiltered: unfiltered)
            return FilterOutcome(job: self, answer: .success(nil))
        }
        var interimMs: Double?
        if let showInterim, let interim, let quick = interim.answer(settings, engine: engine, started: started) {
            interimMs = quick.milliseconds
            showInterim(FilterOutcome(job: self, answer: .success(quick)))
        }
        let answer: Result<FilteredClusters?, FilterSettingsError>
        do {
            answer = .success(try engine.run(settings))
        } catch let e as FilterSettingsError {
            answer = .failure(e)
        } catch {
            answer = .failure(FilterSettingsError(option: "where", value: "", message: "\(error)"))
        }
        let settledMs = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
        // Also after an error: the interim shown must not be changed again (nothing is held).
        if let interim { interim.settle((try? answer.get()) ?? nil, session: engine.session, unfiltered: unfiltered) }
        return FilterOutcome(job: self, answer: answer, interimMilliseconds: interimMs, settledMilliseconds: settledMs)
    }

    /// Gets the fast path ready for the next change (adopts the exact build just made and makes
    /// its live repair state): call it on the worker after handing the outcome over, so neither
    /// frame waits for it. Skipped where no interim could be worth it (a small passing set).
    public func prepareForNextChange() { interim?.prepare() }
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

    /// Whether this is an interim answer (shown at once, then replaced by the exact one).
    public var isInterim: Bool { (try? answer.get())??.isInterim ?? false }
}
