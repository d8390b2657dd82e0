import Foundation
import Tiles

/// The layer loads its own tiles (the window only asks for redraws): each frame's wish list goes
/// to a `StreetTileLoader`, and what it loaded is collected before the next frame is drawn.
/// `clustermap render` loads synchronously instead (`loadSynchronously`), so its pictures never
/// depend on timing.
extension TileMapLayer {
    /// Loads tiles from now on off the drawing thread, `threads` at a time (1 for a file, a few for
    /// an online source); `onTileReady` runs on a loader thread after each tile. Does nothing
    /// without a source or when already loading.
    public func startLoading(threads: Int = 1, onTileReady: @escaping @Sendable () -> Void) {
        guard let source, loader == nil else { return }
        let l = StreetTileLoader(source: source, style: style, tileSize: tileSize, maxZoom: maxZoom,
                                 decoded: decodedAncestors, threads: threads)
        l.onTileReady = onTileReady
        loader = l
    }

    /// Stops loading (the layer is being replaced or the window closes): tiles not yet started
    /// are never read; one in progress finishes and is thrown away.
    public func stopLoading() {
        loader?.stop()
        loader = nil
    }

    /// Takes the tiles loaded since the last call (drawing thread, before drawing a frame) and
    /// returns how many came in.
    @discardableResult
    public func collectLoaded(now: Double = ProcessInfo.processInfo.systemUptime) -> Int {
        guard let loader else { return 0 }
        let done = loader.takeFinished()
        for (key, outcome) in done { deliver(outcome, for: key, now: now) }
        return done.count
    }

    /// Hands the last frame's wish list to the loader (drawing thread, after a frame): tiles that
    /// were waiting and left the view are dropped unread and counted as cancelled.
    public func requestLoading() {
        guard let loader else { return }
        _ = takeMissing()  // the wishes not yet asked for: marked and counted as requested
        for key in loader.request(wishes) { cancelled(key) }
    }

    /// Whether the loader has tiles queued or in progress.
    public var isLoading: Bool { loader?.isBusy ?? false }

    /// Tiles the loader read or fetched so far (for tests).
    public var loadedByLoader: Int { loader?.loadedCount ?? 0 }
}
