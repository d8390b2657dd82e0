import CGtk
import Foundation
import AppSupport
import MapModel
import MapRender
import Tiles
import TilesOnline

/// The street map from `--basemap FILE|URL|osm`: local tiles decode and paint on a background
/// queue; online tiles are fetched through libsoup (its HTTP cache under
/// `$XDG_CACHE_HOME/clustermap/http`, an honest User-Agent, at most 4 requests per host, requests
/// for tiles that left the view cancelled) and decoded on the same queue. Tiles come back on the
/// GTK thread and fade in; missing, failing or corrupt tiles leave the built-in map showing, with
/// no message per tile. No server is ever contacted unless an online source was chosen.
extension MapViewController {
    /// Serial: tile files are read with one SQLite connection / file handle at a time.
    static let tileQueue = DispatchQueue(label: "clustermap.tiles", qos: .utility)

    /// Opens `--basemap`; a file that can't be opened is one quiet banner, and the built-in map stays.
    func openTileBaseMap() {
        if let basemap = options.basemap { switchBaseMap(to: basemap) }
    }

    /// Shows a tile file or an online source (a URL template) over the built-in map, or only the
    /// built-in map (nil). The main menu's "Map" section and the remembered state come here.
    func switchBaseMap(to basemap: String?) {
        if let old = tileLayer {
            renderer.overlays.removeAll { $0 === old }
            for request in tileRequests.values { onlineTiles?.cancel(request) }
            tileRequests = [:]
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
            installTileLayer(TileMapLayer(online: basemap, attribution: OnlineBasemap.attribution(for: basemap)))
            return
        }
        do {
            installTileLayer(try TileMapLayer(path: basemap))
        } catch {
            let message = "\((basemap as NSString).lastPathComponent): \(TileSourceError.reason(of: error)); showing the built-in map."
            // After the window's chrome is attached, so the banner shows.
            runOnGtkThread { [weak self] in self?.showError(message) }
        }
    }

    private func installTileLayer(_ layer: TileMapLayer) {
        tileLayer = layer
        presentation.setStreetMap(layer)
        renderer.overlays.insert(layer, at: 0)
        eventLog.emit("basemap", [("level", .string("tiles")), ("source", .string(layer.path))])
    }

    /// After a frame: request the tiles it lacked, cancel online requests for tiles that left the
    /// view, and keep drawing while tiles fade in.
    func requestMissingTiles() {
        guard let layer = tileLayer else { return }
        let missing = layer.takeMissing()
        let owner = ObjectIdentifier(layer)
        if let online = onlineTiles {
            for (key, request) in tileRequests where !layer.visibleKeys.contains(key) {
                online.cancel(request)  // its completion reports .cancelled
            }
            for key in missing {
                tileRequests[key] = online.fetch(key.tile, scale: key.scale) { [weak self] result in
                    guard let c = self, !c.isClosed, let layer = c.tileLayer,
                          ObjectIdentifier(layer) == owner else { return }
                    c.tileRequests[key] = nil
                    switch result {
                    case .success(let data):
                        MapViewController.tileQueue.async {
                            let outcome = TileMapLayer.decodeRaster(data)
                            runOnGtkThread { [weak c] in
                                if let c, !c.isClosed { c.tileDidArrive(outcome, key: key, owner: owner) }
                            }
                        }
                    case .failure(.cancelled):
                        layer.cancelled(key)
                    case .failure:
                        c.tileDidArrive(.failed, key: key, owner: owner)
                    }
                }
            }
        } else {
            let source = layer.source, style = layer.style, size = layer.tileSize, maxZoom = layer.maxZoom
            let decoded = layer.decodedAncestors
            for key in missing {
                MapViewController.tileQueue.async { [weak self] in
                    let outcome = TileMapLayer.renderTile(key, source: source, style: style, tileSize: size,
                                                          maxZoom: maxZoom, decoded: decoded)
                    runOnGtkThread { if let c = self, !c.isClosed { c.tileDidArrive(outcome, key: key, owner: owner) } }
                }
            }
        }
        if layer.isFading { runOnGtkThread { [weak self] in self?.redraw() } }
    }

    /// A tile came back (on the GTK thread); the layer may have been replaced meanwhile.
    func tileDidArrive(_ outcome: TileMapLayer.Outcome, key: TileMapLayer.Key, owner: ObjectIdentifier) {
        guard let layer = tileLayer, ObjectIdentifier(layer) == owner else { return }
        layer.deliver(outcome, for: key)
        redraw()
        if !layer.hasPendingTiles { emitTilesEvent() }  // the view's tiles are all in
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

    /// Writes the online tiles' HTTP cache index (at exit; without it the next launch forgets it).
    func saveTileCache() { onlineTiles?.saveCache() }
}
