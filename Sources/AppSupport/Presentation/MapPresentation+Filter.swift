import GeoData
import MapModel

/// Filters (issue 29): the intent `setFilter(_:)` records what is asked and returns a job to
/// work out off the GTK thread; `finishFilter(_:)` shows its clusters when it is still the
/// newest request, and returns the `filter` event. Until then the previous clusters stay.
/// `render` and tests answer a filter at once with `applyFilter(_:)`.
extension MapPresentation {
    /// The filter asked last (shown, or being worked out).
    public var filterSettings: FilterSettings { filtering.settings }

    /// The filter shown now (nil: every place shows).
    public var shownFilter: FilteredClusters? { session?.filtered }

    /// Asks for `settings` on the shown data. Returns the job to run off the GTK thread (then
    /// `finishFilter`), nil without data (the filter then applies to the data when it comes:
    /// `refilter`).
    public func setFilter(_ settings: FilterSettings) -> FilterJob? {
        filtering.settings = settings
        filtering.generation += 1
        guard let session else { return nil }
        filtering.latest.generation = filtering.generation
        var job = FilterJob(engine: filtering.engine(for: session), settings: settings, generation: filtering.generation,
                            interim: filtering.interim)
        job.unfiltered = session.clusterer.unchangedBuild  // the fast path holds it (no filter) or recounts it
        job.latest = filtering.latest
        return job
    }

    /// With no filter on the shown data (after a load or a live update, where `refilter` has
    /// nothing to work out): a job that readies the fast path for the first filter to come —
    /// the live index of every place, adopted from the session's own build while it had no
    /// change since — or, after a change, drops what the fast path held for the data before.
    /// Run it on the filter worker like any job; nil when a filter is asked or shows, or
    /// without data.
    public func readyFilterFastPath() -> FilterJob? {
        guard let session, filtering.settings.isEmpty, session.filtered == nil else { return nil }
        var job = FilterJob(engine: filtering.engine(for: session), settings: FilterSettings(), generation: filtering.generation,
                            interim: filtering.interim)
        job.unfiltered = session.clusterer.unchangedBuild
        job.readiesOnly = true
        return job
    }

    /// The job that applies the asked filter to data shown since (a load, a live update), nil
    /// when nothing filters. After a live update whose ids stay (`keepingFrom` the session
    /// shown before), the previous filtered clusters stay shown until the new ones are ready.
    public func refilter(keepingFrom old: MapDataSession? = nil) -> FilterJob? {
        guard let session else { return nil }
        if let old, old !== session, let kept = old.filtered, kept.index.inputCount <= session.pointCount, session.filtered == nil {
            session.filtered = kept
            contentVersion &+= 1
        }
        guard !filtering.settings.isEmpty || session.filtered != nil else { return nil }
        return setFilter(filtering.settings)
    }

    /// Shows a worked-out filter if it answers the newest request on the shown data, and returns
    /// the `filter` event (expression, passing, places, ms; `interim_ms` and `settled_ms` from the
    /// request when an interim showed first; or the error). An interim (a small change repaired
    /// into the live index, or any change recounted over the unfiltered build) returns
    /// `filter-interim` (kind "repair" | "recount", passing, changed for a repair, interim_ms) and
    /// is dropped if its request already settled; an outdated value's outcome is dropped. A selected place that no longer passes is
    /// deselected; an open fan closes.
    public func finishFilter(_ outcome: FilterOutcome) -> [MapEvent] {
        guard !outcome.job.readiesOnly, !outcome.superseded, outcome.job.generation == filtering.generation, let session,
              outcome.job.engine.session === session else { return [] }
        if outcome.isInterim && filtering.settledGeneration == outcome.job.generation { return [] }
        switch outcome.answer {
        case .failure(let error):
            filtering.lastError = error
            filtering.settledGeneration = outcome.job.generation
            return [MapEvent("filter", [("error", .string(error.description))])]
        case .success(let filtered):
            filtering.lastError = nil
            if !outcome.isInterim { filtering.settledGeneration = outcome.job.generation }
            session.filtered = filtered
            contentVersion &+= 1
            containerCache = nil
            state.fan = nil
            var events: [MapEvent] = []
            if let selected = state.selectedPoint, let filtered, !(filtered.result.selection?[selected] ?? true) {
                events += clearSelection()
            }
            transitions.dataDidChange()
            let placeCount = filtered?.total ?? session.clusterer.count
            func ms(_ v: Double) -> JSONValue { .number((v * 10).rounded() / 10) }
            if let filtered, let kind = filtered.interimKind {
                filtering.shownInterim = (outcome.job.generation, filtered.milliseconds)
                var fields: [(String, JSONValue)] = [("expression", .string(filtered.expression)), ("kind", .string(kind.rawValue)),
                                                     ("passing", .int(filtered.passing)), ("places", .int(placeCount))]
                if let changed = filtered.changedPlaces { fields.append(("changed", .int(changed))) }
                fields.append(("interim_ms", ms(filtered.milliseconds)))
                return events + [MapEvent("filter-interim", fields)]
            }
            var fields: [(String, JSONValue)] = [("expression", .string(filtered?.expression ?? "")),
                                                 ("passing", .int(filtered?.passing ?? placeCount)),
                                                 ("places", .int(placeCount)),
                                                 ("ms", ms(filtered?.milliseconds ?? 0))]
            if let by = outcome.job.settings.groupProperty { fields.append(("by", .string(by))) }
            if let total = outcome.job.settings.total { fields.append(("total", .string(total.text))) }
            let shown = filtering.shownInterim.flatMap { $0.generation == outcome.job.generation ? $0.milliseconds : nil }
            if let interim = shown ?? outcome.interimMilliseconds { fields.append(("interim_ms", ms(interim))) }
            if let settled = outcome.settledMilliseconds { fields.append(("settled_ms", ms(settled))) }
            return events + [MapEvent("filter", fields)]
        }
    }

    /// Whether the shown filter is an interim (a small change shown from the live index while its
    /// exact clusters are made).
    public var filterIsInterim: Bool { session?.filtered?.isInterim ?? false }

    /// Answers `settings` at once on this thread (`render`, tests) and shows it.
    /// - Throws: `FilterSettingsError` when the data can't answer it (what is shown stays).
    @discardableResult
    public func applyFilter(_ settings: FilterSettings) throws -> [MapEvent] {
        guard let job = setFilter(settings) else { return [] }
        let outcome = job.run()
        if case .failure(let e) = outcome.answer { throw e }
        return finishFilter(outcome)
    }

    /// The filter engine of the shown data (for the panel's catalog), nil without data.
    public func filterEngine() -> FilterEngine? { session.map { filtering.engine(for: $0) } }

    /// "12,345 of 1,000,000 places" while a filter shows; nil otherwise.
    public var filterPlacesText: String? { session?.filtered?.placesText }
}
