import Foundation
import MapModel

/// Measures base-map label texts on a background thread while the map moves.
///
/// Why: placing names at a zoom seen for the first time measures every new candidate's text with
/// Pango (~25 µs each), about a thousand in a two-level zoom animation, and those frames took
/// 10–16 ms. In motion the placement leaves unmeasured names out and asks for them here; the
/// placement is done again as sizes arrive, and at rest every size is measured on the drawing
/// thread, so settled frames and headless renders never depend on timing.
final class LabelSizeWorker: @unchecked Sendable {
    // The same priority as the label sprites (below the drawing thread and the band helper).
    private let worker = WishListWorker<MapLabelRenderer.SizeKey, MapLabelRenderer.SizeKey, MapLabelSize>(
        name: "label sizes", niceness: 4, key: { $0 }, work: { MapLabelRenderer.measure($0) })

    /// Called on the worker thread after a size is measured (the window asks for a frame).
    var onSizeReady: (@Sendable () -> Void)? {
        get { worker.onFinished }
        set { worker.onFinished = newValue }
    }

    deinit { worker.stop() }

    /// Replaces the wish list with `keys` (most wanted first).
    func request(_ keys: [MapLabelRenderer.SizeKey]) { worker.request(keys) }

    /// The sizes measured since the last call.
    func takeFinished() -> [(key: MapLabelRenderer.SizeKey, output: MapLabelSize)] { worker.takeFinished() }
}
