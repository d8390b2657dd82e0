import CGtk
import Foundation
import AppSupport
import ClusterCore
import MapModel
import Tiles

/// A clustered tile file as data (issue 31.7): per view, the tiles at the camera's zoom are read
/// and shown as a `RemoteView`, as a PostGIS table's views are (bubbles from `point_count`,
/// flights to `expansion_zoom`, places' cards from their properties). Reading a view's few
/// local tiles takes milliseconds, so it happens here on the GTK thread.
extension MapViewController {
    /// The clustered tile file among the launch's files, if any (a street-map tile file is not).
    static func clusterTileFile(_ options: LaunchOptions) -> String? {
        options.files.first(where: ClusterTileLink.isClusterTileFile)
    }

    /// Opens a clustered tile file as the data; with `fit` the camera shows the file's bounds.
    func openClusterTiles(_ path: String, fit: Bool) {
        closeDatabase()
        currentLoadCancel?.cancel()
        currentLoadCancel = nil
        loadGeneration += 1
        let link: ClusterTileLink
        do {
            link = try ClusterTileLink(path: path)
        } catch {
            showError("\(path): \(error)")
            return
        }
        clusterTiles = link
        eventLog.emit("tiles-open", [("file", .string(link.name))])
        if fit, let b = link.reader.source.metadata.bounds {
            let ctx = beginInput()
            apply(.set(ctx.camera.fitting(GeoBounds(west: b.west, south: b.south, east: b.east, north: b.north),
                                          paddingPixels: 60, maxZoom: 14)))
            gestureDidEnd()
        }
        clusterTilesCameraDidChange()
    }

    /// The camera moved: reads the view's tiles in the loop's next turn, as a table's answers
    /// arrive (a camera change can come while a frame is being built: replacing the data there
    /// gave the frame's items a new session's places — a crash found by clicking a bubble).
    func clusterTilesCameraDidChange() {
        guard let link = clusterTiles, link.queueRead() else { return }
        runOnGtkThread(priority: G_PRIORITY_DEFAULT) { [weak self] in
            link.readStarted()
            guard let c = self, !c.isClosed, c.clusterTiles === link else { return }
            c.readClusterTiles(link)
        }
    }

    /// Reads and shows the view's tiles unless they are the ones shown.
    private func readClusterTiles(_ link: ClusterTileLink) {
        let tiles = link.reader.tiles(in: camera.visibleBounds, zoom: camera.zoom)
        guard tiles != link.shownTiles else { return }
        let items: [ClusterTileReader.Item]
        do {
            items = try link.reader.items(of: tiles)
        } catch {
            showError("\(link.name): \(error)")
            return
        }
        link.show(tiles)
        let zoom = link.reader.tileZoom(for: camera.zoom)
        let session = MapDataSession.remote(ClusterTileLink.remoteItems(items), zoom: zoom, name: link.name)
        // A change in place renumbered (a selected place follows its feature id; the last frame's
        // places follow too, or are dropped: their old indices name other places, or none).
        showRemoteView(session, first: link.views == 1)
        chrome?.dataDidChange()
        if let chrome = chrome as? AppChrome { chrome.datasetMenu.setTitle(link.name) }
        let points = session.remote?.pointCount ?? 0
        eventLog.emit("tiles-view", [("zoom", .int(zoom)), ("tiles", .int(tiles.count)), ("items", .int(items.count)),
                                     ("points", .int(points)), ("places", .int(session.pointCount))])
        if link.views == 1 { eventLog.emit("load-done", [("points", .int(points)), ("skipped", .int(0))]) }
        sceneDidChange()
    }
}
