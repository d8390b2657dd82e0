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

    /// Called on the worker thread after a tile is finished.
    public var onTileReady: (@Sendable () -> Void)?

    private let condition = NSCondition()
    private var queue: [Job] = []
    private var running: BaseMapTileCache.Key?
    private var finished: [Finished] = []
    private var stopped = false
    private var thread: Thread?
    /// Tiles rendered so far (for tests).
    public private(set) var renderedCount = 0

    public init() {}

    deinit { stop() }

    /// Replaces the wish list with `jobs` (most wanted first). Tiles being rendered or waiting to
    /// be collected are not asked for twice.
    func request(_ jobs: [Job]) {
        condition.lock()
        let waiting = Set(finished.map(\.key))
        queue = jobs.filter { $0.key != running && !waiting.contains($0.key) }
        if thread == nil && !queue.isEmpty { start() }
        condition.signal()
        condition.unlock()
    }

    /// The tiles finished since the last call.
    func takeFinished() -> [Finished] {
        condition.lock()
        defer { condition.unlock() }
        let done = finished
        finished.removeAll()
        return done
    }

    /// Whether tiles are queued or being rendered.
    public var isBusy: Bool {
        condition.lock()
        defer { condition.unlock() }
        return !queue.isEmpty || running != nil
    }

    /// Stops the thread after the tile in progress (the window is closing).
    public func stop() {
        condition.lock()
        stopped = true
        queue.removeAll()
        condition.signal()
        condition.unlock()
    }

    private func start() {
        let t = Thread { [weak self] in self?.run() }
        t.name = "base-map tiles"
        // Below the drawing thread: the tiles are a nicety, the frames are not.
        t.qualityOfService = .utility
        thread = t
        t.start()
    }

    private func run() {
        // Well below the drawing thread and the GL renderer: on a busy machine the frames come
        // first and the scaled stand-ins stay a little longer (on Linux `who = 0` is this thread).
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 12)
        while true {
            condition.lock()
            while queue.isEmpty && !stopped { condition.wait() }
            if stopped { condition.unlock(); return }
            let job = queue.removeFirst()
            running = job.key
            condition.unlock()

            let image = BaseMapTileWorker.paint(job)

            condition.lock()
            running = nil
            finished.append(Finished(key: job.key, generation: job.generation, image: image))
            renderedCount += 1
            let notify = onTileReady
            condition.unlock()
            notify?()
        }
    }

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
