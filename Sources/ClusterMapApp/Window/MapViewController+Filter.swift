import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData

/// Filters in the window (issue 29): each change (the panel, a chip, the launch options, the
/// saved state) goes to one background worker where the newest request wins — a dragged range
/// never queues work — and the previous clusters stay on the map until the new ones are ready.
extension MapViewController {
    /// Asks for `settings` on the shown data (worked out in the background). A step of a playing
    /// time bar (`playStep`) gets its first frame only; its exact build waits until play stops.
    func setFilter(_ settings: FilterSettings, playStep: Bool = false) {
        // A table: the server filters (`MapViewController+TableFilter.swift`).
        if let t = tableFilter { return setTableFilter(settings, on: t) }
        submitFilter(presentation.setFilter(settings).map { job in
            var step = job
            step.playStep = playStep
            return step
        })
        timeBarFollowFilter(settings)
        chrome?.filterDidChange()
    }

    /// The data changed (a load, a live update): the asked filter applies to it too.
    func refilterData(keepingFrom old: MapDataSession? = nil) {
        // With no filter: the fast path readies (or drops) the live index of every place.
        submitFilter(presentation.refilter(keepingFrom: old) ?? presentation.readyFilterFastPath())
    }

    /// Loading `files` (or `datasets`) started: their key for the remembered filters.
    func filterDataWillLoad(files: [String], datasets: [Dataset?]) {
        filterMemory.willLoad(source: SavedFilter.source(files: files, datasetIDs: datasets.compactMap { $0?.id }))
    }

    /// A load finished and is shown: the launch's `--where/--by/…` apply to the first load;
    /// otherwise the filter remembered for these files (SavedState) comes back, or none.
    func filterLoadedData(generation: Int) {
        if generation == 1 && filterMemory.loadingSource == nil {
            let initial = MapViewController.initialSources(options, dataDirectory: dataDirectory)
            filterDataWillLoad(files: initial.files, datasets: initial.datasets)
        }
        filterMemory.loadingShown()
        if generation == 1 && !options.filters.isEmpty {
            submitFilter(presentation.setFilter(options.filters))
        } else if let source = filterMemory.shownSource, let saved = filterMemory.saved.settings(for: source), saved != FilterSettings() {
            eventLog.emit("filter-restored", [("conditions", .int(saved.conditions.count))])
            submitFilter(presentation.setFilter(saved))
        } else {
            // Nothing asked: recorded (an older request still working is dropped), nothing to work out.
            _ = presentation.setFilter(FilterSettings())
            submitFilter(presentation.readyFilterFastPath())  // the first filter to come takes the fast path
        }
        chrome?.filterDidChange()
    }

    private func submitFilter(_ job: FilterJob?) {
        guard let job else { return }
        filterWorker.submit(job)
    }

    /// The workers: each value's first frame (a repair or a recount) on one, its exact build on
    /// the other, so a first frame never waits behind a build (`FilterJobWorkers`); outcomes of
    /// older values are dropped by `finishFilter`.
    static func makeFilterWorker(for controller: MapViewController) -> FilterJobWorkers {
        let target = FilterDelivery(controller)
        return FilterJobWorkers(show: { outcome in
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                guard let c = target.controller, !c.isClosed else { return }
                c.filterDidFinish(outcome)
            }
        })
    }

    private func filterDidFinish(_ outcome: FilterOutcome) {
        let events = presentation.finishFilter(outcome)
        guard !events.isEmpty else { return }  // superseded meanwhile
        eventLog.emit(events)
        switch outcome.answer {
        case .failure(let e):
            showError(e.description)
            // A remembered filter the data can no longer answer (the file changed) is forgotten.
            filterMemory.forgetForShown(ifItIs: presentation.filterSettings)
        case .success(let filtered):
            if !outcome.isInterim { filterMemory.rememberForShown(presentation.filterSettings) }
            // A property forced to a type most of its values don't read as: say so.
            if !outcome.isInterim, let warnings = filtered?.result.warnings, !warnings.isEmpty { showErrors(warnings) }
        }
        chrome?.filterDidChange()
        chrome?.legendDidChange()
        timeBarFilterDidLand()
        sceneDidChange()
    }
}

extension MapViewController {
    /// The filters remembered per file, as read from the state file (applied when their file shows).
    func remember(savedFilters: [SavedFilter]) { filterMemory.restore(savedFilters) }
}

/// The controller a filter outcome goes back to (weakly: a closed window gets nothing).
final class FilterDelivery: @unchecked Sendable {
    weak var controller: MapViewController?
    init(_ controller: MapViewController) { self.controller = controller }
}
