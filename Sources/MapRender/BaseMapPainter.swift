import CCairo
import Foundation
import GeoData

/// Paints base-map layers into a cairo context for a window of world pixels.
///
/// Geometry is stored once in unit-square coordinates; each call scales it to world pixels of the
/// current zoom by hand (cheaper than a cairo matrix for paths we also cull and simplify). Three
/// things keep the number of vertices cairo sees proportional to what is visible:
/// features whose box misses the window (per world copy) are skipped; runs of vertices that stay
/// on the same outer side of the window collapse to their end points (exact: such a run can't
/// change coverage inside the window); and vertices closer than about half a device pixel to the
/// previous one are dropped.
struct BaseMapPainter {
    /// World pixel (at this zoom) that maps to the context's logical (0, 0).
    var originX: Double
    var originY: Double
    /// Logical size of the area to paint.
    var width: Double
    var height: Double
    /// World width in logical pixels (256·2^zoom).
    var worldSize: Double
    /// Device pixels per logical pixel.
    var deviceScale: Double

    /// The zoom this painter draws at.
    var zoom: Double { log2(worldSize / 256) }

    /// Whether feature `f` of `layer` shows at this zoom (Natural Earth `min_zoom`, drawn from half
    /// a level earlier since a desktop window shows more than a 256-px tile grid assumes).
    @inline(__always) func shows(_ layer: BaseMapLayer, _ f: Int) -> Bool {
        layer.featureMinZoom.isEmpty || Double(layer.featureMinZoom[f]) <= zoom + 0.5
    }

    /// Paints water, land, lakes, rivers, borders and coastlines.
    func paint(_ map: BaseMap, palette: MapPalette, into cr: OpaquePointer) {
        cairo_save(cr)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_clip(cr)
        palette.water.setSource(on: cr)
        cairo_paint(cr)
        // Thin lines: miter (falling back to bevel) and butt caps look the same as round ones and
        // are cheaper for cairo's stroker.
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        cairo_set_miter_limit(cr, 2)
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
        // cairo's fast antialiasing halves the cost of filling and stroking thousands of short
        // segments (measured: ~18 → ~9 ms for a 1280×800 world frame); thin base-map lines look
        // the same. Text and data marks keep the default.
        cairo_set_antialias(cr, CAIRO_ANTIALIAS_FAST)

        cairo_new_path(cr)
        var fill = CairoPathSink(cr: cr)
        if appendPath(of: map.land, margin: 1, features: nil, into: &fill) {
            palette.land.setSource(on: cr)
            cairo_fill(cr)
        }
        cairo_new_path(cr)
        // Lines go straight from the culled vertices to the stroker's rasterisers.
        let stroker = PathStroker.forCurrentThread
        let lines = stroker.linePath
        lines.removeAll()
        var lakeSink = TeePathSink(first: fill, second: lines)
        if appendPath(of: map.lakes, margin: 2, features: nil, into: &lakeSink) {
            palette.lakeFill.setSource(on: cr)
            cairo_fill(cr)
            stroker.stroke(lines, in: cr, width: width, height: height, color: palette.lakeOutline,
                           lineWidth: palette.lakeOutlineWidth)
        }
        cairo_new_path(cr)
        paintRivers(map.rivers, palette: palette, stroker: stroker, into: cr)
        for (layer, color, lineWidth) in [(map.borders, palette.border, palette.borderWidth),
                                          (map.coastlines, palette.coastline, palette.coastlineWidth)] {
            lines.removeAll()
            var sink = lines
            if appendPath(of: layer, margin: 2, features: nil, into: &sink) {
                stroker.stroke(lines, in: cr, width: width, height: height, color: color, lineWidth: lineWidth)
            }
        }
        cairo_restore(cr)
    }

    /// Rivers, grouped into a few strokes by width and fade: a river is as wide as its weight says
    /// (growing with the zoom) and fades in over the level before its `min_zoom`. Past Natural
    /// Earth's scale (`MapPalette.riverStrength` < 1) it thins towards a hairline and fades to a hint.
    func paintRivers(_ rivers: BaseMapLayer, palette: MapPalette, stroker: PathStroker, into cr: OpaquePointer) {
        guard rivers.featureCount > 0 else { return }
        let z = zoom
        let strength = palette.riverStrength
        let grown = min(2.2, max(0.7, 0.55 + 0.22 * (z - 5)))
        let zoomWidth = 0.7 + (grown - 0.7) * strength
        var groups: [Int: [Int]] = [:]  // key: width step × 8 + alpha step
        for f in 0..<rivers.featureCount {
            let minZoom = rivers.featureMinZoom.isEmpty ? 0 : Double(rivers.featureMinZoom[f])
            let fade = min(1, max(0, z - minZoom + 1))
            guard fade > 0 else { continue }
            let weight = rivers.featureWeight.isEmpty ? 1 : Double(rivers.featureWeight[f])
            let widthStep = Int((weight * zoomWidth * 4).rounded())
            let alphaStep = Int((fade * 4).rounded())
            guard widthStep > 0, alphaStep > 0 else { continue }
            groups[widthStep * 8 + alphaStep, default: []].append(f)
        }
        let colour = palette.river
        let lines = stroker.linePath
        for key in groups.keys.sorted() {
            lines.removeAll()
            var sink = lines
            guard appendPath(of: rivers, margin: 3, features: groups[key]!, into: &sink) else { continue }
            stroker.stroke(lines, in: cr, width: width, height: height,
                           color: colour.withAlpha(colour.alpha * strength * Double(key % 8) / 4), lineWidth: Double(key / 8) / 4)
        }
    }

