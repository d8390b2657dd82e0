import Foundation

/// One tile to draw: where on screen, and which source tile (and part of it) provides its pixels.
public struct TilePlacement: Hashable, Sendable {
    /// The tile at the display zoom, with its column unwrapped (western/eastern world copies keep
    /// distinct columns so each copy has its own screen position).
    public var tile: TileID
    /// The tile to fetch from the source: `tile` wrapped into the world, or its ancestor at the
    /// source's deepest zoom when over-zooming.
    public var sourceTile: TileID
    /// The part of `sourceTile` that fills this placement (`.whole` unless over-zoomed).
    public var sourceRect: TileRect
    /// Left edge on screen in logical pixels.
    public var screenX: Double
    /// Top edge on screen in logical pixels.
    public var screenY: Double
    /// Side on screen in logical pixels.
    public var screenSize: Double
}

/// Which tiles cover a viewport, in the project's 256-pixel zoom convention (at zoom Z the world is
/// 256·2^Z logical pixels wide).
public enum TileCoverage {
    /// The tile zoom a source of `tileSize`-pixel tiles uses at map zoom `zoom`.
    ///
    /// A 256-px source uses the nearest integer zoom (Leaflet's choice: tiles are shown between 0.71×
    /// and 1.41× their natural size); a 512-px source (vector tiles) one level less, because one of
    /// its tiles covers what four 256-px tiles do. Clamped to `minZoom` (under-zoom: the source has
    /// nothing shallower), not to `maxZoom` (over-zoom is handled by the placements).
    public static func tileZoom(forMapZoom zoom: Double, tileSize: Double = 256, minZoom: Int = 0) -> Int {
        let ideal = zoom - log2(tileSize / 256)
        let z = Int((ideal + 1e-9).rounded(.toNearestOrAwayFromZero))
        return min(TileID.maxZoom, max(minZoom, max(0, z)))
    }

    /// The tiles covering a `width × height` viewport centred on the unit-square point
    /// (`centerX`, `centerY`) (Web Mercator, x east, y south, both 0…1) at map zoom `zoom`.
    ///
    /// - Parameters:
    ///   - tileSize: the source's natural tile size in logical pixels (256 raster, 512 vector).
    ///   - minZoom, maxZoom: the source's zoom range; deeper display zooms are over-zoomed by
    ///     scaling a part of the `maxZoom` ancestor.
    ///   - maxTiles: a guard against absurd requests (a tiny zoom over a huge window); the nearest
    ///     tiles to the centre are kept.
    /// - Returns: placements ordered nearest to the centre first, so requests for the middle of
    ///   the view go out first.
    public static func placements(centerX: Double, centerY: Double, zoom: Double,
                                  width: Double, height: Double, tileSize: Double = 256,
                                  minZoom: Int = 0, maxZoom: Int = 22, maxTiles: Int = 256) -> [TilePlacement] {
        guard zoom.isFinite, centerX.isFinite, centerY.isFinite, width > 0, height > 0,
              width.isFinite, height.isFinite, maxZoom >= minZoom else { return [] }
        let z = tileZoom(forMapZoom: zoom, tileSize: tileSize, minZoom: minZoom)
        let worldSize = 256 * pow(2, zoom)
        let n = 1 << z
        let side = worldSize / Double(n)
        let left = centerX * worldSize - width / 2
        let top = centerY * worldSize - height / 2
        let firstColumn = Int((left / side).rounded(.down))
        let lastColumn = Int(((left + width) / side).rounded(.up)) - 1
        let firstRow = max(0, Int((top / side).rounded(.down)))
        let lastRow = min(n - 1, Int(((top + height) / side).rounded(.up)) - 1)
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return [] }
        var result: [TilePlacement] = []
        for row in firstRow...lastRow {
            for column in firstColumn...lastColumn {
                let tile = TileID(z: z, x: column, y: row)
                let wrapped = tile.wrapped
                var source = wrapped
                var rect = TileRect.whole
                if z > maxZoom, let ancestor = wrapped.ancestor(atZoom: maxZoom) {
                    source = ancestor
                    rect = wrapped.rect(in: ancestor) ?? .whole
                }
                result.append(TilePlacement(tile: tile, sourceTile: source, sourceRect: rect,
                                            screenX: Double(column) * side - left,
                                            screenY: Double(row) * side - top, screenSize: side))
            }
        }
        let cx = width / 2, cy = height / 2
        func distance(_ p: TilePlacement) -> Double {
            let dx = p.screenX + p.screenSize / 2 - cx, dy = p.screenY + p.screenSize / 2 - cy
            return dx * dx + dy * dy
        }
        result.sort { distance($0) < distance($1) }
        return Array(result.prefix(max(0, maxTiles)))
    }

    /// The ancestors to look for, nearest first, when `tile` has not arrived yet: a parent (scaled
    /// up, only its `rect` part) stands in so the map never goes blank while zooming in.
    public static func standIns(for tile: TileID, maxLevelsUp: Int = 4) -> [(tile: TileID, rect: TileRect)] {
        var result: [(tile: TileID, rect: TileRect)] = []
        var current = tile.wrapped
        for _ in 0..<max(0, maxLevelsUp) {
            guard let parent = current.parent else { break }
            if let rect = tile.wrapped.rect(in: parent) { result.append((parent, rect)) }
            current = parent
        }
        return result
    }
}
