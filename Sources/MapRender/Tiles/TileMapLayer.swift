import CCairo
import Foundation
import GeoData
import MapModel
import Tiles

/// A street map from a local tile file (MBTiles or PMTiles, vector or PNG raster) or an online XYZ
/// raster source, drawn over the built-in map and under the data.
///
/// Tiles are decoded and painted off the drawing thread (`renderTile`), kept in a byte-bounded
/// cache, faded in when they arrive, and stood in for by cached parents until then; where the file
/// has no tile (outside its bounds or zooms, or a corrupt tile) the built-in map shows through.
/// `draw` reports which tiles it is missing; the layer loads them itself through a wish-list
/// worker once `startLoading` is called (the window; see `TileMapLayer+Loading`), or its owner
/// loads them and hands them to `deliver` (`clustermap render`, synchronously).
public final class TileMapLayer: MapOverlay {
    /// Cache key: a source tile as painted for one palette and device scale.
    public struct Key: Hashable, Sendable {
        public var tile: TileID
        public var dark: Bool
        public var scale: Double
    }

    /// What happened since the last `takeStatistics` (the `tiles` event).
    public struct Statistics: Equatable, Sendable {
        public var requested = 0, loaded = 0, fromCache = 0, failed = 0, cancelled = 0
    }

    /// The tile file or online source (nil when the owner fetches the bytes itself).
    public let source: TileSource?
    /// The file's path or the online URL template (for messages and the event log).
    public let path: String
    /// The source's zoom range (deeper zooms scale its deepest tiles).
    public let minZoom: Int, maxZoom: Int
    /// The built-in style for a vector source's schema (nil for raster sources).
    public let style: TileStyle?
    /// Logical pixels per tile: 512 for vector tiles, 256 for raster.
    public let tileSize: Double
    /// The source's credit line (plain text), e.g. "© OpenMapTiles © OpenStreetMap contributors".
    public let attribution: String?
    /// Device scale and palette of the last frame (what `missing` tiles are to be painted for).
    public private(set) var scale = 1.0
    public private(set) var isDark = false

    private let cache = TileCache<Key, ImageSurface>(byteLimit: 128 << 20)
    /// Arrival times of the tiles still fading in (pruned once faded; absent means fully shown).
    private var arrivals: [Key: Double] = [:]
    var pending = Set<Key>()
    private var absent = Set<Key>()
    private var stats = Statistics()
    private var version = 0
    /// Names of the vector tiles loaded so far (they don't depend on palette or scale).
    private var tileLabels: [TileID: [TileLabelCandidate]] = [:]
    private var labelBuilder = TileLabelOverlayBuilder()
    /// Tiles resampled for the current fractional zoom, and the zoom of the last frame: while the
    /// zoom stays (at rest, panning) tiles are resampled once and then copied 1:1; while it
    /// changes every frame (a zoom animation) they are scaled directly, as a copy would be used once.
    private let resampled = TileResampleCache()
    /// Ancestors decoded for over-zoomed vector tiles (shared by the threads that paint them): at
    /// zoom 17 over a zoom-14 file 64 display tiles share one, and a view shows 6–12 of them.
    public let decodedAncestors = TileCache<TileID, VectorTile>(byteLimit: 32 << 20)
    private var lastZoom = Double.nan
    /// Loads the tiles the frames lack, off the drawing thread (nil: the owner loads them).
    var loader: StreetTileLoader?
    /// Every tile the last frame lacked (not loaded, not known absent), nearest the centre first:
    /// the loader's wish list.
    var wishes: [Key] = []

    /// Opens an MBTiles (`.mbtiles`) or PMTiles (`.pmtiles`) file.
    public init(path: String) throws {
        self.path = path
        let file: TileSource = path.lowercased().hasSuffix(".pmtiles") ? try PMTilesSource(path: path) : try MBTilesSource(path: path)
        source = file
        let meta = file.metadata
        style = meta.format.isVector ? TileStyle.builtIn(for: TileSchema(vectorLayers: meta.vectorLayers)) : nil
        tileSize = meta.format.isVector ? 512 : 256
        attribution = meta.plainAttribution.map { DisplayText.line($0, limit: DisplayText.attributionLength) }
        minZoom = meta.minZoom
        maxZoom = meta.maxZoom
    }

