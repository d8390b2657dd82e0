import CCairo
import Foundation

/// Frames drawn from scaled tiles: during motion (the nearest integer level), and at rest at a new
/// zoom while its exact tiles are on their way (neighbouring levels stand in).
extension BaseMapRenderer {
    /// A frame at rest at a new zoom: exact tiles where cached (or rendered within the budget), the
    /// rest from a cached neighbouring zoom, scaled. Returns false (drawing nothing) when too little
    /// is cached nearby to stand in, so that the caller paints directly instead.
    func drawProgressively(_ view: TileView, in cr: OpaquePointer) -> Bool {
        let level = view.zoom
        let r = view.tileRange(zoom: level, snapped: true)
        guard r.jMin <= r.jMax else { return false }
        var missing: [(i: Int, j: Int, fallback: Double)] = []
        for j in r.jMin...r.jMax {
            for i in r.iMin...r.iMax where cache.cachedTile(key(zoom: level, i: i, j: j, view: view)) == nil {
                guard let fallback = fallbackZoom(forTile: i, j, level: level, view: view) else { return false }
                missing.append((i, j, fallback))
            }
        }
        var budget = tileWorker == nil ? tilesPerProgressiveFrame : 0
        for j in r.jMin...r.jMax {
            for i in r.iMin...r.iMax {
                let k = key(zoom: level, i: i, j: j, view: view)
                var image = cache.cachedTile(k)
                if image == nil { want(k) }
                if image == nil && budget > 0 {
                    budget -= 1
                    image = renderTile(k, view: view)
                }
                if let image {
                    paintScaled(image, zoom: level, i: i, j: j, view: view, in: cr)
                } else if let m = missing.first(where: { $0.i == i && $0.j == j }) {
                    paintFallback(forTile: i, j, level: level, from: m.fallback, view: view, in: cr)
                }
            }
        }
        hasPendingTiles = tileWorker == nil && missing.count > tilesPerProgressiveFrame
        blits.execute(in: cr, usingBothCores: usesBothCores)
        return true
    }

    /// Fills tile (i, j) of `level` from the cached tiles of zoom `zs`, scaled.
    func paintFallback(forTile i: Int, _ j: Int, level: Double, from zs: Double, view: TileView, in cr: OpaquePointer) {
        let rect = view.snappedRect(zoom: level, i: i, j: j)
        let s = view.sourceRange(zoom: zs, coveringTile: i, j, level: level, visibleOnly: true)
        guard s.jMin <= s.jMax, s.iMin <= s.iMax else { return }
        blits.append(.clip(ScaledBlitList.Rect(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1)))
        for sj in s.jMin...s.jMax {
            for si in s.iMin...s.iMax {
                if let image = cache.cachedTile(key(zoom: zs, i: si, j: sj, view: view)) {
                    paintScaled(image, zoom: zs, i: si, j: sj, view: view, in: cr)
                }
            }
        }
        blits.append(.unclip)
    }

    /// A frame during motion: the nearest integer level's tiles, scaled.
    func drawAnimated(_ view: TileView, in cr: OpaquePointer) {
        // Magnified tiles are sampled nearest while the zoom changes (half the cost of bilinear;
        // the softness of either is gone at rest), bilinear when it holds (a pinch held still).
        magnifyNearest = nearestWhileZooming && lastAnimatedZoom != nil && lastAnimatedZoom != view.zoom
        lastAnimatedZoom = view.zoom
        defer { magnifyNearest = false }
        let level = max(0, view.zoom.rounded())
        let r = view.tileRange(zoom: level, snapped: false)
        guard r.jMin <= r.jMax else { return }
        var missing: [(i: Int, j: Int, fallback: Double?)] = []
        var uncovered = 0
        for j in r.jMin...r.jMax {
            for i in r.iMin...r.iMax {
                let k = key(zoom: level, i: i, j: j, view: view)
                if let image = cache.cachedTile(k) {
                    paintScaled(image, zoom: level, i: i, j: j, view: view, in: cr)
                } else {
                    let fallback = fallbackZoom(forTile: i, j, level: level, view: view, allowingFar: true)
                    if fallback == nil { uncovered += 1 }
                    missing.append((i, j, fallback))
                }
            }
        }
        guard !missing.isEmpty else { return blits.execute(in: cr, usingBothCores: usesBothCores) }
        var budget = tilesPerAnimationFrame
        if uncovered > 2 * tilesPerAnimationFrame, let map = baseMap(forZoom: view.zoom) {
            // Nothing cached near this zoom (a jump, or the first frame): one direct paint costs
            // less than rendering every tile; start filling the level for the next frames.
            blits.removeAll()
            cairo_set_operator(cr, CAIRO_OPERATOR_OVER)
            paintDirectly(map, view: view, in: cr)
            for m in missing {
                let k = key(zoom: level, i: m.i, j: m.j, view: view)
                if tileWorker != nil { want(k) } else if budget > 0 { budget -= 1; _ = renderTile(k, view: view) }
            }
            return
        }
        // With a background worker, only tiles nothing can stand in for are rendered here.
        if tileWorker != nil { budget = 0 }
        // Tiles nothing can stand in for first, then as many others as the budget allows.
        for m in missing.sorted(by: { ($0.fallback == nil ? 0 : 1) < ($1.fallback == nil ? 0 : 1) }) {
            if m.fallback == nil || budget > 0 {
                budget -= 1
                if let image = renderTile(key(zoom: level, i: m.i, j: m.j, view: view), view: view) {
                    paintScaled(image, zoom: level, i: m.i, j: m.j, view: view, in: cr)
                }
            } else if let zs = m.fallback {
                want(key(zoom: level, i: m.i, j: m.j, view: view))
                paintFallback(forTile: m.i, m.j, level: level, from: zs, view: view, in: cr)
            }
        }
        blits.execute(in: cr, usingBothCores: usesBothCores)
    }

