import AppSupport
import MapModel
import MapRender
import MapStill

/// A still picture of the test maps drawn through `MapPresentation` (as `clustermap render` and
/// the window compose theirs), with a scene made by hand in place of data.
struct StillPicture {
    static let baseMaps = BaseMapSet(coarse: TestMaps.coarse, detailed: TestMaps.detailed, fine: TestMaps.fine)
    var palette: MapPalette
    /// The base map's names (none: `.empty`).
    var labels: MapLabelIndex = TestMaps.labels

    /// A frame renderer drawing `scene`'s marks, the names placed around them and the credits for
    /// `camera`, over a street map from `tiles` if given.
    func frameRenderer(camera: Camera, scene: Scene = Scene(), tiles: TileMapLayer? = nil) -> MapFrameRenderer {
        let sceneRenderer = SceneRenderer()
        return MapPresentation.still(session: nil, labels: labels, sceneRenderer: sceneRenderer)
            .stillRenderer(camera: camera, baseMaps: StillPicture.baseMaps, palette: palette, sceneRenderer: sceneRenderer,
                           tiles: tiles, data: scene)
    }
}