    /// An online raster source (`template` names it): `source` fetches its tiles when the layer
    /// loads them (`startLoading`); without one the owner fetches them and calls `deliver`.
    public init(online template: String, attribution: String?, maxZoom: Int = 19, source: TileSource? = nil) {
        path = template
        self.source = source
        style = nil
        tileSize = 256
        self.attribution = attribution
        minZoom = 0
        self.maxZoom = maxZoom
    }

    /// Decodes raster bytes (PNG, JPEG or WebP) off the drawing thread.
    public static func decodeRaster(_ data: Data) -> Outcome {
        RasterTileDecoder.decode(data).map { .image($0) } ?? .failed
    }

    /// What loading one tile gave.
    public enum Outcome {
        /// The painted tile, and a vector tile's names (anchors in 0…1 tile units) for the label
        /// placer.
        case image(ImageSurface, labels: [TileLabelCandidate] = [])
        /// The file has no tile there (outside its bounds or zooms): not an error.
        case absent
        /// Unreadable, corrupt, or not an image format the map reads.
        case failed
    }

    /// Decodes and paints one tile (thread-safe: call it off the drawing thread).
    ///
    /// A vector tile deeper than the source's `maxZoom` is painted from its ancestor's geometry
    /// at its own zoom (crisp lines and edges, as MapLibre over-zooms), the ancestor decoded once
    /// for all its display tiles through `decoded`; its names are the ancestor's.
    public static func renderTile(_ key: Key, source: TileSource?, style: TileStyle?, tileSize: Double,
                                  maxZoom: Int = TileID.maxZoom, decoded: TileCache<TileID, VectorTile>? = nil) -> Outcome {
        guard let source else { return .failed }
        var sourceTile = key.tile, rect = TileRect.whole
        if style != nil, key.tile.z > maxZoom, let ancestor = key.tile.ancestor(atZoom: maxZoom) {
            sourceTile = ancestor
            rect = key.tile.rect(in: ancestor) ?? .whole
        }
        func paintVector(_ tile: VectorTile, _ style: TileStyle) -> Outcome {
            let image = VectorTilePainter(style: style, dark: key.dark).render(tile, zoom: sourceTile.z, size: tileSize,
                                                                               scale: key.scale, rect: rect)
            return .image(image, labels: TileLabels.candidates(in: tile, style: style, zoom: Double(sourceTile.z), tileSize: 1))
        }
        // An ancestor decoded for another display tile: neither read nor decoded again.
        if let style, rect != .whole, let tile = decoded?.value(for: sourceTile) { return paintVector(tile, style) }
        let data: Data?
        do { data = try source.tileData(for: sourceTile, scale: key.scale) } catch { return .failed }
        guard let data, !data.isEmpty else { return .absent }
        if let style {
            guard let tile = try? MVTDecoder.decode(data, layers: style.sourceLayers) else { return .failed }
            // Cost: the tile's bytes, a proxy for its decoded size. (Two loader threads may decode
            // one ancestor at once: both get it right.)
            if rect != .whole { decoded?.insert(tile, for: sourceTile, cost: 4 * data.count) }
            return paintVector(tile, style)
        }
        // Raster tiles: PNG, JPEG or WebP.
        // TileImageDrawing scales any pixel size into the tile's square, so @2x tiles just work.
        return decodeRaster(data)
    }

