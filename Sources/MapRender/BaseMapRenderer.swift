import CCairo
import Foundation
import GeoData
import MapModel

/// Draws the Natural Earth base map for a camera: water, land, lakes, borders, coastlines.
///
/// Uses 1:110m below `detailedMinZoom`, 1:50m from there and 1:10m from `fineMinZoom` (each
/// falling back to the coarser map until it has been set). Past Natural Earth's scale (about
/// zoom 11) the water and coast fade to a faint hint on a neutral land tone (`MapPalette.pastScale`). The world wraps horizontally. When the camera keeps its zoom, frames
/// are assembled from cached tiles (see `BaseMapTileCache`), so a static or panning frame is mostly
/// blits; the first frame at a new zoom (e.g. during a zoom animation) is painted directly, which
/// costs no more than painting the viewport once. Not thread-safe: use it on the drawing thread.
public final class BaseMapRenderer {
    /// The 1:110m map (needed for low zoom and as fallback).
    public private(set) var coarseMap: BaseMap?
    /// The 1:50m map, once loaded.
    public private(set) var detailedMap: BaseMap?
    /// The 1:10m map, once loaded.
    public private(set) var fineMap: BaseMap?
    /// Zoom from which the detailed map is used.
    public var detailedMinZoom = 3.0
    /// Zoom from which the 1:10m map is used.
    public var fineMinZoom = 5.0
    /// Colours; changing them drops cached tiles.
    public var palette: MapPalette
    /// Whether frames at an unchanged zoom are assembled from cached tiles (on by default).
    public var usesTileCache = true

    let cache = BaseMapTileCache()
    private var dataVersion = 0

    /// Whether the last frame was assembled from exact tiles at rest (so an identical request
    /// would draw the same pixels again).
    public private(set) var lastFrameWasExact = false
    /// Whether the last frame showed stand-ins (scaled neighbouring tiles) that a tile arriving
    /// from the background worker would improve. After an exact frame (a direct paint or exact
    /// tiles) the worker's tiles only serve later frames, so they need not ask for one: at launch
    /// that spared a full direct paint per arriving tile while the data was still loading.
    public private(set) var improvesWithNewTiles = false

    /// Changes whenever the same camera could draw different pixels (maps, palette, thresholds).
    var contentVersion: Int {
        var h = Hasher()
        h.combine(dataVersion)
        h.combine(palette)
        h.combine(detailedMinZoom)
        h.combine(fineMinZoom)
        h.combine(coarseMap != nil)
        h.combine(detailedMap != nil)
        h.combine(fineMap != nil)
        return h.finalize()
    }

    /// Creates a renderer with the maps loaded so far.
    public init(coarse: BaseMap?, detailed: BaseMap? = nil, fine: BaseMap? = nil, palette: MapPalette = .light) {
        coarseMap = coarse
        detailedMap = detailed
        fineMap = fine
        self.palette = palette
    }

    /// Simplified copies of each level's map by integer zoom (see `BaseMap.zoomBands`).
    private var bands: [BaseMap.Level: [Int: BaseMap]] = [:]

    /// Installs a (newly loaded) map at its level, with its simplified copies for low zooms (keyed
    /// by integer zoom; zooms without one use `map`); cached tiles are refreshed.
    public func setBaseMap(_ map: BaseMap, bands zoomBands: [Int: BaseMap] = [:]) {
        bands[map.level] = zoomBands
        switch map.level {
        case .coarse: coarseMap = map
        case .detailed: detailedMap = map
        case .fine: fineMap = map
        }
        dataVersion += 1
        cache.removeAll()
    }

    /// The map drawn at a zoom level.
    public func baseMap(forZoom zoom: Double) -> BaseMap? {
        let map: BaseMap?
        if zoom >= fineMinZoom, let f = fineMap { map = f } else if zoom >= detailedMinZoom, let d = detailedMap {
            map = d
        } else {
            map = coarseMap ?? detailedMap
        }
        guard let level = map?.level, let band = bands[level]?[Int(zoom.rounded(.down))] else { return map }
        return band
    }