    /// A cached zoom whose tiles fully cover tile (i, j) of `level`: the levels next to it, then
    /// the zoom the map rested at.
    func fallbackZoom(forTile i: Int, _ j: Int, level: Double, view: TileView, allowingFar: Bool = false) -> Double? {
        var candidates = [level - 1, level + 1]
        // A fractional zoom at rest: the integer levels a zoom animation just drew come first.
        if level != level.rounded() { candidates = [level.rounded(), level.rounded(.down), level.rounded(.up)] + candidates }
        if let rest = restZoom, rest != level, abs(rest - level) < 2.5 { candidates.append(rest) }
        // Farther levels last, and only in motion: very soft, but better than an empty tile for the
        // frame or two until the exact one comes. At rest they would show as blocks for longer
        // than one direct paint takes.
        candidates += allowingFar ? [level - 2, level - 3, level - 4] : [level - 2]
        for zs in candidates where zs >= 0 {
            let s = view.sourceRange(zoom: zs, coveringTile: i, j, level: level, visibleOnly: true)
            guard s.jMin <= s.jMax, s.iMin <= s.iMax, (s.iMax - s.iMin + 1) * (s.jMax - s.jMin + 1) <= 9 else { continue }
            var complete = true
            for sj in s.jMin...s.jMax where complete {
                for si in s.iMin...s.iMax where !cache.contains(key(zoom: zs, i: si, j: sj, view: view)) {
                    complete = false
                    break
                }
            }
            if complete { return zs }
        }
        return nil
    }

    /// Records tile (i, j) of zoom `zs` (unwrapped column) scaled to the view's zoom, its edges on
    /// whole device pixels so neighbouring tiles meet without seams (painted by `blits.execute`).
    func paintScaled(_ image: ImageSurface, zoom zs: Double, i: Int, j: Int, view: TileView,
                             in cr: OpaquePointer) {
        let g = exp2(view.zoom - zs), size = cache.tileSize * g
        let x = Double(i) * size - view.left, y = Double(j) * size - view.top
        let rect = view.snappedRect(zoom: zs, i: i, j: j)
        // At a device scale of 2 or more, shrunk tiles (g ≥ 0.7: the level is the nearest one) are
        // sampled nearest too while the zoom changes: a line of the map is at least two device
        // pixels wide there and a step of at most 1.42 source pixels never skips it, and the
        // bilinear shrink of a 16 MB frame was the slowest part of a scale-2 zoom animation
        // (6–9 ms of base map in its zoom-out frames). At scale 1 it would dot thin rivers.
        let nearest = g == 1 || (g > 1 && magnifyNearest) || (g < 1 && magnifyNearest && view.scale >= 2 && g >= 0.7)
        let filter = nearest ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR
        blits.append(.tile(image, x: x, y: y, g: g, rect: ScaledBlitList.Rect(x0: rect.x0, y0: rect.y0, x1: rect.x1, y1: rect.y1),
                           filter: filter))
    }
}