    /// Takes a loaded tile (or its absence or failure); call on the drawing thread. Absent and
    /// failed tiles are not asked for again: the built-in map shows there.
    public func deliver(_ outcome: Outcome, for key: Key, now: Double = ProcessInfo.processInfo.systemUptime) {
        pending.remove(key)
        switch outcome {
        case .image(let image, let labels):
            cache.insert(image, for: key, cost: image.pixelWidth * image.pixelHeight * 4)
            if style != nil {
                if tileLabels.count > 2048 {
                    let shown = Set(visibleKeys.map { labelTile($0.tile) })
                    tileLabels = tileLabels.filter { shown.contains($0.key) }
                }
                // Over-zoomed tiles bring their ancestor's names, the same for each of them: kept once.
                let named = labelTile(key.tile)
                if named == key.tile || tileLabels[named] == nil {
                    tileLabels[named] = labels
                    labelBuilder.forget(named)
                }
            }
            if now >= 0 { arrivals[key] = now }
            stats.loaded += 1
        case .absent:
            absent.insert(key)
        case .failed:
            absent.insert(key)
            stats.failed += 1
        }
        version &+= 1
    }

    /// The tiles the last frame lacked (not yet requested), nearest the centre first; they are
    /// marked as requested.
    public func takeMissing() -> [Key] {
        let out = missing
        missing = []
        for k in out { pending.insert(k) }
        stats.requested += out.count
        return out
    }
    private var missing: [Key] = []

    /// A requested tile that won't come (its request was cancelled: the tile left the view). It
    /// may be asked for again later.
    public func cancelled(_ key: Key) {
        guard pending.remove(key) != nil else { return }
        stats.cancelled += 1
    }

    /// The tiles the last frame showed or wanted.
    public private(set) var visibleKeys = Set<Key>()

    /// Whether requested tiles are still being loaded.
    public var hasPendingTiles: Bool { !pending.isEmpty }

    /// Counts since the last call (for the event log's `tiles` event).
    public func takeStatistics() -> Statistics {
        defer { stats = Statistics() }
        return stats
    }

    /// The tiles a frame for `camera` needs that are neither loaded nor known to be absent,
    /// nearest the centre first (headless rendering fetches these before drawing).
    public func keysToLoad(camera: Camera, scale: Double, dark: Bool) -> [Key] {
        self.scale = scale
        isDark = dark
        var seen = Set<Key>()
        return placements(camera).compactMap { p in
            let key = Key(tile: painted(p).tile, dark: dark, scale: scale)
            guard !cache.contains(key), !absent.contains(key), seen.insert(key).inserted else { return nil }
            return key
        }
    }

    /// Loads every tile the camera needs from the tile file, now (headless rendering; an online
    /// source's tiles are fetched by the owner, and those still missing here count as failed).
    public func loadSynchronously(camera: Camera, scale: Double, dark: Bool) {
        for key in keysToLoad(camera: camera, scale: scale, dark: dark) {
            deliver(TileMapLayer.renderTile(key, source: source, style: style, tileSize: tileSize, maxZoom: maxZoom,
                                            decoded: decodedAncestors),
                    for: key, now: -1)
        }
    }

    /// The tile a placement is painted and cached as, and the part of that tile's image it
    /// shows: past the source's deepest zoom a vector source paints the display tile itself
    /// (`renderTile`), a raster source shows a part of its deepest tile scaled up.
    private func painted(_ p: TilePlacement) -> (tile: TileID, rect: TileRect) {
        style != nil && p.tile.z > maxZoom ? (p.tile.wrapped, .whole) : (p.sourceTile, p.sourceRect)
    }

    /// The tile whose names a painted tile shows (an over-zoomed vector tile's are its ancestor's).
    private func labelTile(_ tile: TileID) -> TileID {
        tile.z > maxZoom ? tile.ancestor(atZoom: maxZoom) ?? tile : tile
    }

    /// The cached tiles that may stand in for a painted tile until it arrives, nearest first: as
    /// far up as the source's deepest zoom and four levels more.
    private func standIns(for tile: TileID) -> [(tile: TileID, rect: TileRect)] {
        TileCoverage.standIns(for: tile, maxLevelsUp: max(4, tile.z - maxZoom + 4))
    }

