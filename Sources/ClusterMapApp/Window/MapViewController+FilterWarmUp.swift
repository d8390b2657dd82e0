import CGtk
import Foundation
import AppSupport

/// The first filter of a session used to wait for every place's properties to be decoded (only
/// opening the panel started it): seconds at a million places. Once a load is shown, the
/// decoding starts in the background, after the first clustered frame, so the first filter
/// (panel, key or time bar) is as fast as later ones.
extension MapViewController {
    /// Starts decoding the shown file's properties for the filter, at low priority on the GTK
    /// thread (after the pending frames and layout) and off it for the work. Logs `filter-ready`
    /// {places, decoded, ms} when done (decoded false: a filter had decoded them first). Files
    /// of more than `FilterEngine.warmUpLimit` places are not warmed (memory).
    func warmFilterAfterLoad() {
        let target = FilterDelivery(self)
        runOnGtkThread(priority: G_PRIORITY_LOW) {
            guard let c = target.controller, !c.isClosed, c.tableFilter == nil, let engine = c.presentation.filterEngine(),
                  engine.session.pointCount <= FilterEngine.warmUpLimit else { return }
            let places = engine.session.pointCount
            engine.warmUp { ms in
                runOnGtkThread {
                    guard let c = target.controller, !c.isClosed else { return }
                    c.eventLog.emit("filter-ready", [("places", .int(places)), ("decoded", .bool(ms > 0)),
                                                     ("ms", .number((ms * 10).rounded() / 10))])
                }
            }
        }
    }
}
