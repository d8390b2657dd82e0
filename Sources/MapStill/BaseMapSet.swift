import Foundation
import GeoData
import MapRender

/// The built-in base maps a still picture draws, at the levels its zoom needs, with the
/// simplified copies of the finer ones the window uses at low zooms.
public struct BaseMapSet: Sendable {
    /// The base maps (finer ones may be nil when the zoom doesn't need them).
    public var coarse: BaseMap?
    public var detailed: BaseMap?
    public var fine: BaseMap?
    let detailedBands: [Int: BaseMap]
    let fineBands: [Int: BaseMap]

    public init(coarse: BaseMap?, detailed: BaseMap?, fine: BaseMap?) {
        self.coarse = coarse; self.detailed = detailed; self.fine = fine
        detailedBands = detailed?.standardZoomBands() ?? [:]
        fineBands = fine?.standardZoomBands() ?? [:]
    }

    /// Loads what a camera at `zoom` shows from the data folder (the 1:10m map only from zoom 4.5).
    public static func load(forZoom zoom: Double, dataDirectory dir: URL) throws -> BaseMapSet {
        BaseMapSet(coarse: try BaseMap.load(level: .coarse, dataDirectory: dir),
                   detailed: zoom >= 2.5 ? try BaseMap.load(level: .detailed, dataDirectory: dir) : nil,
                   fine: zoom >= 4.5 ? try BaseMap.load(level: .fine, dataDirectory: dir) : nil)
    }

    /// A frame renderer over these maps that paints directly (deterministic pixels).
    func frameRenderer(palette: MapPalette) -> MapFrameRenderer {
        let renderer = MapFrameRenderer(coarse: coarse, palette: palette)
        if let detailed { renderer.baseMap.setBaseMap(detailed, bands: detailedBands) }
        if let fine { renderer.baseMap.setBaseMap(fine, bands: fineBands) }
        renderer.baseMap.usesTileCache = false
        return renderer
    }
}
