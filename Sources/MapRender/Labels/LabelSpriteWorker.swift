import Foundation
import MapModel

/// Makes base-map label sprites on a background thread while the map moves.
///
/// Why: a zoom animation brings dozens of names into view at once (up to ~110 in one frame
/// zooming Europe from zoom 4 to 6), and laying out and stroking each costs 0.2–0.5 ms, so those
/// frames took 20–60 ms on the drawing thread. In motion the scene renderer draws the names whose
/// sprites exist and hands the rest to this worker; they show a frame or a few later, as on maps
/// whose symbols fade in after placement. At rest every name is made on the drawing thread, so
/// headless renders and settled frames never depend on timing.
///
/// Each frame hands over the full list of sprites it lacks (`request`, highest priority first):
/// names that left the view are dropped before they are made. Finished sprites wait until the
/// drawing thread collects them (`takeFinished`).
final class LabelSpriteWorker: @unchecked Sendable {
    struct Job {
        var key: MapLabelRenderer.Key
        /// The text block's logical size (measured on the drawing thread for placement).
        var size: MapLabelSize
        var palette: MapPalette
    }

    // Below the drawing thread and the band helper (the frames come first), above the base-map
    // tiles (nice 12): names are wanted within a few frames.
    private let worker = WishListWorker<MapLabelRenderer.Key, Job, Sprite>(
        name: "label sprites", niceness: 4, key: \.key,
        work: { job in
            // Pango and cairo are safe on any thread with objects of its own (pango's default
            // font map is per thread); the runs are made here too, off the drawing thread.
            let k = job.key
            let sprite = MapLabelRenderer.makeText(k.text, kind: k.kind, size: job.size, palette: job.palette,
                                                   scale: k.scale, degrees: k.degrees)
            _ = sprite.runs
            return sprite
        })

    /// Called on the worker thread after a sprite is finished: the window asks for a frame, so
    /// a name made while the pointer holds a drag still shows without waiting for more motion.
    var onSpriteReady: (@Sendable () -> Void)? {
        get { worker.onFinished }
        set { worker.onFinished = newValue }
    }

    /// Sprites made so far (for benchmarks).
    var madeCount: Int { worker.doneCount }

    deinit { stop() }

    /// Replaces the wish list with `jobs` (most wanted first).
    func request(_ jobs: [Job]) { worker.request(jobs) }

    /// The sprites finished since the last call.
    func takeFinished() -> [(key: MapLabelRenderer.Key, output: Sprite)] { worker.takeFinished() }

    /// Stops the thread after the sprite in progress.
    func stop() { worker.stop() }
}
