import CCairo
import Foundation
import Tiles

/// Paints decoded vector tiles with a built-in `TileStyle` into cairo image surfaces.
///
/// Pure drawing, no GTK: safe on a loader thread (one painter per thread, or share one: it keeps
/// no mutable state; the rasteriser and buffers are per thread, `TilePaintScratch`). Each layer is
/// laid out once (`PreparedLayer`), each rule's filter decided once per kind of feature
/// (`FilterProgram`), and the features of a rule — or of consecutive rules of one colour — are
/// rasterised together and composited once (`CoverageRasterizer`).
public struct VectorTilePainter: Sendable {
    /// The style.
    public let style: TileStyle
    /// Dark or light colours.
    public let isDark: Bool

    /// Creates a painter.
    public init(style: TileStyle, dark: Bool = false) {
        self.style = style
        isDark = dark
    }

    /// Paints `tile` (of tile zoom `zoom`) into a new `size`-pixel square surface at device `scale`.
    ///
    /// - Parameters:
    ///   - rect: the part of the tile to fill the surface with: `.whole`, or a quarter, sixteenth…
    ///     when over-zooming past the source's deepest tiles (lines keep their on-screen widths,
    ///     so an over-zoomed vector tile stays crisp).
    ///   - drawLabels: draws the label candidates simply, for looking at a tile on its own; the
    ///     map places labels itself.
    public func render(_ tile: VectorTile, zoom: Int, size: Double = 512, scale: Double = 1,
                       rect: TileRect = .whole, drawLabels: Bool = false) -> ImageSurface {
        let image = ImageSurface(width: Int(size), height: Int(size), scale: scale, opaque: true)
        image.withContext { cr in
            paint(tile, zoom: zoom, in: cr, size: size, rect: rect)
            if drawLabels { paintLabels(tile, zoom: zoom, in: cr, size: size, rect: rect) }
        }
        return image
    }

    /// The zoom the style is evaluated at: the tile's zoom, plus the over-zoom levels of `rect`.
    static func styleZoom(tileZoom: Int, rect: TileRect) -> Double {
        Double(tileZoom) + log2(1 / max(1e-9, rect.size))
    }

