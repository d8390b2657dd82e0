import Foundation

extension BaseMapRenderer {
    /// Moves the tiles the worker finished for this generation into the cache.
    func collectBackgroundTiles(_ generation: BaseMapTileCache.Generation) {
        guard let worker = tileWorker else { return }
        wantedTiles.removeAll(keepingCapacity: true)
        for done in worker.takeFinished() where done.generation == generation && !cache.contains(done.key) {
            cache.insert(done.key, image: done.image)
        }
    }

    /// Hands the frame's missing tiles to the worker (replacing what earlier frames asked for).
    func requestBackgroundTiles(_ generation: BaseMapTileCache.Generation) {
        guard let worker = tileWorker else { return }
        var jobs: [BaseMapTileWorker.Job] = []
        jobs.reserveCapacity(wantedTiles.count)
        var seen = Set<BaseMapTileCache.Key>()
        for k in wantedTiles where seen.insert(k).inserted && !cache.contains(k) {
            guard let map = baseMap(forZoom: k.zoom) else { continue }
            jobs.append(BaseMapTileWorker.Job(key: k, generation: generation, map: map,
                                              palette: palette.pastScale(zoom: k.zoom), tileSize: cache.tileSize))
        }
        worker.request(jobs)
    }

    /// Asks for a tile in the background at the end of this frame (no-op without a worker).
    func want(_ key: BaseMapTileCache.Key) {
        if tileWorker != nil { wantedTiles.append(key) }
    }

    /// Asks for every tile of the view at `zoom`.
    func wantTiles(zoom: Double, view: TileView) {
        let r = view.tileRange(zoom: zoom, snapped: true)
        guard r.jMin <= r.jMax else { return }
        for j in r.jMin...r.jMax {
            for i in r.iMin...r.iMax { want(key(zoom: zoom, i: i, j: j, view: view)) }
        }
    }
}
