import Foundation
import Tiles

/// Loads a street map's tiles off the drawing thread the way the base map's tiles are painted:
/// through a `WishListWorker` whose list each frame replaces with the tiles it still lacks,
/// nearest the centre first. A tile that left the view before its turn is dropped: never read
/// from the file, never fetched from the server. Files, PMTiles and online sources are all a
/// `TileSource` here (an online source waits for its answer on the loader thread).
///
/// `TileMapLayer` owns one (`startLoading`); finished tiles wait in an inbox until the layer
/// collects them on the drawing thread, and `onTileReady` runs on a loader thread after each one
/// (the window asks for a redraw there).
final class StreetTileLoader: @unchecked Sendable {
    typealias Key = TileMapLayer.Key

    private let worker: WishListWorker<Key, Key, TileMapLayer.Outcome>

    /// Called on a loader thread after a tile is loaded (or found absent or broken).
    var onTileReady: (@Sendable () -> Void)? {
        get { worker.onFinished }
        set { worker.onFinished = newValue }
    }

    /// Tiles loaded so far (for tests).
    var loadedCount: Int { worker.doneCount }

    /// A loader reading `source` on `threads` threads: one for files (one SQLite connection or
    /// file handle at a time), a few for an online source (requests in flight at once; the
    /// source keeps its own per-host limit).
    init(source: TileSource, style: TileStyle?, tileSize: Double, maxZoom: Int,
         decoded: TileCache<TileID, VectorTile>, threads: Int) {
        // Below the drawing thread, above the base map's own tiles (those only sharpen what is
        // already drawn; a street tile replaces a stand-in).
        worker = WishListWorker(name: "street tiles", niceness: 10, threads: threads, key: { $0 }, work: { key in
            TileMapLayer.renderTile(key, source: source, style: style, tileSize: tileSize, maxZoom: maxZoom, decoded: decoded)
        })
    }

    deinit { stop() }

    /// Replaces the wish list (most wanted first); returns the tiles that were waiting and are no
    /// longer wanted (dropped unread).
    func request(_ keys: [Key]) -> [Key] { worker.request(keys) }

    /// The tiles finished since the last call.
    func takeFinished() -> [(key: Key, output: TileMapLayer.Outcome)] { worker.takeFinished() }

    /// Whether tiles are queued or being loaded.
    var isBusy: Bool { worker.isBusy }

    /// Stops the threads after the tiles in progress (the layer is replaced, the window closes).
    func stop() { worker.stop() }
}
