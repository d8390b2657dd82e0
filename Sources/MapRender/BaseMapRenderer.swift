import CCairo
import GeoData
import MapModel

/// Draws the Natural Earth base map for a camera: water, land, lakes, borders, coastlines.
///
/// Uses 1:110m below `detailedMinZoom` and 1:50m from there (falling back to 1:110m until the
/// detailed map has been set). The world wraps horizontally. When the camera keeps its zoom, frames
/// are assembled from cached tiles (see `BaseMapTileCache`), so a static or panning frame is mostly
/// blits; the first frame at a new zoom (e.g. during a zoom animation) is painted directly, which
/// costs no more than painting the viewport once. Not thread-safe: use it on the drawing thread.
public final class BaseMapRenderer {
    /// The 1:110m map (needed for low zoom and as fallback).
    public private(set) var coarseMap: BaseMap?
    /// The 1:50m map, once loaded.
    public private(set) var detailedMap: BaseMap?
    /// Zoom from which the detailed map is used.
    public var detailedMinZoom = 3.0
    /// Colours; changing them drops cached tiles.
    public var palette: MapPalette
    /// Whether frames at an unchanged zoom are assembled from cached tiles (on by default).
    public var usesTileCache = true

    let cache = BaseMapTileCache()
    private var dataVersion = 0
    private var lastGeneration: BaseMapTileCache.Generation?

    /// Creates a renderer with the maps loaded so far.
    public init(coarse: BaseMap?, detailed: BaseMap? = nil, palette: MapPalette = .light) {
        coarseMap = coarse
        detailedMap = detailed
        self.palette = palette
    }

    /// Installs a (newly loaded) map at its level; cached tiles are refreshed.
    public func setBaseMap(_ map: BaseMap) {
        switch map.level {
        case .coarse: coarseMap = map
        case .detailed: detailedMap = map
        }
        dataVersion += 1
        cache.removeAll()
    }

    /// Drops all cached tiles (e.g. on memory pressure).
    public func invalidateCache() {
        cache.removeAll()
        lastGeneration = nil
    }

    /// The map drawn at a zoom level.
    public func baseMap(forZoom zoom: Double) -> BaseMap? {
        if zoom >= detailedMinZoom, let d = detailedMap { return d }
        return coarseMap ?? detailedMap
    }

    /// Device pixels per logical unit of a context (surface device scale × current matrix scale).
    public static func deviceScale(of cr: OpaquePointer) -> Double {
        var sx = 1.0, sy = 1.0
        if let target = cairo_get_target(cr) { cairo_surface_get_device_scale(target, &sx, &sy) }
        var m = cairo_matrix_t()
        cairo_get_matrix(cr, &m)
        let ctm = (m.xx * m.xx + m.yx * m.yx).squareRoot()
        let s = sx * (ctm > 0 ? ctm : 1)
        return s.isFinite && s > 0 ? s : 1
    }

    /// Draws the viewport of `camera` into `cr`, its top-left corner at the user-space origin.
    public func draw(in cr: OpaquePointer, camera: Camera) {
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        guard w > 0, h > 0 else { return }
        let scale = BaseMapRenderer.deviceScale(of: cr)
        let cw = camera.centerWorldPixel
        let left = cw.x - w / 2, top = cw.y - h / 2
        guard let map = baseMap(forZoom: camera.zoom) else {
            palette.water.setSource(on: cr)
            cairo_rectangle(cr, 0, 0, w, h)
            cairo_fill(cr)
            return
        }
        let generation = BaseMapTileCache.Generation(zoom: camera.zoom, deviceScale: scale, palette: palette,
                                                     level: map.level, dataVersion: dataVersion)
        defer { lastGeneration = generation }
        if !usesTileCache || generation != lastGeneration {
            // A new zoom (or first frame): paint directly; tiles are built once the zoom holds.
            let painter = BaseMapPainter(originX: left, originY: top, width: w, height: h,
                                         worldSize: camera.worldSize, deviceScale: scale)
            painter.paint(map, palette: palette, into: cr)
            return
        }
        drawTiles(map, generation: generation, in: cr, left: left, top: top, width: w, height: h,
                  worldSize: camera.worldSize)
    }

    // swiftlint:disable:next function_parameter_count
    private func drawTiles(_ map: BaseMap, generation: BaseMapTileCache.Generation, in cr: OpaquePointer,
                           left: Double, top: Double, width w: Double, height h: Double, worldSize ws: Double) {
        let scale = generation.deviceScale
        let t = cache.tileSize
        cache.beginFrame(generation)
        // Screen x of world pixel X is X + ox, rounded to whole device pixels so tiles blit without
        // resampling (the base map may sit up to half a device pixel off; nothing else does).
        let ox = (-left * scale).rounded() / scale
        let oy = (-top * scale).rounded() / scale
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_clip(cr)
        if top < 0 || top + h > ws {
            palette.water.setSource(on: cr)
            cairo_paint(cr)
        }
        let across = ws / t
        let wrapsOnTiles = across == across.rounded() && across >= 1
        let n = Int(across.rounded())
        let iMin = Int(((0 - ox) / t).rounded(.down)), iMax = Int(((w - ox) / t).rounded(.down))
        let jMin = max(0, Int(((0 - oy) / t).rounded(.down)))
        let jMax = min(Int((ws / t).rounded(.up)) - 1, Int(((h - oy) / t).rounded(.down)))
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        if jMin <= jMax {
            for j in jMin...jMax {
                for i in iMin...iMax {
                    let keyI = wrapsOnTiles ? ((i % n) + n) % n : i
                    let image = cache.tile(.init(i: keyI, j: j)) { image in
                        image.withContext { tcr in
                            let painter = BaseMapPainter(originX: Double(keyI) * t, originY: Double(j) * t,
                                                         width: t, height: t, worldSize: ws, deviceScale: scale)
                            painter.paint(map, palette: palette, into: tcr)
                        }
                    }
                    let x = Double(i) * t + ox, y = Double(j) * t + oy
                    cairo_set_source_surface(cr, image.surface, x, y)
                    // Whole-device-pixel offsets: sample without filtering (pixman's copy path).
                    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
                    cairo_rectangle(cr, x, y, t, t)
                    cairo_fill(cr)
                }
            }
        }
        cairo_restore(cr)
    }
}
