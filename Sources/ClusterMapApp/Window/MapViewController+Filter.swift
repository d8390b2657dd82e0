import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData

/// Filters in the window (issue 29): each change (the panel, a chip, the launch options, the
/// saved state) goes to one background worker where the newest request wins — a dragged range
/// never queues work — and the previous clusters stay on the map until the new ones are ready.
extension MapViewController {
    /// Asks for `settings` on the shown data (worked out in the background).
    func setFilter(_ settings: FilterSettings) {
        submitFilter(presentation.setFilter(settings))
        chrome?.filterDidChange()
    }

    /// The data changed (a load, a live update): the asked filter applies to it too.
    func refilterData(keepingFrom old: MapDataSession? = nil) {
        submitFilter(presentation.refilter(keepingFrom: old))
    }

    /// A load finished and is shown: the launch's `--where/--by/…` apply to the first load;
    /// a file opened later starts unfiltered.
    func filterLoadedData(generation: Int) {
        if generation == 1 && presentation.filterSettings.isEmpty && !options.filters.isEmpty {
            submitFilter(presentation.setFilter(options.filters))
        } else if generation == 1 {
            refilterData()
        } else {
            submitFilter(presentation.setFilter(FilterSettings()))
        }
        chrome?.filterDidChange()
    }

    private func submitFilter(_ job: FilterJob?) {
        guard let job else { return }
        filterWorker.submit(job)
    }

    /// The worker: runs jobs on its queue and hands the newest outcome to the GTK thread.
    static func makeFilterWorker(for controller: MapViewController) -> LatestRequestWorker<FilterJob, FilterOutcome> {
        let target = FilterDelivery(controller)
        return LatestRequestWorker(label: "clustermap.filter", work: { $0.run() }, deliver: { _, outcome in
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
        if case .failure(let e) = outcome.answer { showError(e.description) }
        chrome?.filterDidChange()
        chrome?.legendDidChange()
        timeBarFilterDidLand()
        sceneDidChange()
    }
}

/// The controller a filter outcome goes back to (weakly: a closed window gets nothing).
final class FilterDelivery: @unchecked Sendable {
    weak var controller: MapViewController?
    init(_ controller: MapViewController) { self.controller = controller }
}
