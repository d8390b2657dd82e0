import AppSupport
import Foundation
import GeoData
import MapModel
import MapRender

/// One still picture of what the presentation shows, as the window draws it at rest:
/// `clustermap render`, the golden-image tests and the README pictures draw through this, so
/// every picture is the real composition.
extension MapPresentation {
    /// A presentation for a still: `session`'s data (if any) over names from `labels`, measured by
    /// `sceneRenderer`'s label sprites.
    public static func still(session: MapDataSession?, labels: MapLabelIndex, sceneRenderer: SceneRenderer) -> MapPresentation {
        let p = MapPresentation(labelRenderer: sceneRenderer.labelRenderer, labels: labels)
        if let session { p.show(session) }
        return p
    }

    /// A frame renderer set up to draw this presentation for `camera` over `baseMaps`, with a
    /// street map from a tile file over the built-in map if `tiles` is given (its visible tiles
    /// are loaded here). `data` replaces the data's bubbles and pins by a scene made by hand
    /// (renderer tests); names, place names and credits are composed as always.
    public func stillRenderer(camera: Camera, baseMaps: BaseMapSet, palette: MapPalette, sceneRenderer: SceneRenderer,
                              tiles: TileMapLayer? = nil, data: Scene? = nil) -> MapFrameRenderer {
        let renderer = baseMaps.frameRenderer(palette: palette)
        if let tiles { tiles.loadSynchronously(camera: camera, scale: 1, dark: palette.isDark) }
        setStreetMap(tiles)
        let scene = self.scene(for: camera, now: 0, moving: false, reducedMotion: false, data: data).scene
        renderer.setAttribution(attribution(for: scene, view: camera))
        sceneRenderer.setScene(scene)
        renderer.setOverlays([sceneRenderer])
        if let tiles { renderer.addOverlayUnderneath(tiles) }
        return renderer
    }
}