    /// Appends the visible part of a layer to the current path; returns whether anything was added.
    func appendPath(of layer: BaseMapLayer, margin: Double, into cr: OpaquePointer) -> Bool {
        var sink = CairoPathSink(cr: cr)
        return appendPath(of: layer, margin: margin, features: nil, into: &sink)
    }

    /// Appends the visible part of some features of a layer (all when `features` is nil) to `sink`.
    func appendPath<Sink: MapPathSink>(of layer: BaseMapLayer, margin: Double, features: [Int]?,
                                       into sink: inout Sink) -> Bool {
        let minX = -margin, minY = -margin, maxX = width + margin, maxY = height + margin
        let devicePixel = 1 / deviceScale
        let tolerance = 0.45 * devicePixel
        let minFeatureSize = devicePixel
        let isPolygon = layer.kind == .polygons
        // Polygons are pre-split at ±180°: push edges lying exactly on the world's east/west edge
        // half a device pixel outwards so neighbouring copies overlap instead of leaving a hairline.
        let seamNudge = isPolygon ? 0.5 * devicePixel : 0
        var added = false
        let copies = WorldWrap.copies(minX: originX + minX, maxX: originX + maxX, worldSize: worldSize)
        layer.coordinates.withUnsafeBufferPointer { xy in
            layer.ringStarts.withUnsafeBufferPointer { ringStarts in
                for k in copies {
                    let offsetX = Double(k) * worldSize - originX
                    let offsetY = -originY
                    // The window in unit coordinates for this copy.
                    let view = UnitRect(minX: (minX - offsetX) / worldSize, minY: (minY - offsetY) / worldSize,
                                        maxX: (maxX - offsetX) / worldSize, maxY: (maxY - offsetY) / worldSize)
                    for n in 0..<(features?.count ?? layer.featureCount) {
                        let f = features?[n] ?? n
                        guard features != nil || shows(layer, f) else { continue }
                        let b = layer.featureBounds[f]
                        guard b.intersects(view) else { continue }
                        if (b.maxX - b.minX) * worldSize < minFeatureSize
                            && (b.maxY - b.minY) * worldSize < minFeatureSize { continue }
                        for r in layer.rings(ofFeature: f) {
                            let start = Int(ringStarts[r]), end = Int(ringStarts[r + 1])
                            let chunks = layer.ringChunkStarts.isEmpty ? nil
                                : (Int(layer.ringChunkStarts[r]), view)
                            if appendRing(xy, start, end, offsetX, offsetY, isPolygon, tolerance, seamNudge,
                                          minX, minY, maxX, maxY, chunks: chunks, layer: layer, &sink) {
                                added = true
                            }
                        }
                    }
                }
            }
        }
        return added
    }

    @inline(__always)
    private func outcode(_ x: Double, _ y: Double, _ minX: Double, _ minY: Double,
                         _ maxX: Double, _ maxY: Double) -> UInt8 {
        var c: UInt8 = 0
        if x < minX { c |= 1 } else if x > maxX { c |= 2 }
        if y < minY { c |= 4 } else if y > maxY { c |= 8 }
        return c
    }

    // swiftlint:disable:next function_parameter_count
    private func appendRing<Sink: MapPathSink>(_ xy: UnsafeBufferPointer<Double>, _ start: Int, _ end: Int,
                            _ offsetX: Double, _ offsetY: Double, _ isPolygon: Bool,
                            _ tolerance: Double, _ seamNudge: Double,
                            _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                            chunks: (first: Int, view: UnitRect)?, layer: BaseMapLayer,
                            _ sink: inout Sink) -> Bool {
        guard end - start >= 2 else { return false }
        // A long ring whose chunk boxes mostly miss the window: each missing chunk stands in for
        // its first and last vertex only. Exact: the chunk lies wholly beyond one edge of the
        // window, and so does the closed loop it makes with the straight segment replacing it.
        if let chunks, end - start > 2 * BaseMapLayer.chunkLength {
            return appendChunkedRing(xy, start, end, offsetX, offsetY, isPolygon, tolerance, seamNudge,
                                     minX, minY, maxX, maxY, firstChunk: chunks.first, view: chunks.view,
                                     bounds: layer.chunkBounds, &sink)
        }
        return appendVertices(xy, nil, start, end - start, offsetX, offsetY, isPolygon, tolerance, seamNudge,
                              minX, minY, maxX, maxY, &sink)
    }

