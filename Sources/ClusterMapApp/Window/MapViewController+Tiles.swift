import CGtk
import Foundation
import AppSupport
import MapModel
import MapRender
import Tiles
import TilesOnline

/// The street map from `--basemap FILE|URL|osm`. The layer loads its own tiles through a wish-list
/// worker, as the base map does (`TileMapLayer+Loading`): each frame's list of missing tiles
/// replaces the last, so tiles that left the view are dropped before they are read or fetched.
/// Online tiles go through libsoup (its HTTP cache under `$XDG_CACHE_HOME/clustermap/http`, an
/// honest User-Agent, at most 4 requests per host) behind the same `TileSource` interface as the
/// files. The window only asks for a redraw when a tile is in and logs the `tiles` event; tiles
/// fade in; missing, failing or corrupt tiles leave the built-in map showing, with no message per
/// tile. No server is ever contacted unless an online source was chosen.
extension MapViewController {
    /// Loader threads for an online source: twice the source's 4 requests per host, because a
    /// tile waiting out a retry's back-off holds a thread but no connection.
    static let onlineTileThreads = 8

    /// Opens `--basemap`; a file that can't be opened is one quiet banner, and the built-in map stays.
    func openTileBaseMap() {
        if let basemap = options.basemap { switchBaseMap(to: basemap) }
    }

    /// Shows a tile file or an online source (a URL template) over the built-in map, or only the
    /// built-in map (nil). The main menu's "Map" section and the remembered state come here.
    func switchBaseMap(to basemap: String?) {
        if let old = tileLayer {
            renderer.removeOverlay(old)
            old.stopLoading()
            onlineTiles?.saveCache()
            onlineTiles = nil
            tileLayer = nil
            presentation.setStreetMap(nil)
        }
        defer {
            chrome?.basemapDidChange(tileLayer?.path)
            redraw()
        }
        guard let basemap else {
            eventLog.emit("basemap", [("level", .string("builtin"))])
            return
        }
        if LaunchOptions.isOnlineBasemap(basemap), let source = OnlineBasemap.source(for: basemap) {
            onlineTiles = source
            installTileLayer(TileMapLayer(online: basemap, attribution: OnlineBasemap.attribution(for: basemap), source: source),
                             threads: MapViewController.onlineTileThreads)
            return
        }
        do {
            installTileLayer(try TileMapLayer(path: basemap), threads: 1)
        } catch {
            let message = "\((basemap as NSString).lastPathComponent): \(TileSourceError.reason(of: error)); showing the built-in map."
            // After the window's chrome is attached, so the banner shows.
            runOnGtkThread { [weak self] in self?.showError(message) }
        }
    }

    private func installTileLayer(_ layer: TileMapLayer, threads: Int) {
        tileLayer = layer
        layer.startLoading(threads: threads) { [weak self] in
            runOnGtkThread { if let c = self, !c.isClosed { c.redraw() } }
        }
        presentation.setStreetMap(layer)
        renderer.addOverlayUnderneath(layer)
        eventLog.emit("basemap", [("level", .string("tiles")), ("source", .string(layer.path))])
    }

    /// Before a frame: the tiles loaded since the last one go into the layer; when they were the
    /// last the view asked for, the `tiles` event says so.
    func collectLoadedTiles() {
        guard let layer = tileLayer, layer.collectLoaded() > 0, !layer.hasPendingTiles else { return }
        emitTilesEvent()  // the view's tiles are all in
    }

    /// After a frame: the tiles it lacked become the layer's wish list; keep drawing while tiles
    /// fade in.
    func requestMissingTiles() {
        guard let layer = tileLayer else { return }
        layer.requestLoading()
        if layer.isFading { runOnGtkThread { [weak self] in self?.redraw() } }
    }

    /// The `tiles` event, when the camera comes to rest and when the last requested tile arrives.
    func emitTilesEvent() {
        guard let layer = tileLayer else { return }
        let s = layer.takeStatistics()
        eventLog.emit("tiles", [("source", .string(layer.path)), ("requested", .int(s.requested)),
                                ("loaded", .int(s.loaded)), ("from_cache", .int(s.fromCache)),
                                ("failed", .int(s.failed)), ("cancelled", .int(s.cancelled))])
        if onlineTiles != nil, s.failed > 0, s.loaded == 0, s.fromCache == 0 { chrome?.onlineTilesDidFail(source: layer.path) }
    }

    /// At exit: stops loading street tiles and writes the online tiles' HTTP cache index (without
    /// it the next launch forgets the cache).
    func saveTileCache() {
        tileLayer?.stopLoading()
        onlineTiles?.saveCache()
    }
}
