import CGtk
import Foundation
import AppSupport
import MapModel
import MapRender

/// The street map from a tile file (`--basemap FILE`): tiles decode and paint on a background
/// queue, come back on the GTK thread, and fade in; missing or corrupt tiles leave the built-in
/// map showing, with no message per tile.
extension MapViewController {
    /// Serial: tile files are read with one SQLite connection / file handle at a time.
    static let tileQueue = DispatchQueue(label: "clustermap.tiles", qos: .utility)

    /// Opens `--basemap FILE`; an unreadable file is one quiet banner, and the built-in map stays.
    func openTileBaseMap() {
        guard let path = options.basemap else { return }
        do {
            let layer = try TileMapLayer(path: path)
            tileLayer = layer
            renderer.overlays.insert(layer, at: 0)
            eventLog.emit("basemap", [("level", .string("tiles")), ("source", .string(path))])
        } catch {
            let message = "\((path as NSString).lastPathComponent): can't open the tile file (\(error)); showing the built-in map."
            // After the window's chrome is attached, so the banner shows.
            runOnGtkThread { [weak self] in self?.showError(message) }
        }
    }

    /// After a frame: request the tiles it lacked, and keep drawing while tiles fade in.
    func requestMissingTiles() {
        guard let layer = tileLayer else { return }
        let missing = layer.takeMissing()
        if !missing.isEmpty {
            let source = layer.source, style = layer.style, size = layer.tileSize
            let owner = ObjectIdentifier(layer)
            for key in missing {
                MapViewController.tileQueue.async {
                    let outcome = TileMapLayer.renderTile(key, source: source, style: style, tileSize: size)
                    runOnGtkThread {
                        // The layer may have been replaced (or the window closed) meanwhile.
                        guard let c = MapApplication.window?.controller, let layer = c.tileLayer,
                              ObjectIdentifier(layer) == owner else { return }
                        layer.deliver(outcome, for: key)
                        c.redraw()
                        if !layer.hasPendingTiles { c.emitTilesEvent() }  // the view's tiles are all in
                    }
                }
            }
        }
        if layer.isFading { runOnGtkThread { [weak self] in self?.redraw() } }
    }

    /// The `tiles` event, when the camera comes to rest and when the last requested tile arrives.
    func emitTilesEvent() {
        guard let layer = tileLayer else { return }
        let s = layer.takeStatistics()
        eventLog.emit("tiles", [("source", .string(layer.path)), ("requested", .int(s.requested)),
                                ("loaded", .int(s.loaded)), ("from_cache", .int(s.fromCache)),
                                ("failed", .int(s.failed)), ("cancelled", .int(s.cancelled))])
    }
}
