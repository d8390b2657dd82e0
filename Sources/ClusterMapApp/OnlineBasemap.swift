import CGtk
import Foundation
import AppSupport
import MapModel
import MapRender
import Tiles
import TilesOnline

/// What the window and `clustermap render` share about online tile sources: the honest
/// User-Agent, the HTTP cache folder, and the credit line each known source requires.
enum OnlineBasemap {
    /// `ClusterMap/<version> (+where to reach the project)`.
    static let userAgent = "ClusterMap/\(AboutDialog.version) (+https://github.com/clustermap/clustermap; desktop map app)"

    /// `$XDG_CACHE_HOME/clustermap/http` (libsoup's HTTP cache, size-capped by the source).
    static var cacheDirectory: String {
        let home = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() + "/.cache")
        return home + "/clustermap/http"
    }

    /// The credit a source's terms ask for (nil for a custom URL: its owner's terms apply).
    static func attribution(for template: String) -> String? {
        if template == LaunchOptions.openStreetMapTemplate { return "© OpenStreetMap contributors" }
        if MapTilerSource.isMapTiler(template) { return MapTilerSource.attribution }
        return nil
    }

    /// An HTTP tile source for a URL template (nil if the template is malformed).
    static func source(for template: String) -> XYZTileSource? {
        TileURLTemplate(template, hasRetina: template.contains("{r}"))
            .map { XYZTileSource(template: $0, userAgent: userAgent, cacheDirectory: cacheDirectory) }
    }
}

/// `clustermap render --basemap URL`: fetches the view's tiles through the same HTTP stack and
/// cache as the window, waiting up to `--tile-timeout` seconds; tiles that are not in by then
/// (no network, a slow or failing server) leave the built-in map showing, and one line on stderr
/// says how many.
enum OnlineTilesForRender {
    static func fetch(_ template: String, camera: Camera, dark: Bool, timeout: Double) -> TileMapLayer {
        let layer = TileMapLayer(online: template, attribution: OnlineBasemap.attribution(for: template))
        guard let source = OnlineBasemap.source(for: template) else { return layer }
        let keys = layer.keysToLoad(camera: camera, scale: 1, dark: dark)
        var requests: [TileMapLayer.Key: XYZTileSource.Request] = [:]
        var failed = 0
        for key in keys {
            requests[key] = source.fetch(key.tile, scale: key.scale) { result in
                requests[key] = nil
                switch result {
                case .success(let data):
                    let outcome = TileMapLayer.decodeRaster(data)
                    if case .failed = outcome { failed += 1 }
                    layer.deliver(outcome, for: key, now: -1)
                case .failure(.cancelled):
                    break  // still out at the deadline: counted once, as late
                case .failure:
                    failed += 1
                    layer.deliver(.failed, for: key, now: -1)
                }
            }
        }
        // libsoup calls back on this thread's main context: turn it until the tiles are in.
        let deadline = ProcessInfo.processInfo.systemUptime + timeout
        while !requests.isEmpty && ProcessInfo.processInfo.systemUptime < deadline {
            if g_main_context_iteration(nil, 0) == 0 { usleep(2000) }
        }
        let late = requests.count
        for request in requests.values { source.cancel(request) }
        while g_main_context_iteration(nil, 0) != 0 {}  // let the cancellations finish
        source.saveCache()
        if late > 0 || failed > 0 {
            var parts: [String] = []
            if late > 0 { parts.append("\(late) not in after \(timeout.formatted()) s") }
            if failed > 0 { parts.append("\(failed) failed") }
            ErrorOutput.write("clustermap render", "\(parts.joined(separator: ", ")) of \(keys.count) tiles from "
                              + "\(TileURLTemplate.host(of: template)); the built-in map shows there")
        }
        return layer
    }
}
