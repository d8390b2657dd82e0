import Foundation
import GeoData

/// Renders base-map tiles on a background thread, so that the window's frames during a zoom
/// animation, and while a new zoom sharpens at rest, only blit what is cached (the scaled tiles
/// of a neighbouring zoom stand in meanwhile).
///
/// Each frame hands over the full list of tiles it still lacks (`request`): requests for tiles
/// that left the view are dropped before they start, the newest wishes go first. Finished tiles
/// wait in an inbox until the drawing thread collects them (`takeFinished`); `onTileReady` is
/// called on the worker thread after each one (the window asks for a redraw there). Headless
/// renders don't use it, so their pixels never depend on timing.
public final class BaseMapTileWorker: @unchecked Sendable {
    /// Everything needed to paint one tile away from the renderer.
    struct Job {
        var key: BaseMapTileCache.Key
        var generation: BaseMapTileCache.Generation
        var map: BaseMap
        var palette: MapPalette
        var tileSize: Double
    }

    struct Finished {
        var key: BaseMapTileCache.Key
        var generation: BaseMapTileCache.Generation
        var image: ImageSurface
    }

    /// Called on the worker thread after a tile is finished (`notifyWhenTileReady`).
    public internal(set) var onTileReady: (@Sendable () -> Void)? {
        get { worker.onFinished }
        set { worker.onFinished = newValue }
    }

    /// Calls `body` on the worker thread after each tile is finished.
    public func notifyWhenTileReady(_ body: (@Sendable () -> Void)?) { onTileReady = body }

    // Well below the drawing thread and the GL renderer: on a busy machine the frames come first
    // and the scaled stand-ins stay a little longer.
    private let worker = WishListWorker<BaseMapTileCache.Key, Job, Finished>(
        name: "base-map tiles", niceness: 12, key: \.key,
        work: { Finished(key: $0.key, generation: $0.generation, image: BaseMapTileWorker.paint($0)) })

    /// Tiles rendered so far (for tests).
    public var renderedCount: Int { worker.doneCount }

    public init() {}

    deinit { stop() }

    /// Replaces the wish list with `jobs` (most wanted first). Tiles being rendered or waiting to
    /// be collected are not asked for twice.
    func request(_ jobs: [Job]) { worker.request(jobs) }

    /// The tiles finished since the last call.
    func takeFinished() -> [Finished] { worker.takeFinished().map(\.output) }

    /// Whether tiles are queued or being rendered.
    public var isBusy: Bool { worker.isBusy }

    /// Stops the thread after the tile in progress (the window is closing).
    public func stop() { worker.stop() }

    /// Paints one tile (any thread: the painter's rasterisers are per thread).
    static func paint(_ job: Job) -> ImageSurface {
        let t = job.tileSize, scale = job.generation.deviceScale
        let image = ImageSurface(width: Int(t), height: Int(t), scale: scale, opaque: true)
        image.withContext { cr in
            let painter = BaseMapPainter(originX: Double(job.key.i) * t, originY: Double(job.key.j) * t,
                                         width: t, height: t, worldSize: 256 * exp2(job.key.zoom), deviceScale: scale)
            painter.paint(job.map, palette: job.palette, into: cr)
        }
        return image
    }
}
