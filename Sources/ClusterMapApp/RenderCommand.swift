import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel
import MapRender
import MapStill
import PostGIS
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
    if let problem = mixedSourcesProblem(options.files) {
        ErrorOutput.write("clustermap render", problem)
        return 2
    }
    do {
        var session: MapDataSession?
        let table = options.files.first(where: PostGISAddress.looksLikeAddress)
        if let table {
            // A table is asked for the view (RenderCommand+Database.swift); its filter is the query's WHERE.
            session = try renderTableSession(table, options: options, camera: &camera)
        } else if !options.files.isEmpty || options.dataset != nil {
            let sources = MapViewController.initialSources(options, dataDirectory: dirPath)
            var sets: [PointSet] = []
            for (i, path) in sources.files.enumerated() {
                let ds = i < sources.datasets.count ? sources.datasets[i] : nil
                sets.append(try PointSetLoader.load(path: path, options: ds?.loadOptions ?? LoadOptions()))
            }
            session = MapDataSession(pointSets: sets, datasets: sources.datasets, keepPlacesApart: options.noClustering)
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
        if !options.filters.isEmpty && session != nil && table == nil {
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
        // As the window's legend card: what the numbers on the bubbles and the colours are.
        if options.filters.total != nil || options.filters.groupProperty != nil, let legend = presentation.legend {
            renderer.setOverlays(renderer.overlays + [RenderLegendOverlay(legend)])
        }
        try renderer.renderPNG(camera: camera, scale: 1, to: URL(fileURLWithPath: options.output!))
    } catch let e as ClustersCommandError {
        ErrorOutput.write("clustermap render", e.message)
        return e.status
    } catch {
        return fail("\(error)")
    }
    return 0
}
