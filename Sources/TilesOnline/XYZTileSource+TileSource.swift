import CSoup
import Foundation
import Tiles

/// The online source behind the same interface as the tile files: a loader thread asks for a
/// tile's bytes and waits while the request runs on the source's main context (libsoup and its
/// cache stay on that thread). So the street-map layer loads MBTiles, PMTiles and online tiles
/// through one wish-list worker, and a tile that left the view before its turn is never fetched.
extension XYZTileSource: TileSource {
    /// A raster source (the template names no format; PNG, JPEG and WebP all decode), zooms 0…19.
    public var metadata: TileSourceMetadata { TileSourceMetadata(format: .png, minZoom: 0, maxZoom: 19) }

    /// The tile at scale 1.
    public func tileData(for tile: TileID) throws -> Data? { try tileData(for: tile, scale: 1) }

    /// Fetches the tile on the source's main context and waits for the answer (call it from a
    /// loader thread, never from the thread running that context: it would wait for itself).
    /// A 404/410 is an absent tile (nil); other failures throw `FetchError`.
    public func tileData(for tile: TileID, scale: Double) throws -> Data? {
        precondition(g_main_context_is_owner(context) == 0, "tileData(for:) runs off the thread of the source's main context")
        let wait = BlockingFetch(source: self, tile: tile, scale: scale)
        // An idle source on the context, not `g_main_context_invoke`: that may run the function
        // right here when this thread can acquire the context (nobody iterating it just now).
        let idle = g_idle_source_new()
        g_source_set_priority(idle, G_PRIORITY_DEFAULT)
        g_source_set_callback(idle, { data in
            guard let data else { return 0 }
            Unmanaged<BlockingFetch>.fromOpaque(data).takeUnretainedValue().start()
            return 0  // G_SOURCE_REMOVE
        }, Unmanaged.passRetained(wait).toOpaque(), { data in
            guard let data else { return }
            Unmanaged<BlockingFetch>.fromOpaque(data).release()
        })
        g_source_attach(idle, context)
        g_source_unref(idle)
        switch wait.result() {
        case .success(let data): return data
        case .failure(.notFound): return nil
        case .failure(let error): throw error
        }
    }
}

/// One fetch a loader thread waits for; started and completed on the source's context.
private final class BlockingFetch: @unchecked Sendable {
    private weak var source: XYZTileSource?
    private let tile: TileID
    private let scale: Double
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<Data, XYZTileSource.FetchError> = .failure(.cancelled)

    init(source: XYZTileSource, tile: TileID, scale: Double) {
        self.source = source
        self.tile = tile
        self.scale = scale
    }

    /// On the source's context.
    func start() {
        guard let source else { done.signal(); return }
        source.fetch(tile, scale: scale) { [self] result in
            outcome = result
            done.signal()
        }
    }

    /// Waits for the completion (the source completes every request exactly once: success,
    /// failure after its retries and time-outs, or cancelled). The semaphore orders the write
    /// of `outcome` before this read.
    func result() -> Result<Data, XYZTileSource.FetchError> {
        done.wait()
        return outcome
    }
}
