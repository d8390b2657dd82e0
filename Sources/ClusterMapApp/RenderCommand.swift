import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel
import MapRender

/// `clustermap render --output OUT.png …`: draws what the window would show, with no display
/// (no GTK initialised), through the same frame renderer the window uses.
func runRenderCommand(_ options: LaunchOptions) -> Int32 {
    func fail(_ message: String) -> Int32 {
        FileHandle.standardError.write("clustermap render: \(message)\n".data(using: .utf8)!)
        return 1
    }
    guard let dir = DataDirectory.locate().map({ URL(fileURLWithPath: $0) }) else { return fail("cannot find the data folder (set CLUSTERMAP_DATA_DIR)") }
    let size = ScreenSize(width: Double(options.width), height: Double(options.height))
    let camera = Camera(center: options.center ?? GeoCoordinate(latitude: 20, longitude: 0),
                        zoom: options.zoom ?? MapViewController.zoomShowingWholeWorld(size), viewportSize: size)
    do {
        let coarse = try BaseMap.load(level: .coarse, dataDirectory: dir)
        let detailed = camera.zoom >= 3 ? try BaseMap.load(level: .detailed, dataDirectory: dir) : nil
        let renderer = MapFrameRenderer(coarse: coarse, detailed: detailed, palette: options.dark ? .dark : .light)
        renderer.baseMap.usesTileCache = false
        try renderer.renderPNG(camera: camera, scale: 1, to: URL(fileURLWithPath: options.output!))
    } catch {
        return fail("\(error)")
    }
    return 0
}
