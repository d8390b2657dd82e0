import CCairo
import Foundation
import MapRender
import Tiles

// `clustermap-bench tiles [FILE.mbtiles|FILE.pmtiles] [--tile Z/X/Y] [--runs N] [--png DIR]`:
// the SPEC §8 tile targets, one JSON line per measurement:
// - "read_gunzip": the tile's bytes from the file, gunzipped;
// - "decode": MVT decode (all layers, and only the style's layers);
// - "paint": the decoded tile painted at 512 px (scale 1 and 2);
// - "read_decode_paint": all of it, what a loader thread does per tile (target ≤ 15 ms);
// - "label_candidates": the tile's names for the label placer (also on the loader thread);
// - "loader_tile_total": read, decode, paint and names, all a loader thread does per vector tile
//   (`TileMapLayer.renderTile`);
// - "cached_tile_on_screen": a cached 512-px tile image put on a 1280×800 frame as the window does
//   during a zoom animation, its costliest case: magnified for a fractional zoom, a new scale every
//   frame, sampled nearest (≤ 1 ms); "cached_tile_scaled_bilinear": the same with bilinear
//   filtering (what the window drew while zooming until session 7, for comparison);
//   "cached_tile_fractional_zoom_at_rest": once the zoom stays (resampled bilinear on the first
//   frame, "..._first_frame", then copied); "cached_tile_at_rest": the tile at its own zoom (1:1).
// Default input: the Leipzig fixture's densest tile (Tests/TilesTests/Fixtures, from the repo root).
// Times are the thread's CPU time (`threadCPUMs`: the machine is shared, and wall time would
// measure the neighbours as much as the painter).

private func minimum(_ v: [Double]) -> Double { v.min() ?? .nan }