    private func placements(_ camera: Camera) -> [TilePlacement] {
        let c = camera.centerWorldPixel, ws = camera.worldSize
        return TileCoverage.placements(centerX: c.x / ws, centerY: c.y / ws, zoom: camera.zoom,
                                       width: camera.viewportSize.width, height: camera.viewportSize.height,
                                       tileSize: tileSize, minZoom: minZoom, maxZoom: maxZoom)
    }

    /// The names of the vector tiles drawn over the view grown by `margin` on every side, for
    /// the label placer: where a tile (or a parent standing in for it) is drawn, its names replace
    /// the built-in ones. A raster source brings no names the placer can use, but its pictures
    /// print their own (Toner, a topographic map): where its tiles are drawn the built-in names
    /// give way all the same (an overlay of no names); nil while none is drawn.
    public func labelOverlay(for camera: Camera, margin: Double) -> MapLabelOverlay? {
        let isRaster = style == nil
        var grown = camera
        grown.viewportSize = ScreenSize(width: camera.viewportSize.width + 2 * margin,
                                        height: camera.viewportSize.height + 2 * margin)
        var tiles: [(tile: TileID, labels: [TileLabelCandidate])] = []
        var taken = Set<TileID>(), ruledAncestors = Set<TileID>()
        var covered: [UnitBox] = []
        for p in placements(grown) {
            var drawn: TileID?
            let tile = painted(p).tile
            if cache.contains(Key(tile: tile, dark: isDark, scale: scale)) {
                drawn = labelTile(tile)
            } else {
                drawn = standIns(for: tile).first {
                    cache.contains(Key(tile: $0.tile, dark: isDark, scale: scale))
                }.map { labelTile($0.tile) }
            }
            guard let drawn, let labels = isRaster ? [] : tileLabels[drawn] else { continue }
            // Past the file's deepest zoom the names are the ancestor's, and so is the area they
            // rule: its whole square, once. Why: with a box per display tile the area changed at
            // every zoom level and whenever a row of display tiles left the view, and each change
            // rebuilt the overlay and placed every name again (0.7–2.7 ms, a sixth of the frames
            // of a Florence zoom animation), though the names were the same.
            let ruled = p.tile.z > maxZoom ? drawn : p.tile
            if ruled != p.tile && !ruledAncestors.insert(ruled).inserted { continue }
            let n = Double(ruled.tilesPerSide)
            var x0 = Double(ruled.x) / n
            x0 -= x0.rounded(.down)
            covered.append(UnitBox(minX: x0, minY: Double(ruled.y) / n, maxX: x0 + 1 / n, maxY: Double(ruled.y + 1) / n))
            if taken.insert(drawn).inserted { tiles.append((drawn, labels)) }
        }
        if isRaster && covered.isEmpty { return nil }
        tiles.sort { ($0.tile.z, $0.tile.y, $0.tile.x) < ($1.tile.z, $1.tile.y, $1.tile.x) }
        covered.sort { ($0.minY, $0.minX) < ($1.minY, $1.minX) }
        return labelBuilder.overlay(tiles: tiles, covered: covered)
    }

    // MARK: MapOverlay

    /// Whether this frame's tiles cover the whole view with opaque pixels: a vector street map
    /// (tiles painted opaque; raster tiles may be transparent) with every tile in, none fading,
    /// and the view inside the world's rows.
    public func hidesBaseMap(camera: Camera, palette: MapPalette, scale: Double) -> Bool {
        guard style != nil else { return false }
        let c = camera.centerWorldPixel, half = camera.viewportSize.height / 2
        guard c.y - half >= 0, c.y + half <= camera.worldSize else { return false }
        let all = placements(camera)
        guard !all.isEmpty else { return false }
        let now = ProcessInfo.processInfo.systemUptime
        for p in all {
            let key = Key(tile: painted(p).tile, dark: palette.isDark, scale: scale)
            guard cache.contains(key) else { return false }
            if let arrival = arrivals[key], TileFade.opacity(arrival: arrival, now: now) < 1 { return false }
        }
        return true
    }