    /// The level of the map drawn at a zoom (as `baseMap(forZoom:)`, without copying the map).
    func level(forZoom zoom: Double) -> BaseMap.Level {
        if zoom >= fineMinZoom, fineMap != nil { return .fine }
        if zoom >= detailedMinZoom, detailedMap != nil { return .detailed }
        return coarseMap != nil ? .coarse : (detailedMap != nil ? .detailed : .coarse)
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

    /// Draws the viewport of `camera` into `cr`, its top-left corner at the user-space origin, as
    /// at rest: crisp (see `draw(in:camera:isAnimating:)`).
    public func draw(in cr: OpaquePointer, camera: Camera) {
        draw(in: cr, camera: camera, isAnimating: false)
    }

    /// Draws the viewport of `camera` into `cr`, its top-left corner at the user-space origin.
    ///
    /// At rest (`isAnimating` false) frames are exact: tiles rendered at the camera's own zoom, or,
    /// for the first frame at a zoom whose tiles aren't cached, a direct paint (headless renders
    /// always take that path, so golden images are deterministic). While the camera animates or a
    /// gesture runs, the map is drawn from tiles of the nearest integer zoom level scaled by at
    /// most √2 either way (slightly soft during motion, like every web map); a level's missing
    /// tiles are rendered `tilesPerAnimationFrame` at a time, the others meanwhile drawn from a
    /// cached neighbouring level or the zoom the map rested at.
    public func draw(in cr: OpaquePointer, camera: Camera, isAnimating: Bool) {
        let w = camera.viewportSize.width, h = camera.viewportSize.height
        guard w > 0, h > 0 else { return }
        lastFrameWasExact = false
        improvesWithNewTiles = false
        let scale = BaseMapRenderer.deviceScale(of: cr)
        let cw = camera.centerWorldPixel
        let view = TileView(left: cw.x - w / 2, top: cw.y - h / 2, width: w, height: h, zoom: camera.zoom,
                            worldSize: camera.worldSize, scale: scale, tileSize: cache.tileSize)
        guard let map = baseMap(forZoom: camera.zoom) else {
            palette.water.setSource(on: cr)
            cairo_rectangle(cr, 0, 0, w, h)
            cairo_fill(cr)
            return
        }
        let previousZoom = lastZoom
        lastZoom = camera.zoom
        guard usesTileCache else {
            paintDirectly(map, view: view, in: cr)
            return
        }
        let generation = BaseMapTileCache.Generation(deviceScale: scale, palette: palette, dataVersion: dataVersion)
        cache.beginFrame(generation)
        collectBackgroundTiles(generation)
        defer { requestBackgroundTiles(generation) }
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, w, h)
        cairo_clip(cr)
        if view.top < 0 || view.top + h > view.worldSize {
            palette.water.setSource(on: cr)
            cairo_paint(cr)
        }
        cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE)
        hasPendingTiles = false
        if !isAnimating { lastAnimatedZoom = nil }
        if isAnimating {
            drawAnimated(view, in: cr)
            improvesWithNewTiles = true
        } else if tileWorker != nil && !allTilesCached(zoom: camera.zoom, view: view) {
            // Missing tiles render in the background: scaled neighbours stand in where cached
            // (the next frames come as the tiles arrive), otherwise one direct paint (exact: the
            // tiles are for the frames after it).
            if drawProgressively(view, in: cr) {
                improvesWithNewTiles = true
            } else {
                cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
                paintDirectly(map, view: view, in: cr)
                wantTiles(zoom: camera.zoom, view: view)
            }
        } else if progressiveAtRest && missingTileCount(zoom: camera.zoom, view: view) > tilesPerProgressiveFrame
                    && drawProgressively(view, in: cr) {
            // Drawn from scaled neighbours with a few exact tiles; the caller draws again until
            // `hasPendingTiles` is false (each frame stays short; the map sharpens over a few frames).
            lastZoom = previousZoom
        } else if previousZoom != camera.zoom && !allTilesCached(zoom: camera.zoom, view: view) {
            // A new zoom at rest: paint directly (one viewport's worth); tiles follow if it holds.
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            paintDirectly(map, view: view, in: cr)
        } else {
            drawExactTiles(map, view: view, in: cr)
            restZoom = camera.zoom
            lastFrameWasExact = true
        }
        cairo_restore(cr)
    }

    /// Renders missing tiles on a background thread (the window sets one; nil renders them in the
    /// frame, as headless renders must). Its `onTileReady` should ask for a redraw.
    public internal(set) var tileWorker: BaseMapTileWorker?
    /// Missing tiles are rendered by `worker` from now on (nil: in the frame).
    public func renderTiles(with worker: BaseMapTileWorker?) { tileWorker = worker }

    /// Frames at rest at a new zoom may come from scaled cached tiles while the exact ones are
    /// rendered a few per frame (`progressiveAtRest`), as the window draws.
    public func drawProgressivelyAtRest(_ on: Bool = true) { progressiveAtRest = on }

    /// Tiles this frame lacks, for the worker.
    var wantedTiles: [BaseMapTileCache.Key] = []

    /// Tiles rendered per frame while animating, beyond those that nothing cached can stand in for.
    public var tilesPerAnimationFrame = 4
    /// Whether the first frames at a new zoom at rest may come from scaled cached tiles while the
    /// exact ones are rendered a few per frame (instead of one direct paint that costs a whole
    /// viewport of 1:10m data at once). The window turns it on; headless renders stay direct.
    public internal(set) var progressiveAtRest = false
    /// Exact tiles at rest are rendered this many per frame when drawing progressively.
    public var tilesPerProgressiveFrame = 3
    /// The last frame at rest still lacks exact tiles: draw again (with the same camera) soon.
    public internal(set) var hasPendingTiles = false
    private var lastZoom: Double?
    /// The zoom of the last frame drawn from tiles at rest (a fallback source while animating).
    var restZoom: Double?

    /// Whether scaled tiles are painted in two bands at once, on the drawing thread and a helper
    /// (see `ScaledBlitList`; the pixels are the same either way).
    public var usesBothCores = true
    /// Whether magnified tiles are sampled nearest (not bilinear) while the zoom is changing.
    public var nearestWhileZooming = true
    /// The scaled blits of the frame being drawn.
    let blits = ScaledBlitList()
    /// The zoom of the last frame drawn in motion (nil after a frame at rest).
    var lastAnimatedZoom: Double?
    /// Set while recording the blits of a frame whose zoom is changing.
    var magnifyNearest = false

    /// Direct paints so far (each costs a viewport of map; for tests and benchmarks).
    public private(set) var directPaintCount = 0
    /// Tiles rendered inside frames so far (not by the background worker).
    public var inFrameTileCount: Int { cache.renderedTileCount }

    func paintDirectly(_ map: BaseMap, view: TileView, in cr: OpaquePointer) {
        directPaintCount += 1
        if paintWorldStrip(map, view: view, in: cr) { return }
        if usesBothCores && paintDirectlyInBands(map, view: view, in: cr) { return }
        let painter = BaseMapPainter(originX: view.left, originY: view.top, width: view.width, height: view.height,
                                     worldSize: view.worldSize, deviceScale: view.scale)
        painter.paint(map, palette: palette.pastScale(zoom: view.zoom), into: cr)
    }

    /// One world copy painted for the low zooms where the view shows the world more than once.
    private var worldStrip: ImageSurface?

    /// When the world is narrower than the view (zoom 1–2 on a desktop window), paints one copy of
    /// it and repeats the pixels: painting each copy would cost that many times the work. Only at
    /// zooms where the world is a whole number of device pixels wide, so copies meet exactly.
    private func paintWorldStrip(_ map: BaseMap, view: TileView, in cr: OpaquePointer) -> Bool {
        let ws = view.worldSize, scale = view.scale
        guard ws < view.width, ws == ws.rounded(), (ws * scale).rounded() == ws * scale else { return false }
        let stripWidth = Int(ws), stripHeight = Int(view.height.rounded(.up))
        let (ox, oy) = view.snappedOrigin
        let strip: ImageSurface
        if let old = worldStrip, old.scale == scale, old.pixelWidth == Int((ws * scale).rounded()),
           old.pixelHeight == Int((Double(stripHeight) * scale).rounded()) {
            strip = old
        } else {
            strip = ImageSurface(width: stripWidth, height: stripHeight, scale: scale, opaque: true)
            worldStrip = strip
        }
        let palette = self.palette.pastScale(zoom: view.zoom)
        strip.withContext { scr in
            let painter = BaseMapPainter(originX: 0, originY: -oy, width: ws, height: Double(stripHeight),
                                         worldSize: ws, deviceScale: scale)
            painter.paint(map, palette: palette, into: scr)
        }
        var k = Int(((0 - ox) / ws).rounded(.down))
        while Double(k) * ws + ox < view.width {
            let x = Double(k) * ws + ox
            cairo_set_source_surface(cr, strip.surface, x, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
            cairo_rectangle(cr, x, 0, ws, min(view.height, Double(stripHeight)))
            cairo_fill(cr)
            k += 1
        }
        return true
    }

    func renderTile(_ key: BaseMapTileCache.Key, view: TileView) -> ImageSurface? {
        guard let map = baseMap(forZoom: key.zoom) else { return nil }
        let t = cache.tileSize, scale = view.scale, palette = self.palette.pastScale(zoom: key.zoom)
        let ws = 256 * exp2(key.zoom)
        return cache.tile(key) { image in
            image.withContext { tcr in
                let painter = BaseMapPainter(originX: Double(key.i) * t, originY: Double(key.j) * t,
                                             width: t, height: t, worldSize: ws, deviceScale: scale)
                painter.paint(map, palette: palette, into: tcr)
            }
        }
    }

    func key(zoom: Double, i: Int, j: Int, view: TileView) -> BaseMapTileCache.Key {
        let level = level(forZoom: zoom)
        return BaseMapTileCache.Key(zoom: zoom, level: level, i: view.wrappedColumn(i, zoom: zoom), j: j)
    }

    private func missingTileCount(zoom: Double, view: TileView) -> Int {
        let r = view.tileRange(zoom: zoom, snapped: true)
        guard r.jMin <= r.jMax else { return 0 }
        var n = 0
        for j in r.jMin...r.jMax { for i in r.iMin...r.iMax where !cache.contains(key(zoom: zoom, i: i, j: j, view: view)) { n += 1 } }
        return n
    }

    func allTilesCached(zoom: Double, view: TileView) -> Bool {
        let r = view.tileRange(zoom: zoom, snapped: true)
        guard r.jMin <= r.jMax else { return true }
        for j in r.jMin...r.jMax { for i in r.iMin...r.iMax where !cache.contains(key(zoom: zoom, i: i, j: j, view: view)) {
            return false
        } }
        return true
    }

    /// Tiles at the camera's own zoom, blitted at whole device pixels without resampling.
    private func drawExactTiles(_ map: BaseMap, view: TileView, in cr: OpaquePointer) {
        let t = cache.tileSize
        let (ox, oy) = view.snappedOrigin
        let r = view.tileRange(zoom: view.zoom, snapped: true)
        guard r.jMin <= r.jMax else { return }
        for j in r.jMin...r.jMax {
            for i in r.iMin...r.iMax {
                guard let image = renderTile(key(zoom: view.zoom, i: i, j: j, view: view), view: view) else { continue }
                let x = Double(i) * t + ox, y = Double(j) * t + oy
                cairo_set_source_surface(cr, image.surface, x, y)
                // Whole-device-pixel offsets: sample without filtering (pixman's copy path).
                cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST)
                cairo_rectangle(cr, x, y, t, t)
                cairo_fill(cr)
            }
        }
    }
}
