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

    /// Works the filter out (slow: call off the GTK thread).
    public func run() -> FilterOutcome {
        do {
            return FilterOutcome(job: self, answer: .success(try engine.run(settings)))
        } catch let e as FilterSettingsError {
            return FilterOutcome(job: self, answer: .failure(e))
        } catch {
            return FilterOutcome(job: self, answer: .failure(FilterSettingsError(option: "where", value: "", message: "\(error)")))
        }
    }
}

/// A worked-out filter: the clusters to show (nil: every place), or why it can't be answered.
public struct FilterOutcome: Sendable {
    let job: FilterJob
    /// The answer.
    public let answer: Result<FilteredClusters?, FilterSettingsError>
}