    /// Appends a run of vertices (`indices[i]`, or `start + i` when `indices` is nil) as one ring.
    // swiftlint:disable:next function_parameter_count
    @inline(__always)
    private func appendVertices<Sink: MapPathSink>(_ xy: UnsafeBufferPointer<Double>, _ indices: UnsafeBufferPointer<Int32>?,
                                _ start: Int, _ count: Int, _ offsetX: Double, _ offsetY: Double, _ isPolygon: Bool,
                                _ tolerance: Double, _ seamNudge: Double,
                                _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                                _ sink: inout Sink) -> Bool {
        guard count >= 2 else { return false }
        let ws = worldSize
        @inline(__always) func point(_ i: Int) -> (Double, Double) {
            let v = indices.map { Int($0[i]) } ?? start + i
            let ux = xy[2 * v], uy = xy[2 * v + 1]
            var x = ux * ws + offsetX
            if seamNudge > 0 { if ux <= 0 { x -= seamNudge } else if ux >= 1 { x += seamNudge } }
            return (x, uy * ws + offsetY)
        }
        var (lastX, lastY) = point(0)
        var runCode = outcode(lastX, lastY, minX, minY, maxX, maxY)
        var allOutside = runCode
        var pendingX = 0.0, pendingY = 0.0, hasPending = false
        var skippedX = 0.0, skippedY = 0.0, hasSkipped = false
        // A ring entirely on one outer side of the window is invisible: check cheaply first.
        var v = 1
        while v < count && allOutside != 0 {
            let (x, y) = point(v)
            allOutside &= outcode(x, y, minX, minY, maxX, maxY)
            v += 1
        }
        if allOutside != 0 { return false }

        sink.move(toX: lastX, y: lastY)
        for v in 1..<count {
            let (x, y) = point(v)
            let c = outcode(x, y, minX, minY, maxX, maxY)
            if c != 0 && (runCode & c) != 0 {
                // Still on the same outer side as the last emitted vertex: defer.
                runCode &= c
                pendingX = x; pendingY = y; hasPending = true
                hasSkipped = false
                continue
            }
            if hasPending {
                sink.line(toX: pendingX, y: pendingY)
                lastX = pendingX; lastY = pendingY
                hasPending = false
            }
            if abs(x - lastX) < tolerance && abs(y - lastY) < tolerance {
                skippedX = x; skippedY = y; hasSkipped = true
                continue
            }
            sink.line(toX: x, y: y)
            lastX = x; lastY = y
            runCode = c
            hasSkipped = false
        }
        if hasPending { sink.line(toX: pendingX, y: pendingY) }
        if hasSkipped && !isPolygon { sink.line(toX: skippedX, y: skippedY) }
        if isPolygon { sink.closePath() }
        return true
    }

    /// `appendRing` for a long ring, visiting only the chunks that touch the window.
    // swiftlint:disable:next function_parameter_count
    private func appendChunkedRing<Sink: MapPathSink>(_ xy: UnsafeBufferPointer<Double>, _ start: Int, _ end: Int,
                                   _ offsetX: Double, _ offsetY: Double, _ isPolygon: Bool,
                                   _ tolerance: Double, _ seamNudge: Double,
                                   _ minX: Double, _ minY: Double, _ maxX: Double, _ maxY: Double,
                                   firstChunk: Int, view: UnitRect, bounds: [UnitRect], _ sink: inout Sink) -> Bool {
        // The vertices to visit: whole chunks that touch the window, the ends of those that don't.
        var picked: [Int32] = []
        picked.reserveCapacity(256)
        var anyInside = false
        var c = firstChunk
        var v = start
        while v < end {
            let chunkEnd = min(end, v + BaseMapLayer.chunkLength)
            if bounds[c].intersects(view) {
                anyInside = true
                for k in v..<chunkEnd { picked.append(Int32(k)) }
            } else {
                picked.append(Int32(v))
                if chunkEnd - 1 > v { picked.append(Int32(chunkEnd - 1)) }
            }
            v = chunkEnd
            c += 1
        }
        // A line missing the window draws nothing; a polygon may still surround it (the middle of a
        // continent), so its chunk ends go on to the usual culling.
        guard anyInside || isPolygon else { return false }
        return picked.withUnsafeBufferPointer { idx in
            appendVertices(xy, idx, 0, idx.count, offsetX, offsetY, isPolygon, tolerance, seamNudge,
                           minX, minY, maxX, maxY, &sink)
        }
    }
}
