import CCairo
import Foundation

/// Strokes the current cairo path with the project's own rasterisers instead of cairo's stroker, when
/// the context draws into an image surface with a plain scale-and-offset transform (base-map
/// tiles and `clustermap render`); elsewhere it falls back to `cairo_stroke`.
///
/// Why: cairo's stroker builds a polygon with joins for every segment, which made the base map's
/// coastlines, borders and rivers three quarters of a first draw (≈ 22 of 30 ms for the world at
/// zoom 1 on this project's machine). Thin map lines need none of that: lines up to 3 device
/// pixels wide are hairlines (`HairlineRasterizer`, cost per pixel of length); wider ones are a
/// quad per segment with an octagon at the vertices where they turn, one union of coverage (no
/// darker overlaps) composited once per stroke.
final class PathStroker {
    /// Rasterisers by device size (a few: tiles and the window), kept between paints: clearing
    /// megabytes of cells for every paint cost more than a whole base-map tile at high zoom.
    private var rasters: [Int: CoverageRasterizer] = [:]
    private var hairlineRasters: [Int: HairlineRasterizer] = [:]

    /// The stroker of the calling thread (rasterisers are not thread-safe; tiles are painted on
    /// several threads).
    static var forCurrentThread: PathStroker { Thread.perThread("clustermap.PathStroker") { PathStroker() } }

    private static func sizeKey(_ w: Int, _ h: Int) -> Int { w << 32 | h }

    private func raster(_ w: Int, _ h: Int) -> CoverageRasterizer {
        Self.kept(in: &rasters, w, h) { CoverageRasterizer(width: w, height: h) }
    }

    private func hairlines(_ w: Int, _ h: Int) -> HairlineRasterizer {
        Self.kept(in: &hairlineRasters, w, h) { HairlineRasterizer(width: w, height: h) }
    }

    /// The rasteriser of a device size from `table`, made on first use (a few sizes at most).
    private static func kept<R>(in table: inout [Int: R], _ w: Int, _ h: Int, make: () -> R) -> R {
        if let r = table[sizeKey(w, h)] { return r }
        if table.count >= 4 { table.removeAll() }
        let r = make()
        table[sizeKey(w, h)] = r
        return r
    }

    /// Device pixel of user (0, 0) (whole pixels), and device pixels per user unit, when the fast
    /// path applies.
    private struct Mapping { var originX: Int, originY: Int, scale: Double }

    /// The path the base-map painter collects lines into (reused between strokes).
    let linePath = MapLinePath()

    /// Strokes `path` (user space; the `width` × `height` area from the origin is what may be
    /// painted) into `cr` in `color`, `lineWidth` user units wide.
    func stroke(_ path: MapLinePath, in cr: OpaquePointer, width: Double, height: Double, color: MapColor,
                lineWidth: Double) {
        guard !path.isEmpty else { return }
        guard let m = Self.mapping(cr) else {
            cairo_new_path(cr)
            path.appendTo(cr)
            color.setSource(on: cr)
            cairo_set_line_width(cr, lineWidth)
            cairo_stroke(cr)
            return
        }
        // The painted area only: what lies outside it is clipped, as cairo's clip would.
        let w = Int((width * m.scale).rounded(.up)), h = Int((height * m.scale).rounded(.up))
        let deviceWidth = max(0.25, lineWidth * m.scale)
        let xy = path.coordinates, s = m.scale
        if deviceWidth <= PathStroker.hairlineLimit {
            let lines = hairlines(w, h)
            for k in 0..<path.polylineCount {
                let r = path.vertices(ofPolyline: k)
                guard r.count >= 2 else { continue }
                var lastX = xy[2 * r.lowerBound] * s, lastY = xy[2 * r.lowerBound + 1] * s
                let startX = lastX, startY = lastY
                for v in (r.lowerBound + 1)..<r.upperBound {
                    let x = xy[2 * v] * s, y = xy[2 * v + 1] * s
                    lines.addSegment(lastX, lastY, x, y, lineWidth: deviceWidth)
                    (lastX, lastY) = (x, y)
                }
                if path.isClosed[k] { lines.addSegment(lastX, lastY, startX, startY, lineWidth: deviceWidth) }
            }
            lines.composite(into: cairo_get_target(cr), originX: m.originX, originY: m.originY, color: color)
            return
        }
        let raster = raster(w, h)
        var xs: [Double] = [], ys: [Double] = []
        for k in 0..<path.polylineCount {
            let r = path.vertices(ofPolyline: k)
            xs.removeAll(keepingCapacity: true)
            ys.removeAll(keepingCapacity: true)
            for v in r {
                xs.append(xy[2 * v] * s)
                ys.append(xy[2 * v + 1] * s)
            }
            let closed = path.isClosed[k]
            if closed, let x = xs.first, let y = ys.first { xs.append(x); ys.append(y) }
            raster.addPolyline(xs, ys, halfWidth: deviceWidth / 2, closed: closed)
        }
        raster.compositeOffset(into: cairo_get_target(cr), originX: m.originX, originY: m.originY,
                               red: color.red, green: color.green, blue: color.blue, alpha: color.alpha)
    }

