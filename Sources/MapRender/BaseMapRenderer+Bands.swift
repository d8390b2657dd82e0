import CCairo
import Foundation
import GeoData

extension BaseMapRenderer {
    /// A direct paint split at a whole device row into two bands painted at once: the top one
    /// here, the bottom one by `BandHelper` through its own surface over the target's rows. Each
    /// band is a painter of its own (culled to its band, its own rasterisers), so the threads
    /// share only the read-only map. Returns false (painting nothing) where the context doesn't
    /// allow it (not an image surface, rotated, a clip that isn't one rectangle, too few rows).
    func paintDirectlyInBands(_ map: BaseMap, view: TileView, in cr: OpaquePointer) -> Bool {
        guard let split = BandSplit(cr), split.topRows >= ScaledBlitList.minimumBandRows,
              split.bottomRows >= ScaledBlitList.minimumBandRows else { return false }
        // The split row in the context's user space (the view's top-left is at the origin).
        var yb = (Double(split.row) - split.offsetY) / split.scaleY, x = 0.0
        cairo_device_to_user(cr, &x, &yb)
        guard yb > 0, yb < view.height else { return false }
        let palette = self.palette.pastScale(zoom: view.zoom)
        let bottom = BaseMapPainter(originX: view.left, originY: view.top + yb, width: view.width, height: view.height - yb,
                                    worldSize: view.worldSize, deviceScale: view.scale)
        cairo_surface_flush(split.target)
        let surface = ScaledBlitList.alias(split.target, firstRow: split.row)
        let job = DirectBandJob(map: map, painter: bottom, palette: palette, surface: surface, split: split, top: yb)
        let done = BandHelper.shared.start { job.run() }
        let top = BaseMapPainter(originX: view.left, originY: view.top, width: view.width, height: yb,
                                 worldSize: view.worldSize, deviceScale: view.scale)
        top.paint(map, palette: palette, into: cr)
        done.wait()
        cairo_surface_destroy(surface)
        cairo_surface_mark_dirty(split.target)
        return true
    }
}

/// The bottom band of a direct paint, for the helper thread.
private final class DirectBandJob: @unchecked Sendable {
    let map: BaseMap
    let painter: BaseMapPainter
    let palette: MapPalette
    let surface: OpaquePointer
    let split: BandSplit
    let top: Double

    init(map: BaseMap, painter: BaseMapPainter, palette: MapPalette, surface: OpaquePointer, split: BandSplit, top: Double) {
        self.map = map
        self.painter = painter
        self.palette = palette
        self.surface = surface
        self.split = split
        self.top = top
    }

    func run() {
        let cr = cairo_create(surface)!
        var m = split.matrix
        cairo_set_matrix(cr, &m)
        let c = split.clip
        cairo_rectangle(cr, c.x0, c.y0, c.x1 - c.x0, c.y1 - c.y0)
        cairo_clip(cr)
        cairo_translate(cr, 0, top)
        painter.paint(map, palette: palette, into: cr)
        cairo_destroy(cr)
        cairo_surface_flush(surface)
    }
}
