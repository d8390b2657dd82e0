import Foundation
import GeoData
import MapModel
import MapRender

/// One still picture of the map, as the window would draw it at rest: the base map at the level
/// the zoom needs, its labels (placed around the scene's bubbles and pins), the scene and the
/// attribution. `clustermap render`, the golden-image tests and the README pictures all use it, so
/// every picture is the real one.
public struct MapPicture: Sendable {
    /// The base maps (coarser ones may be nil when the zoom doesn't need them).
    public var coarse: BaseMap?
    public var detailed: BaseMap?
    public var fine: BaseMap?
    /// The base-map label candidates.
    public var labels: MapLabelIndex
    public var palette: MapPalette
    /// The simplified copies of the 1:50m and 1:10m maps for low zooms, as the window uses them.
    let detailedBands: [Int: BaseMap]
    let fineBands: [Int: BaseMap]
    /// Data credits shown in the corner (nil: the base map's default).
    public var attribution: String?

    public init(coarse: BaseMap?, detailed: BaseMap?, fine: BaseMap?, labels: MapLabelIndex,
                palette: MapPalette, attribution: String? = nil) {
        self.coarse = coarse; self.detailed = detailed; self.fine = fine
        self.labels = labels; self.palette = palette; self.attribution = attribution
        detailedBands = detailed?.standardZoomBands() ?? [:]
        fineBands = fine?.standardZoomBands() ?? [:]
    }

    /// Loads what a camera at `zoom` shows from the data folder (the 1:10m map only from zoom 4.5).
    public static func load(forZoom zoom: Double, dataDirectory dir: URL, palette: MapPalette) throws -> MapPicture {
        MapPicture(coarse: try BaseMap.load(level: .coarse, dataDirectory: dir),
                   detailed: zoom >= 2.5 ? try BaseMap.load(level: .detailed, dataDirectory: dir) : nil,
                   fine: zoom >= 4.5 ? try BaseMap.load(level: .fine, dataDirectory: dir) : nil,
                   labels: try BaseMapLabelSource.load(dataDirectory: dir), palette: palette)
    }

    /// A frame renderer set up to draw `scene` (without labels; they are added here) for `camera`,
    /// with a street map from a tile file over the built-in map if `tiles` is given (its visible
    /// tiles are loaded here).
    public func frameRenderer(camera: Camera, scene dataScene: Scene = Scene(), tiles: TileMapLayer? = nil) -> MapFrameRenderer {
        let renderer = MapFrameRenderer(coarse: coarse, palette: palette)
        if let detailed { renderer.baseMap.setBaseMap(detailed, bands: detailedBands) }
        if let fine { renderer.baseMap.setBaseMap(fine, bands: fineBands) }
        renderer.baseMap.usesTileCache = false  // paint directly: deterministic pixels
        if let attribution { renderer.attribution = attribution }
        let sceneRenderer = SceneRenderer()
        var scene = dataScene
        let layout = MapLabelLayout(index: labels)
        if let tiles {
            tiles.loadSynchronously(camera: camera, scale: 1, dark: palette.isDark)
            layout.setOverlay(tiles.labelOverlay(for: camera, margin: layout.margin))
        }
        scene.labels = layout.labels(for: camera) { id in
            guard let c = layout.candidate(id: id) else { return MapLabelSize(width: 0, height: 0) }
            return sceneRenderer.labelRenderer.size(of: c.text, kind: c.kind)
        }
        scene.placeNames = PlaceNamePlacer().names(for: scene, zoom: camera.zoom) { text in
            sceneRenderer.labelRenderer.size(of: text, kind: .place)
        }
        scene.dropLabelsUnderMarks()
        renderer.attribution = LabelAttribution.line(renderer.attribution, labels: scene.labels,
                                                       showsData: !scene.bubbles.isEmpty || !scene.pins.isEmpty)
        sceneRenderer.scene = scene
        renderer.overlays = [sceneRenderer]
        if let tiles {
            renderer.overlays.insert(tiles, at: 0)
            if let credit = tiles.attribution { renderer.attribution += " · " + credit }
        }
        return renderer
    }
}