    /// Strokes and clears the current path of `cr` (lines only: map paths have no curves).
    func stroke(_ cr: OpaquePointer, width: Double, height: Double, color: MapColor, lineWidth: Double) {
        let path = MapLinePath()
        if let copy = cairo_copy_path(cr) {
            let data = copy.pointee.data!, count = Int(copy.pointee.num_data)
            var i = 0
            while i < count {
                let header = data[i].header
                switch header.type {
                case CAIRO_PATH_MOVE_TO: path.move(toX: data[i + 1].point.x, y: data[i + 1].point.y)
                case CAIRO_PATH_LINE_TO: path.line(toX: data[i + 1].point.x, y: data[i + 1].point.y)
                case CAIRO_PATH_CLOSE_PATH: path.closePath()
                default: break
                }
                i += Int(header.length)
            }
            cairo_path_destroy(copy)
        }
        cairo_new_path(cr)
        stroke(path, in: cr, width: width, height: height, color: color, lineWidth: lineWidth)
    }

    /// Lines up to this many device pixels wide are drawn as hairlines.
    static let hairlineLimit = 3.0

    /// The transform from user space to device pixels, when it is a uniform scale plus a whole-
    /// pixel offset into an image surface (device = user · scale + origin).
    private static func mapping(_ cr: OpaquePointer) -> Mapping? {
        guard let target = cairo_get_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else { return nil }
        // cairo's "device" space here is before the surface's device scale and offset (HiDPI).
        var dsx = 1.0, dsy = 1.0, dox = 0.0, doy = 0.0
        cairo_surface_get_device_scale(target, &dsx, &dsy)
        cairo_surface_get_device_offset(target, &dox, &doy)
        guard dsx > 0, abs(dsx - dsy) < 1e-9 else { return nil }
        func pixel(_ x: Double, _ y: Double) -> (Double, Double) {
            var x = x, y = y
            cairo_user_to_device(cr, &x, &y)
            return (x * dsx + dox, y * dsy + doy)
        }
        let (x0, y0) = pixel(0, 0), (x1, y1) = pixel(1, 1), (x2, y2) = pixel(1, 0)
        let sx = x1 - x0, sy = y1 - y0
        // Rotation or skew would show as a mismatch here.
        guard sx > 0, abs(sx - sy) < 1e-9, abs(y2 - y0) < 1e-9, abs(x2 - x0 - sx) < 1e-9 else { return nil }
        // Whole device pixels only (map tiles are placed on the pixel grid).
        let ox = x0.rounded(), oy = y0.rounded()
        guard abs(ox - x0) < 1e-6, abs(oy - y0) < 1e-6, abs(ox) < 1e7, abs(oy) < 1e7 else { return nil }
        return Mapping(originX: Int(ox), originY: Int(oy), scale: sx)
    }
}