    /// Paints `tile` into the square (0, 0, size, size) of a cairo context (logical pixels) whose
    /// target is an image surface. The context may be translated and scaled, not rotated.
    public func paint(_ tile: VectorTile, zoom: Int, in cr: OpaquePointer, size: Double = 512, rect: TileRect = .whole) {
        let z = Self.styleZoom(tileZoom: zoom, rect: rect)
        // Style widths are for a 512-px tile; a smaller tile gets proportionally thinner lines.
        let widthScale = size / 512
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, size, size)
        cairo_clip(cr)
        setColor(style.background, cr)
        cairo_paint(cr)
        cairo_restore(cr)
        // The tile square in device pixels: geometry is rasterised there directly.
        // (`cairo_user_to_device` stops at the surface's device space: add its scale and offset.)
        guard let target = cairo_get_target(cr), cairo_surface_get_type(target) == CAIRO_SURFACE_TYPE_IMAGE else { return }
        var x0 = 0.0, y0 = 0.0, x1 = size, y1 = size
        cairo_user_to_device(cr, &x0, &y0)
        cairo_user_to_device(cr, &x1, &y1)
        var sx = 1.0, sy = 1.0, offX = 0.0, offY = 0.0
        cairo_surface_get_device_scale(target, &sx, &sy)
        cairo_surface_get_device_offset(target, &offX, &offY)
        x0 = x0 * sx + offX; x1 = x1 * sx + offX
        y0 = y0 * sy + offY; y1 = y1 * sy + offY
        let originX = Int(x0.rounded()), originY = Int(y0.rounded())
        let device = (x1 - x0) / size
        guard device > 0, device.isFinite else { return }
        let scratch = TilePaintScratch.forCurrentThread
        let raster = scratch.raster(width: Int((x1 - x0).rounded()), height: Int((y1 - y0).rounded()))
        let fx = x0 - Double(originX), fy = y0 - Double(originY)
        var prepared: [String: (layer: VectorTileLayer, table: PreparedLayer)] = [:]
        // Consecutive opaque rules of one colour (the casings of four road classes, their white
        // fills) are accumulated together and composited once: the union looks the same and the
        // compositing pass is a third of the cost.
        var pending: StyleColor?
        func flush(_ next: StyleColor?) {
            guard let color = pending else { return }
            if let next, next == color, color.opacity >= 1 { return }
            let rgb = MapColor(hex: color.hex(dark: isDark))
            raster.compositeOffset(into: target, originX: originX, originY: originY,
                                   red: rgb.red, green: rgb.green, blue: rgb.blue, alpha: color.opacity)
            pending = nil
        }
        for rule in style.layers where rule.isVisible(atZoom: z) {
            let entry: (layer: VectorTileLayer, table: PreparedLayer)
            if let e = prepared[rule.sourceLayer] {
                entry = e
            } else {
                guard let layer = tile.layer(named: rule.sourceLayer) else { continue }
                entry = (layer, PreparedLayer(layer, keys: style.keys(ofSourceLayer: rule.sourceLayer)))
                prepared[rule.sourceLayer] = entry
            }
            let (layer, table) = entry
            let filter = FilterProgram(rule.filter, layer: table)
            if filter.isNever { continue }
            let extent = Double(layer.extent)
            let geometry = DeviceMapping(scale: size / extent / rect.size * device, ox: rect.x * extent, oy: rect.y * extent,
                                         dx: fx, dy: fy)
            // Features entirely outside the drawn part are skipped: tile buffers, and most of the tile
            // when over-zooming. The margin keeps wide lines whose edge reaches in.
            let margin = 16 * device / geometry.scale
            let lo = (x: geometry.ox - margin, y: geometry.oy - margin)
            let hi = (x: geometry.ox + rect.size * extent + margin, y: geometry.oy + rect.size * extent + margin)
            let halfWidth: Double
            let color: StyleColor
            var dashes: [Double] = []
            switch rule.paint {
            case let .fill(c): color = c; halfWidth = 0
            case let .line(c, width, dash):
                color = c
                let w = max(0.25, width.value(at: z) * widthScale)
                halfWidth = w * device / 2
                // Dash lengths are in line widths (at least a pixel), like the style says.
                dashes = dash.map { $0 * max(1, w) * device }
            }
            // Dashes of thin lines (footpaths: thousands a tile) are collected (`TileDashes`), deposited
            // as hairline pieces band by band and composited on their own, after what came before.
            let hairline = !dashes.isEmpty && halfWidth <= 1 ? scratch.hairline(width: raster.width, height: raster.height) : nil
            flush(hairline == nil ? color : nil)
            let polygon = VectorTileFeature.GeometryType.polygon.rawValue
            let lineString = VectorTileFeature.GeometryType.lineString.rawValue
            let wantsPolygon = halfWidth == 0
            let passing = filter.passingKinds(of: table)
            table.withKinds { kinds, types, bounds in
                layer.features.withUnsafeBufferPointer { features in
                    passing.withUnsafeBufferPointer { passing in
                        for i in 0..<table.count {
                            let type = types[i]
                            guard type == polygon || (!wantsPolygon && type == lineString), passing[Int(kinds[i])] else { continue }
                            let b = bounds + 4 * i
                            guard Double(b[2]) >= lo.x, Double(b[0]) <= hi.x, Double(b[3]) >= lo.y, Double(b[1]) <= hi.y else { continue }
                            if wantsPolygon {
                                addFill(features.baseAddress! + i, geometry, raster, scratch)
                            } else {
                                addStroke(features.baseAddress! + i, geometry, halfWidth: halfWidth, closed: type == polygon,
                                          dashes: dashes, raster, hairline, scratch)
                            }
                        }
                    }
                }
            }
            if let hairline {
                let rgb = MapColor(hex: color.hex(dark: isDark), alpha: color.opacity)
                scratch.dashes.composite(with: hairline, lineWidth: 2 * halfWidth, into: target, originX: originX, originY: originY,
                                         color: rgb)
            } else {
                pending = color
            }
        }
        flush(nil)
    }

    /// Tile units → device pixels of the rasteriser.
    struct DeviceMapping {
        var scale: Double
        var ox: Double
        var oy: Double
        var dx: Double
        var dy: Double
    }

    /// A part's points in device pixels into the scratch buffers (returns how many), dropping
    /// points closer than half a pixel to the last one kept: dense tiles carry many sub-pixel
    /// vertices that cost edges and show nothing. `close` repeats the first point at the end.
    private static func devicePoints(_ f: UnsafePointer<VectorTileFeature>, part: Int, _ m: DeviceMapping, keepLast: Bool,
                                     close: Bool = false, into scratch: TilePaintScratch) -> Int {
        let r = f.pointee.partRange(part)
        scratch.reserve(r.count + 1)
        let xs = scratch.xs, ys = scratch.ys
        var n = 0
        f.pointee.points.withUnsafeBufferPointer { p in
            var lx = -Double.infinity, ly = -Double.infinity
            for i in r {
                let x = (Double(p[2 * i]) - m.ox) * m.scale + m.dx, y = (Double(p[2 * i + 1]) - m.oy) * m.scale + m.dy
                let ddx = x - lx, ddy = y - ly
                if ddx * ddx + ddy * ddy >= 0.25 || (keepLast && i == r.upperBound - 1) {
                    xs[n] = x; ys[n] = y
                    n += 1
                    lx = x; ly = y
                }
            }
        }
        if close && n > 0 {
            xs[n] = xs[0]; ys[n] = ys[0]
            n += 1
        }
        return n
    }

    /// (Features are passed by pointer into the layer's array: a copy retained and released its
    /// three arrays, thousands of times per tile.)
    private func addFill(_ f: UnsafePointer<VectorTileFeature>, _ m: DeviceMapping, _ raster: CoverageRasterizer,
                         _ scratch: TilePaintScratch) {
        for part in 0..<f.pointee.parts.count {
            let n = Self.devicePoints(f, part: part, m, keepLast: false, into: scratch)
            raster.addRing(scratch.xs, scratch.ys, count: n)
        }
    }

    /// Strokes a feature's lines (`CoverageRasterizer.addPolyline`: one outline per line, round
    /// joins, round or square ends), or their dashes (into `hairline` when given).
    private func addStroke(_ f: UnsafePointer<VectorTileFeature>, _ m: DeviceMapping, halfWidth h: Double, closed: Bool,
                           dashes: [Double], _ raster: CoverageRasterizer, _ hairline: HairlineRasterizer?,
                           _ scratch: TilePaintScratch) {
        let dashed = dashes.count >= 2 && dashes.allSatisfy { $0 > 0 }
        for part in 0..<f.pointee.parts.count {
            let n = Self.devicePoints(f, part: part, m, keepLast: true, close: closed, into: scratch)
            if dashed, hairline != nil {
                scratch.dashes.addDashedLine(scratch.xs, scratch.ys, count: n, dashes: dashes)
            } else if dashed {
                addDashed(scratch.xs, scratch.ys, count: n, halfWidth: h, dashes: dashes, raster)
            } else {
                raster.addPolyline(scratch.xs, scratch.ys, count: n, halfWidth: h, closed: closed)
            }
        }
    }

    /// A dashed line: quads for the "on" stretches, the pattern running on across vertices. (Thin
    /// lines' dashes go to `HairlineRasterizer.addDashedLine` instead, which walks them the same way.)
    private func addDashed(_ xs: UnsafePointer<Double>, _ ys: UnsafePointer<Double>, count: Int, halfWidth h: Double,
                           dashes: [Double], _ raster: CoverageRasterizer) {
        guard count >= 2 else { return }
        var index = 0
        var left = dashes[0]
        for i in 1..<count {
            let ax = xs[i - 1], ay = ys[i - 1]
            let dx = xs[i] - ax, dy = ys[i] - ay
            let len = (dx * dx + dy * dy).squareRoot()  // not `hypot`: a libm call per segment, and no overflow to guard against here
            guard len > 0 else { continue }
            let ux = (xs[i] - ax) / len, uy = (ys[i] - ay) / len
            let nx = -uy * h, ny = ux * h
            var t = 0.0
            while t < len {
                let step = min(left, len - t)
                if index % 2 == 0 {
                    let sx = ax + ux * t, sy = ay + uy * t, ex = ax + ux * (t + step), ey = ay + uy * (t + step)
                    // The quad (s + n, e + n, e − n, s − n) is always wound negatively (cross of
                    // u·step and u·step − 2n is −2·step·h): its edges added in that order directly,
                    // without `addQuad`'s orientation test (a fifth of a dense tile's edges are dashes).
                    raster.addEdge(sx + nx, sy + ny, sx - nx, sy - ny)
                    raster.addEdge(sx - nx, sy - ny, ex - nx, ey - ny)
                    raster.addEdge(ex - nx, ey - ny, ex + nx, ey + ny)
                    raster.addEdge(ex + nx, ey + ny, sx + nx, sy + ny)
                }
                t += step
                left -= step
                if left <= 1e-9 {
                    index += 1  // not `%`: an integer division per dash
                    if index == dashes.count { index = 0 }
                    left = dashes[index]
                }
            }
        }
    }

    private func setColor(_ c: StyleColor, _ cr: OpaquePointer) {
        MapColor(hex: c.hex(dark: isDark), alpha: c.opacity).setSource(on: cr)
    }

    /// Draws the tile's label candidates plainly (text with a halo, straight), for inspection only.
    func paintLabels(_ tile: VectorTile, zoom: Int, in cr: OpaquePointer, size: Double, rect: TileRect) {
        let z = Self.styleZoom(tileZoom: zoom, rect: rect)
        let candidates = TileLabels.candidates(in: tile, style: style, zoom: z, tileSize: size / rect.size)
        let text = MapColor(hex: isDark ? 0xD7DADF : 0x4A4F55)
        let halo = MapColor(hex: style.background.hex(dark: isDark), alpha: 0.9)
        var taken: [(Double, Double, Double, Double)] = []
        for c in candidates.prefix(60) {
            let font = c.kind == .place ? (c.priority >= 80 ? "Sans Bold 11" : "Sans 9") : (c.kind == .water ? "Sans Italic 8.5" : "Sans 8")
            guard let layout = pango_cairo_create_layout(cr) else { continue }
            defer { g_object_unref(UnsafeMutableRawPointer(layout)) }
            let desc = pango_font_description_from_string(font)
            pango_layout_set_font_description(layout, desc)
            pango_font_description_free(desc)
            pango_layout_set_text(layout, c.text, -1)
            var w: Int32 = 0, h: Int32 = 0
            pango_layout_get_pixel_size(layout, &w, &h)
            let (width, height) = (Double(w), Double(h))
            let x = c.x - rect.x * size / rect.size - width / 2
            let y = c.y - rect.y * size / rect.size - height / 2
            let box = (x - 2, y - 1, x + width + 2, y + height + 1)
            guard box.0 >= 0, box.1 >= 0, box.2 <= size, box.3 <= size,
                  !taken.contains(where: { $0.0 < box.2 && box.0 < $0.2 && $0.1 < box.3 && box.1 < $0.3 }) else { continue }
            taken.append(box)
            cairo_save(cr)
            cairo_translate(cr, x + width / 2, y + height / 2)
            cairo_rotate(cr, c.angle)
            cairo_move_to(cr, -width / 2, -height / 2)
            pango_cairo_layout_path(cr, layout)
            halo.setSource(on: cr)
            cairo_set_line_width(cr, 3)
            cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
            cairo_stroke(cr)
            (c.kind == .water ? MapColor(hex: isDark ? 0x7D93A8 : 0x6A8396) : text).setSource(on: cr)
            cairo_move_to(cr, -width / 2, -height / 2)
            pango_cairo_show_layout(cr, layout)
            cairo_restore(cr)
        }
    }
}