func runTileBenchmark(_ args: [String]) {
    var path = "Tests/TilesTests/Fixtures/leipzig-subset.mbtiles"
    var tileID = TileID(z: 14, x: 8755, y: 5460)
    var runs = 50
    var pngDirectory: URL?
    var i = 0
    while i < args.count {
        let a = args[i], next = i + 1 < args.count ? args[i + 1] : nil
        switch a {
        case "--tile":
            let p = (next ?? "").split(separator: "/").compactMap { Int($0) }
            guard p.count == 3 else { benchFail("--tile wants Z/X/Y") }
            tileID = TileID(z: p[0], x: p[1], y: p[2]); i += 1
        case "--runs": runs = max(3, next.flatMap(Int.init) ?? runs); i += 1
        case "--png": pngDirectory = next.map { URL(fileURLWithPath: $0) }; i += 1
        default: path = a
        }
        i += 1
    }
    let source: TileSource
    do {
        source = path.hasSuffix(".pmtiles") ? try PMTilesSource(path: path) : try MBTilesSource(path: path)
    } catch {
        benchFail("\(error)")
    }
    guard let first = try? source.tileData(for: tileID) else { benchFail("no tile \(tileID) in \(path)") }
    let schema = TileSchema(vectorLayers: source.metadata.vectorLayers)
    let style = TileStyle.builtIn(for: schema)
    let wanted = style.sourceLayers
    let painter = VectorTilePainter(style: style)
    let label = "\"tile\":\"\(tileID)\",\"bytes\":\(first.count),\"schema\":\"\(schema.rawValue)\""

    var read: [Double] = [], decodeAll: [Double] = [], decodeStyle: [Double] = [], paint1: [Double] = [],
        paint2: [Double] = [], both: [Double] = [], labels: [Double] = [], loader: [Double] = []
    var features = 0
    for _ in 0..<runs {
        // What a loader thread does per tile: read (SQLite or pread) and gunzip, decode, paint.
        var t = threadCPUMs()
        guard let bytes = try? source.tileData(for: tileID) else { benchFail("tile read failed") }
        let readDone = threadCPUMs()
        read.append(readDone - t)
        guard let tile = try? MVTDecoder.decode(bytes, layers: wanted) else { benchFail("tile does not decode") }
        let decoded = threadCPUMs()
        decodeStyle.append(decoded - readDone)
        _ = painter.render(tile, zoom: tileID.z)
        let painted = threadCPUMs()
        paint1.append(painted - decoded)
        both.append(painted - t)

        // The loader thread also takes the tile's names for the label placer.
        t = threadCPUMs()
        _ = TileLabels.candidates(in: tile, style: style, zoom: Double(tileID.z), tileSize: 1)
        labels.append(threadCPUMs() - t)
        loader.append(both.last! + labels.last!)

        t = threadCPUMs()
        let all = try? MVTDecoder.decode(bytes)
        decodeAll.append(threadCPUMs() - t)
        features = all?.layers.reduce(0) { $0 + $1.features.count } ?? 0

        t = threadCPUMs()
        _ = painter.render(tile, zoom: tileID.z, scale: 2)
        paint2.append(threadCPUMs() - t)
    }
    func line(_ name: String, _ v: [Double], _ extra: String = "") {
        print("{\"bench\":\"tiles\",\"what\":\"\(name)\",\(label),\"runs\":\(v.count),"
              + "\"min_ms\":\(String(format: "%.3f", minimum(v))),\"median_ms\":\(String(format: "%.3f", percentile(v, 0.5))),\"p95_ms\":\(String(format: "%.3f", percentile(v, 0.95)))\(extra)}")
    }
    line("read_gunzip", read)
    line("decode_all_layers", decodeAll, ",\"features\":\(features)")
    line("decode_style_layers", decodeStyle)
    line("paint_512_scale1", paint1)
    line("paint_512_scale2", paint2)
    line("read_decode_paint_512", both, ",\"target_ms\":15")
    line("label_candidates", labels)
    line("loader_tile_total", loader)

    // A cached tile on screen: blit + scale a ready 512-px image into a 1280×800 frame.
    guard let tile = try? MVTDecoder.decode(first, layers: wanted) else { return }
    let image = painter.render(tile, zoom: tileID.z)
    let frame = ImageSurface(width: 1280, height: 800, scale: 1, opaque: true)
    var bilinear: [Double] = []
    frame.withContext { cr in
        for r in 0..<(runs * 10) {
            let zoomFrac = 1 + Double(r % 10) / 10 * 0.4  // 1.0 … 1.36: a fractional zoom between levels
            let t = threadCPUMs()
            TileImageDrawing.draw(image, x: 300.5 + Double(r % 7), y: 150.25, size: 512 * zoomFrac, in: cr)
            cairo_surface_flush(frame.surface)
            bilinear.append(threadCPUMs() - t)
        }
    }
    line("cached_tile_scaled_bilinear", bilinear)
    // At rest at a fractional zoom, as the window draws once the zoom stays (panning by fractions
    // of a pixel): the tile is resampled on the first frame at that zoom, then copied 1:1.
    let resampled = TileResampleCache()
    var steady: [Double] = [], firstAtZoom: [Double] = []
    frame.withContext { cr in
        for r in 0..<(runs * 10) {
            let zoomFrac = 1.02 + Double(r / 10 % 10) / 10 * 0.4
            let t = threadCPUMs()
            TileImageDrawing.draw(image, x: 300.5 + Double(r % 7) * 0.3, y: 150.25, size: 512 * zoomFrac, resampled: resampled, in: cr)
            resampled.endFrame()
            cairo_surface_flush(frame.surface)
            if r % 10 == 0 { firstAtZoom.append(threadCPUMs() - t) } else { steady.append(threadCPUMs() - t) }
        }
    }
    line("cached_tile_fractional_zoom_at_rest", steady, ",\"target_ms\":1")
    line("cached_tile_fractional_zoom_first_frame", firstAtZoom)
    // During a zoom animation (`TileMapLayer.draw`: the zoom changed since the last frame).
    var animating: [Double] = []
    frame.withContext { cr in
        for r in 0..<(runs * 10) {
            let zoomFrac = 1 + Double(r % 10) / 10 * 0.4
            let t = threadCPUMs()
            TileImageDrawing.draw(image, x: 300.5 + Double(r % 7), y: 150.25, size: 512 * zoomFrac, smooth: false, in: cr)
            cairo_surface_flush(frame.surface)
            animating.append(threadCPUMs() - t)
        }
    }
    line("cached_tile_on_screen", animating, ",\"target_ms\":1")
    // At rest: the map sits at the tile's own zoom, so the tile is copied 1:1 at whole pixels.
    var atRest: [Double] = []
    frame.withContext { cr in
        for r in 0..<(runs * 10) {
            let t = threadCPUMs()
            TileImageDrawing.draw(image, x: Double(100 + r % 7), y: 150, size: 512, in: cr)
            cairo_surface_flush(frame.surface)
            atRest.append(threadCPUMs() - t)
        }
    }
    line("cached_tile_at_rest", atRest, ",\"target_ms\":1")
    if let dir = pngDirectory {
        try? image.writePNG(to: dir.appendingPathComponent("tile-\(tileID.z)-\(tileID.x)-\(tileID.y).png"))
        try? frame.writePNG(to: dir.appendingPathComponent("tile-frame.png"))
    }
}
