import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel
import MapRender
import Tiles

/// `clustermap render --output OUT.png …`: draws what the window would show, with no display
/// (no GTK initialised): the same base map, clustering, renderers and composition (`MapPresentation`) as the window.
func runRenderCommand(_ options: LaunchOptions) -> Int32 {
    func fail(_ message: String) -> Int32 {
        ErrorOutput.write("clustermap render", message)
        return 1
    }
    guard let dirPath = DataDirectory.locate() else { return fail("cannot find the data folder (set CLUSTERMAP_DATA_DIR)") }
    let dir = URL(fileURLWithPath: dirPath)
    let size = ScreenSize(width: Double(options.width), height: Double(options.height))
    var camera = Camera(center: options.center ?? GeoCoordinate(latitude: 20, longitude: 0),
                        zoom: options.zoom ?? MapViewController.zoomShowingWholeWorld(size), viewportSize: size)
    do {
        var session: MapDataSession?
        if !options.files.isEmpty || options.dataset != nil {
            let sources = MapViewController.initialSources(options, dataDirectory: dirPath)
            var sets: [PointSet] = []
            for (i, path) in sources.files.enumerated() {
                let ds = i < sources.datasets.count ? sources.datasets[i] : nil
                sets.append(try PointSetLoader.load(path: path, options: ds?.loadOptions ?? LoadOptions()))
            }
            session = MapDataSession(pointSets: sets, datasets: sources.datasets)
            // As in the window: files and the demos open fitted to their data.
            if options.opensFittedToData, let b = session?.bounds {
                camera = session?.openingCamera(from: camera) ?? camera.fitting(b, paddingPixels: 60, maxZoom: 14)
            }
        }
        let baseMaps = try BaseMapSet.load(forZoom: camera.zoom, dataDirectory: dir)
        let sceneRenderer = SceneRenderer()
        let presentation = MapPresentation.still(session: session, labels: try BaseMapLabelSource.load(dataDirectory: dir),
                                                 sceneRenderer: sceneRenderer)
        // --where/--since/--until/--by/--total/--type: the window's filter, answered here at once.
        if !options.filters.isEmpty && session != nil {
            do {
                try presentation.applyFilter(options.filters)
            } catch let e as FilterSettingsError {
                ErrorOutput.write("clustermap render", e.description)
                return 2
            }
        }
        var tiles: TileMapLayer?
        if let basemap = options.basemap, options.basemapIsOnline {
            tiles = OnlineTilesForRender.fetch(basemap, camera: camera, dark: options.dark, timeout: options.tileTimeout)
        } else if let path = options.basemap {
            do { tiles = try TileMapLayer(path: path) } catch { return fail("\(path): \(TileSourceError.reason(of: error))") }
        }
        let renderer = presentation.stillRenderer(camera: camera, baseMaps: baseMaps, palette: options.dark ? .dark : .light,
                                                  sceneRenderer: sceneRenderer, tiles: tiles)
        try renderer.renderPNG(camera: camera, scale: 1, to: URL(fileURLWithPath: options.output!))
    } catch {
        return fail("\(error)")
    }
    return 0
}