    /// Whether a frame for `camera` shows any of this layer's tiles (its own, or a cached parent
    /// standing in): the credits name the street map only then, not while none has arrived
    /// (offline) or the view is outside a tile file's area.
    public func showsTiles(camera: Camera) -> Bool {
        placements(camera).contains { p in
            let tile = painted(p).tile
            if cache.contains(Key(tile: tile, dark: isDark, scale: scale)) { return true }
            return standIns(for: tile).contains { cache.contains(Key(tile: $0.tile, dark: isDark, scale: scale)) }
        }
    }

    /// Changes when a tile arrives; nil while tiles fade in (the frame can't be reused then).
    public var contentVersion: Int? { arrivals.isEmpty ? version : nil }

    /// Whether a tile is still fading in (the owner should draw again).
    public var isFading: Bool { contentVersion == nil }

    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette) {
        draw(in: cr, camera: camera, palette: palette, isAnimating: false)
    }

    /// Draws the tiles; in motion (`isAnimating`) at most one tile a frame is resampled to a new
    /// size (see `TileResampleCache.newCopiesLeft`), the others scaled directly meanwhile.
    public func draw(in cr: OpaquePointer, camera: Camera, palette: MapPalette, isAnimating: Bool) {
        resampled.newCopiesLeft = isAnimating ? 1 : nil
        scale = BaseMapRenderer.deviceScale(of: cr)
        isDark = palette.isDark
        let now = ProcessInfo.processInfo.systemUptime
        arrivals = arrivals.filter { now - $0.value < TileFade.defaultDuration }
        var wanted: [Key] = []
        wishes.removeAll(keepingCapacity: true)
        visibleKeys.removeAll(keepingCapacity: true)
        let steady = camera.zoom == lastZoom
        lastZoom = camera.zoom
        defer { resampled.endFrame() }
        for p in placements(camera) {
            let (tile, rect) = painted(p)
            let key = Key(tile: tile, dark: isDark, scale: scale)
            visibleKeys.insert(key)
            if let image = cache.value(for: key) {
                let arrival = arrivals[key] ?? -1
                let opacity = arrival < 0 ? 1 : TileFade.opacity(arrival: arrival, now: now)
                if opacity < 1 { drawStandIn(for: p, camera: camera, in: cr) }
                // While the zoom changes, magnified tiles are sampled nearest (as the base map's
                // are): bilinear scaling of a 512-px tile costs 1.2–1.5 ms a frame, nearest a third,
                // and nobody sees the difference in motion. At rest the tile is resampled
                // bilinear once and copied.
                let magnified = p.screenSize * scale > Double(image.pixelWidth) * rect.size + 0.5
                TileImageDrawing.draw(image, sourceRect: rect, x: p.screenX, y: p.screenY, size: p.screenSize,
                                      opacity: opacity, dimmed: style == nil && isDark ? 0.25 : 0,
                                      smooth: steady || !magnified, resampled: steady ? resampled : nil,
                                      smoothWithoutCopy: !magnified, in: cr)
                stats.fromCache += 1
                continue
            }
            drawStandIn(for: p, camera: camera, in: cr)
            guard !absent.contains(key) else { continue }
            wishes.append(key)
            if !pending.contains(key) { wanted.append(key) }
        }
        missing = wanted
    }

    /// The nearest cached ancestor of a placement's tile, scaled (until the tile itself arrives).
    private func drawStandIn(for p: TilePlacement, camera: Camera, in cr: OpaquePointer) {
        let (tile, part) = painted(p)
        for (ancestor, rect) in standIns(for: tile) {
            guard let image = cache.value(for: Key(tile: ancestor, dark: isDark, scale: scale)) else { continue }
            let r = TileRect(x: rect.x + part.x * rect.size, y: rect.y + part.y * rect.size,
                             size: rect.size * part.size)
            TileImageDrawing.draw(image, sourceRect: r, x: p.screenX, y: p.screenY, size: p.screenSize,
                                  dimmed: style == nil && isDark ? 0.25 : 0, smooth: false, in: cr)
            return
        }
    }
}
