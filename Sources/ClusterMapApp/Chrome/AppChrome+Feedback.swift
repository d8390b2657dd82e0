import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel

/// Feedback a new user missed (issue 32 item 8): a tile file opened off screen says what it
/// covers and offers to go there; an online map that can't be reached says so once; the banner
/// keeps off the open callout card.
extension AppChrome {
    /// Wires the banner to the map's callout (called once from `init`).
    func installFeedback() {
        banner.avoidCallout { [weak controller] in controller?.lastScene.callout?.frame }
        // A tile file given at launch was opened before the chrome existed.
        if controller.tileLayer?.source != nil {
            runOnGtkThread { [weak self] in self?.offerTileArea() }
        }
    }

    /// A tile file whose area (its metadata bounds) is not in view: say what it covers and offer
    /// to fly there. Nothing for online maps (they cover the world) or files without bounds.
    func offerTileArea() {
        guard let layer = controller.tileLayer, let meta = layer.source?.metadata, let b = meta.bounds else { return }
        let area = GeoBounds(west: b.west, south: b.south, east: b.east, north: b.north)
        // The file's name: a metadata name is often the schema's ("OpenMapTiles"), not the place's.
        let name = DisplayText.line((layer.path as NSString).lastPathComponent)
        guard let text = TileAreaNotice.text(name: name, area: area, minZoom: layer.minZoom, maxZoom: layer.maxZoom,
                                             view: controller.camera.visibleBounds) else { return }
        banner.show(text, isError: false, action: (title: "Show It", run: { [weak self] in self?.flyToTileArea(area, maxZoom: layer.maxZoom) }))
    }

    private func flyToTileArea(_ area: GeoBounds, maxZoom: Int) {
        let ctx = controller.beginInput()
        let target = ctx.camera.fitting(area, paddingPixels: 40, maxZoom: Double(maxZoom))
        controller.apply(.fly(to: target, purpose: .showAll, in: ctx))
        controller.gestureDidEnd()
        controller.eventLog.emit("tile-area-shown", [("zoom", .number((target.zoom * 100).rounded() / 100))])
    }

    /// Online tiles for `source` all failed (no network, or the server refuses): one quiet
    /// notice per source, not one per tile, and not again while the app runs.
    func onlineTilesDidFail(source: String) {
        // Logged each time (a test sees a later failure pass without a second notice).
        controller.eventLog.emit("tiles-offline", [("noticed", .bool(noticedTileFailures.contains(source)))])
        guard !noticedTileFailures.contains(source) else { return }
        noticedTileFailures.insert(source)
        let host = URL(string: source.replacingOccurrences(of: "{", with: "").replacingOccurrences(of: "}", with: ""))?.host ?? source
        banner.show("No map tiles from \(host) (offline?): showing the built-in map.", isError: false)
    }
}
