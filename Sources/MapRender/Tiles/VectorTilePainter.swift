import CCairo
import Foundation
import Tiles

/// Paints decoded vector tiles with a built-in `TileStyle` into cairo image surfaces.
///
/// Pure drawing, no GTK: safe on a loader thread (one painter per thread, or share one: it keeps
/// no mutable state). Each style rule becomes one cairo path of all its matching features, filled
/// or stroked once, which keeps a dense street tile within budget.
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

    /// Paints `tile` into the square (0, 0, size, size) of a cairo context (logical pixels).
    public func paint(_ tile: VectorTile, zoom: Int, in cr: OpaquePointer, size: Double = 512, rect: TileRect = .whole) {
        let z = Self.styleZoom(tileZoom: zoom, rect: rect)
        // Style widths are for a 512-px tile; a smaller tile gets proportionally thinner lines.
        let widthScale = size / 512
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, size, size)
        cairo_clip(cr)
        setColor(style.background, cr)
        cairo_paint(cr)
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        var indices: [String: [String: Int]] = [:]
        for rule in style.layers where rule.isVisible(atZoom: z) {
            guard let layer = tile.layer(named: rule.sourceLayer) else { continue }
            let index = indices[layer.name] ?? Self.keyIndex(layer)
            indices[layer.name] = index
            let unit = size / Double(layer.extent) / rect.size
            let ox = rect.x * Double(layer.extent), oy = rect.y * Double(layer.extent)
            // Features entirely outside the drawn part are skipped (over-zoom draws a quarter or less).
            let margin = 64 / unit
            let lo = (x: ox - margin, y: oy - margin)
            let hi = (x: ox + rect.size * Double(layer.extent) + margin, y: oy + rect.size * Double(layer.extent) + margin)
            var any = false
            for feature in layer.features where !feature.parts.isEmpty {
                switch rule.paint {
                case .fill: guard feature.type == .polygon else { continue }
                case .line: guard feature.type == .lineString || feature.type == .polygon else { continue }
                }
                if case .always = rule.filter {} else {
                    let matches = rule.filter.matches(type: feature.type) { key in
                        index[key].flatMap { layer.value(of: feature, keyIndex: $0) }
                    }
                    guard matches else { continue }
                }
                if rect.size < 1, !Self.intersects(feature, lo, hi) { continue }
                appendPath(feature, unit: unit, ox: ox, oy: oy, closed: feature.type == .polygon, cr)
                any = true
            }
            guard any else { continue }
            switch rule.paint {
            case let .fill(color):
                setColor(color, cr)
                cairo_fill(cr)
            case let .line(color, width, dash):
                setColor(color, cr)
                cairo_set_line_width(cr, max(0.25, width.value(at: z) * widthScale))
                if dash.isEmpty {
                    cairo_set_dash(cr, nil, 0, 0)
                } else {
                    let scaled = dash.map { $0 * max(1, width.value(at: z) * widthScale) }
                    cairo_set_dash(cr, scaled, Int32(scaled.count), 0)
                }
                cairo_stroke(cr)
                cairo_set_dash(cr, nil, 0, 0)
            }
        }
        cairo_restore(cr)
    }

    private static func keyIndex(_ layer: VectorTileLayer) -> [String: Int] {
        var index: [String: Int] = [:]
        for (i, k) in layer.keys.enumerated() where index[k] == nil { index[k] = i }
        return index
    }

    private static func intersects(_ f: VectorTileFeature, _ lo: (x: Double, y: Double), _ hi: (x: Double, y: Double)) -> Bool {
        var minX = Int32.max, minY = Int32.max, maxX = Int32.min, maxY = Int32.min
        var i = 0
        let p = f.points
        while i + 1 < p.count {
            minX = min(minX, p[i]); maxX = max(maxX, p[i]); minY = min(minY, p[i + 1]); maxY = max(maxY, p[i + 1])
            i += 2
        }
        return Double(maxX) >= lo.x && Double(minX) <= hi.x && Double(maxY) >= lo.y && Double(minY) <= hi.y
    }

    private func appendPath(_ f: VectorTileFeature, unit: Double, ox: Double, oy: Double, closed: Bool, _ cr: OpaquePointer) {
        f.points.withUnsafeBufferPointer { p in
            for part in 0..<f.parts.count {
                let r = f.partRange(part)
                guard r.count >= (closed ? 3 : 2) else { continue }
                cairo_move_to(cr, (Double(p[2 * r.lowerBound]) - ox) * unit, (Double(p[2 * r.lowerBound + 1]) - oy) * unit)
                for i in r.dropFirst() {
                    cairo_line_to(cr, (Double(p[2 * i]) - ox) * unit, (Double(p[2 * i + 1]) - oy) * unit)
                }
                if closed { cairo_close_path(cr) }
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
