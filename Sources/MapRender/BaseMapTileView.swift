import Foundation

/// The viewport in world pixels of the camera's zoom, and tile arithmetic at other zooms.
struct TileView {
    var left: Double
    var top: Double
    var width: Double
    var height: Double
    var zoom: Double
    var worldSize: Double
    var scale: Double
    var tileSize: Double

    /// Screen position of world pixel (0, 0) rounded to whole device pixels (exact-zoom blits).
    var snappedOrigin: (Double, Double) { ((-left * scale).rounded() / scale, (-top * scale).rounded() / scale) }

    /// Tiles of zoom `zs` per world width, when whole (then columns wrap around the world).
    func tilesAcross(zoom zs: Double) -> Int? {
        let across = 256 * exp2(zs) / tileSize
        return across == across.rounded() && across >= 1 ? Int(across) : nil
    }

    func wrappedColumn(_ i: Int, zoom zs: Double) -> Int {
        guard let n = tilesAcross(zoom: zs) else { return i }
        return ((i % n) + n) % n
    }

    /// The tiles of zoom `zs` that cover the viewport (rows clamped to the world).
    func tileRange(zoom zs: Double, snapped: Bool) -> (iMin: Int, iMax: Int, jMin: Int, jMax: Int) {
        let size = tileSize * exp2(zoom - zs)
        let (ox, oy) = snapped ? snappedOrigin : (-left, -top)
        let rows = Int((256 * exp2(zs) / tileSize).rounded(.up))
        let iMin = Int(((0 - ox) / size).rounded(.down)), iMax = Int(((width - ox) / size).rounded(.down))
        let jMin = max(0, Int(((0 - oy) / size).rounded(.down)))
        let jMax = min(rows - 1, Int(((height - oy) / size).rounded(.down)))
        return (iMin, iMax, jMin, jMax)
    }

    /// The tiles of zoom `zs` covering tile (i, j) of `level`.
    /// With `visibleOnly`, only the tiles covering the part of (i, j) inside the viewport.
    func sourceRange(zoom zs: Double, coveringTile i: Int, _ j: Int, level: Double, visibleOnly: Bool = false)
        -> (iMin: Int, iMax: Int, jMin: Int, jMax: Int) {
        let ratio = exp2(zs - level)  // source tiles per target tile side
        let eps = 1e-9
        let rows = Int((256 * exp2(zs) / tileSize).rounded(.up))
        var fi0 = Double(i), fi1 = Double(i + 1), fj0 = Double(j), fj1 = Double(j + 1)
        if visibleOnly {
            let size = tileSize * exp2(zoom - level)  // a target tile in view pixels
            fi0 = max(fi0, left / size); fi1 = min(fi1, (left + width) / size)
            fj0 = max(fj0, top / size); fj1 = min(fj1, (top + height) / size)
        }
        let iMin = Int((fi0 * ratio + eps).rounded(.down)), iMax = Int((fi1 * ratio - eps).rounded(.down))
        let jMin = max(0, Int((fj0 * ratio + eps).rounded(.down)))
        let jMax = min(rows - 1, Int((fj1 * ratio - eps).rounded(.down)))
        return (iMin, iMax, jMin, jMax)
    }

    /// Screen rectangle of tile (i, j) of zoom `zs`, edges rounded to whole device pixels.
    func snappedRect(zoom zs: Double, i: Int, j: Int) -> (x0: Double, y0: Double, x1: Double, y1: Double) {
        let size = tileSize * exp2(zoom - zs)
        func snap(_ v: Double) -> Double { (v * scale).rounded() / scale }
        return (snap(Double(i) * size - left), snap(Double(j) * size - top),
                snap(Double(i + 1) * size - left), snap(Double(j + 1) * size - top))
    }
}
