import CCairo
import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel
import MapRender
import Tiles

// `clustermap-bench frame`: whole frames — base map, the scene (bubbles, pins, a callout) and
// labels — at rest, panning and in a zoom animation; see `runFrameBenchmark`.

/// `items` visible marks spread over the viewport: about 60 % bubbles (counts from 2 to ~50k, so
/// all three steps and labels like `7`, `312`, `1.2k`, `15k`), 40 % pins in six category colours,
/// a quarter of them with a price capsule; one selected pin with an open callout.
private func benchScene(items: Int, size: ScreenSize) -> Scene {
    var rng = SeededRandom(seed: 42)
    var scene = Scene()
    let style = BubbleStyle()
    let colors: [UInt32] = [0x2F78C2, 0xD6336C, 0x2B8A3E, 0xF08C00, 0x7048E8, 0x1098AD]
    for n in 0..<items {
        let p = ScreenPoint(x: rng.unit() * size.width, y: rng.unit() * size.height)
        if rng.unit() < 0.6 {
            let count = max(2, Int(exp(rng.unit() * 10.8)))
            scene.bubbles.append(SceneBubble(id: .cluster(n), center: p, radius: style.radius(forCount: count),
                                             count: count, label: abbreviatedCount(count), step: style.step(forCount: count)))
        } else {
            let label: String? = rng.unit() < 0.25 ? "$\(40 + Int(rng.unit() * 260))" : nil
            scene.pins.append(ScenePin(id: .point(n), pointIndex: n, center: p, name: "Place \(n)", label: label,
                                       color: colors[Int(rng.unit() * Double(colors.count)) % colors.count]))
        }
    }
    var selected = ScenePin(id: .point(items), pointIndex: items,
                            center: ScreenPoint(x: size.width / 2, y: size.height / 2 + 60),
                            name: "Rooftop Loft", label: "$120", color: colors[0])
    selected.isSelected = true
    scene.pins.append(selected)
    let title = "Rooftop Loft with a terrace over the river"
    let lines = ["$120 per night", "A bright loft under the roof of an old building, five minutes from the tram stop.",
                 "rooms: 2", "rating: 4.9", "host: Ana"]
    let box = CalloutMeasurer.size(title: title, lines: lines, maxWidth: 280)
    scene.callout = SceneCallout(pointIndex: items, frame: CalloutPlacement.frame(above: selected.center, size: box),
                                 anchor: selected.center, title: title, lines: lines)
    return scene
}

/// The scene moved by (dx, dy) and scaled by `k` about `pivot` (what the app's scene does when
/// the camera pans or zooms; the callout keeps its size).
private func transformed(_ scene: Scene, dx: Double, dy: Double, k: Double, pivot: ScreenPoint) -> Scene {
    func t(_ p: ScreenPoint) -> ScreenPoint {
        ScreenPoint(x: pivot.x + (p.x - pivot.x) * k + dx, y: pivot.y + (p.y - pivot.y) * k + dy)
    }
    var s = scene
    for i in s.bubbles.indices { s.bubbles[i].center = t(s.bubbles[i].center) }
    for i in s.pins.indices { s.pins[i].center = t(s.pins[i].center) }
    if var c = s.callout {
        let a = t(c.anchor)
        c.frame.x += a.x - c.anchor.x
        c.frame.y += a.y - c.anchor.y
        c.anchor = a
        s.callout = c
    }
    return s
}

/// `clustermap-bench frame [--items N] [--scale S] [--frames F] [--png DIR] [--modes a,b] [--one-core] [--no-poll]
/// [--bilinear] [--tiles FILE] [--layer-min-marks N] [--layer-max-scale S] [--no-rest-layer]`: whole frames —
/// base map, N visible items (default 1,500) and a callout at 1280×800 — for a static camera,
/// panning, and a zoom animation (the fractional zoom changes every frame: in by two levels and
/// out again, drawn with `isAnimating: true` as the app does). `zoom_at_rest` draws the same
/// animation as if at rest (every frame a direct paint), for comparison.
func runFrameBenchmark(_ args: [String]) {
    let options = BenchOptions(args)
    BandHelper.shared.pollsDuringFrames = !options.noPoll
    var items = 1500
    if let i = args.firstIndex(of: "--items"), i + 1 < args.count, let v = Int(args[i + 1]) { items = max(0, v) }
    // `--modes zoom_animation,panning`: only these (e.g. to profile one).
    var onlyModes: Set<String> = []
    if let i = args.firstIndex(of: "--modes"), i + 1 < args.count { onlyModes = Set(args[i + 1].split(separator: ",").map(String.init)) }
    // `--tiles FILE.mbtiles|FILE.pmtiles`: the same frames over a street map from a tile file
    // (only over its centre), its tiles painted between frames as the window's loader threads do.
    var tiles: TileMapLayer?
    if let i = args.firstIndex(of: "--tiles"), i + 1 < args.count {
        do { tiles = try TileMapLayer(path: args[i + 1]) } catch { benchFail("\(error)") }
    }
    let size = ScreenSize(width: options.width, height: options.height)
    let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: options.scale)
    let scene = benchScene(items: items, size: size)
    let pivot = ScreenPoint(x: size.width / 2, y: size.height / 2)
    let frames = options.frames
    // The scene alone (sprites, capsules, callout), on a cleared image (`--modes scene_only`: only this).
    let sceneOnly = SceneRenderer()
    sceneOnly.usesBothCores = !options.oneCore
    var sceneTimes: [Double] = [], sceneCPU: [Double] = [], sceneHelper: [Double] = []
    image.withContext { cr in
        for _ in 0..<frames {
            cairo_set_source_rgb(cr, 0.9, 0.9, 0.9)
            cairo_paint(cr)
            let h0 = BandHelper.shared.cpuMilliseconds
            let c0 = threadCPUMs(), t0 = nowMs()
            sceneOnly.draw(scene, in: cr, palette: .light)
            sceneTimes.append(nowMs() - t0)
            sceneCPU.append(threadCPUMs() - c0)
            sceneHelper.append(BandHelper.shared.cpuMilliseconds - h0)
        }
    }
    print(#"{"bench":"frame","mode":"scene_only","items":\#(items),"scale":\#(options.scale),"#
        + #""median_ms":\#(fmt(percentile(sceneTimes, 0.5))),"p95_ms":\#(fmt(percentile(sceneTimes, 0.95))),"#
        + #""cpu_median_ms":\#(fmt(percentile(sceneCPU, 0.5))),"helper_cpu_median_ms":\#(fmt(percentile(sceneHelper, 0.5)))}"#)
    fflush(nil)
    if onlyModes == ["scene_only"] { return }
    guard let (coarse, detailed, fine) = loadMaps(report: false) else { return }
    let labels = loadLabels()
    if onlyModes.contains("label_measure") { benchLabelMeasuring(labels) }
    // Zoom 4 over Europe and the US (1:50m → 1:10m during the zoom animation), and zoom 8 over
    // Paris (1:10m, rivers, dense town names).
    var places = benchCentres.prefix(2).map { ($0.name, $0.coordinate, 4.0) }
        + [("paris", GeoCoordinate(latitude: 48.85, longitude: 2.35), 8.0)]
    if let tiles {
        // `--at LAT,LON` (default: the file's centre, else the middle of its bounds), a little past
        // the source's deepest zoom, so that the zoom animation runs over over-zoomed tiles.
        var centre = GeoCoordinate(latitude: 0, longitude: 0)
        if let meta = tiles.source?.metadata {
            if let c = meta.center {
                centre = GeoCoordinate(latitude: c.latitude, longitude: c.longitude)
            } else if let b = meta.bounds {
                centre = GeoCoordinate(latitude: (b.south + b.north) / 2, longitude: (b.west + b.east) / 2)
            }
        }
        if let i = args.firstIndex(of: "--at"), i + 1 < args.count {
            let p = args[i + 1].split(separator: ",").compactMap { Double($0) }
            guard p.count == 2 else { benchFail("--at wants LAT,LON") }
            centre = GeoCoordinate(latitude: p[0], longitude: p[1])
        }
        places = [("tiles", centre, Double(tiles.maxZoom) + 0.3)]
    }
    for (name, centre, startZoom) in places {
        let start = Camera(center: centre, zoom: startZoom, viewportSize: size)
        // A nil scene: the world's scene for the camera (`BenchWorld`).
        typealias Frame = (camera: Camera, scene: Scene?, animating: Bool)
        let world = BenchWorld(items: items, around: start, travel: ScreenPoint(x: 9 * Double(frames), y: -4 * Double(frames)),
                               selected: scene.pins.last!, callout: scene.callout!)
        var runs: [(String, [Frame])] = []
        runs.append(("static", Array(repeating: (start, scene, false), count: frames)))
        // Panning as the window pans: the items stay where they are in the world and the camera
        // moves over them (9 px left and 4 px down a frame): items leave at one edge and new ones
        // come in at the other. `panning` draws through the pan layer as the window does;
        // `panning_direct` draws the same frames without it (every frame composited).
        var panning: [Frame] = []
        var cam = start
        for _ in 0..<frames {
            cam.pan(by: -9, 4)
            panning.append((cam, nil, true))
        }
        runs.append(("panning", panning))
        runs.append(("panning_direct", panning))
        var zooming: [Frame] = []
        for n in 0..<frames {
            // 4 → 6 → 4 with an ease, a new fractional zoom every frame.
            let u = Double(n) / Double(max(1, frames - 1))
            let dz = 2 * (0.5 - 0.5 * cos(2 * .pi * u))
            var c = start
            c.setZoom(startZoom + dz)
            zooming.append((c, transformed(scene, dx: 0, dy: 0, k: exp2(dz), pivot: pivot), true))
        }
        runs.append(("zoom_animation", zooming))
        runs.append(("zoom_at_rest", zooming.map { ($0.camera, $0.scene, false) }))
        for (mode, list) in runs where onlyModes.isEmpty || onlyModes.contains(mode) {
            let renderer = MapFrameRenderer(coarse: coarse, detailed: detailed, fine: fine, palette: .light)
            renderer.baseMap.drawProgressivelyAtRest()  // as the window draws
            renderer.baseMap.usesBothCores = !options.oneCore
            renderer.baseMap.nearestWhileZooming = !options.bilinear
            // As the window: missing tiles render on a background thread between frames, which
            // come at most every 16.7 ms (the display's pace); the times are the drawing thread's.
            let worker = BaseMapTileWorker()
            renderer.baseMap.renderTiles(with: worker)
            defer { worker.stop() }
            let overlay = SceneRenderer()
            overlay.usesBothCores = !options.oneCore
            let layer = PanLayer(sceneRenderer: overlay)
            // As the window: no layer over a street map (its names come with its tiles).
            if mode == "panning_direct" || tiles != nil { layer.margin = 0 }
            // `--layer-min-marks N`: the layer's threshold (marks per megapixel of view), to find
            // where it pays.
            if let i = args.firstIndex(of: "--layer-min-marks"), i + 1 < args.count, let v = Double(args[i + 1]) {
                layer.minimumMarksPerMegapixel = v
            }
            // `--layer-max-scale S`: the largest device scale the layer is used at.
            if let i = args.firstIndex(of: "--layer-max-scale"), i + 1 < args.count, let v = Double(args[i + 1]) { layer.maxScale = v }
            renderer.setOverlays([layer])
            if let tiles { renderer.addOverlayUnderneath(tiles) }
            let layout = MapLabelLayout(index: labels)
            // As the window does every frame: the labels for the camera, clear of the marks.
            func labelled(_ scene: Scene, _ camera: Camera, animating: Bool = false) -> Scene {
                var s = scene
                if let tiles { layout.setOverlay(tiles.labelOverlay(for: camera, margin: layout.margin)) }
                s.labels = layout.labels(for: camera, isAnimating: animating, measuredBy: overlay.labelRenderer)
                s.dropLabelsUnderMarks()
                return s
            }
            let fromWorld = list.first.map { $0.scene == nil } ?? false
            overlay.setScene(labelled(fromWorld ? world.scene(for: start) : scene, start))
            _ = layer.prepare(camera: start, scale: options.scale, content: 1, moving: false)
            // Warm-up at rest: the window was showing the map, settled on exact tiles, before the
            // interaction (on a busy machine the worker's tiles take a while; wait up to 10 s).
            tiles?.loadSynchronously(camera: start, scale: options.scale, dark: false)
            image.withContext { cr in
                let deadline = nowMs() + 10_000
                repeat {
                    renderer.draw(in: cr, camera: start)
                    if renderer.lastFrameWasExact { break }
                    Thread.sleep(forTimeInterval: 0.02)
                } while nowMs() < deadline
            }
            // As the window: at rest, in idle time, the layer a pan starts from is drawn around the
            // view (`PanLayer.restStep`, a band per idle call). Not timed: no frame waits for it.
            var restSteps = 0, restCPU = 0.0
            let r0 = threadCPUMs()
            while !args.contains("--no-rest-layer"), layer.restStep(camera: start, content: 1, palette: .light, build: { labelled(world.scene(for: $0), $0) }) {
                restSteps += 1
            }
            restCPU = threadCPUMs() - r0
            var times: [Double] = [], cpu: [Double] = [], labelCPU: [Double] = [], helperCPU: [Double] = []
            var baseCPU: [Double] = [], overlayCPU: [Double] = [], chromeCPU: [Double] = []
            var wakeMs: [Double] = [], waitMs: [Double] = [], pollCPU: [Double] = []
            var drawnItems = 0
            var copies = 0
            var tilesBefore = renderer.baseMap.inFrameTileCount, directBefore = renderer.baseMap.directPaintCount
            var madeBefore = overlay.madeSpriteCounts
            image.withContext { cr in
                for f in list {
                    // The tiles a loader thread would have painted by now (not the drawing thread's time).
                    tiles?.loadSynchronously(camera: f.camera, scale: options.scale, dark: false)
                    let h0 = BandHelper.shared.cpuMilliseconds, w0 = BandHelper.shared.wakeMilliseconds
                    let wt0 = BandHelper.shared.waitMilliseconds, p0 = BandHelper.shared.pollMilliseconds
                    var c0 = threadCPUMs(), t0 = nowMs()
                    // As the window: the scene for the view (none when the frame copies the pan
                    // layer), then the scene of the layer drawn ahead, if one is due.
                    func built(_ sceneCamera: Camera) -> Scene {
                        var s = f.scene ?? scene
                        if f.scene == nil {
                            // The world's items for the camera: the window's query and scene builder
                            // (not timed: the old bench had its scenes made before the frames).
                            let g0 = threadCPUMs(), n0 = nowMs()
                            s = world.scene(for: sceneCamera)
                            c0 += threadCPUMs() - g0
                            t0 += nowMs() - n0
                        }
                        return labelled(s, sceneCamera, animating: f.animating)
                    }
                    if let view = layer.prepare(camera: f.camera, scale: options.scale, content: 1, moving: f.animating) {
                        layer.setScene(built(view))
                    }
                    if let ahead = layer.cameraAhead() { layer.setSceneAhead(built(ahead)) }
                    labelCPU.append(threadCPUMs() - c0)
                    renderer.draw(in: cr, camera: f.camera, isAnimating: f.animating)
                    times.append(nowMs() - t0)
                    cpu.append(threadCPUMs() - c0)
                    if case .copy = layer.mode { copies += 1 }
                    helperCPU.append(BandHelper.shared.cpuMilliseconds - h0)
                    wakeMs.append(BandHelper.shared.wakeMilliseconds - w0)
                    waitMs.append(BandHelper.shared.waitMilliseconds - wt0)
                    pollCPU.append(BandHelper.shared.pollMilliseconds - p0)
                    let phases = renderer.lastFramePhases
                    baseCPU.append(phases.baseMap)
                    overlayCPU.append(phases.overlays)
                    chromeCPU.append(phases.chrome)
                    drawnItems = max(drawnItems, overlay.lastDrawnItemCount)
                    if let slow = options.slowFrameMs, cpu.last! >= slow {
                        // `--slow-frames MS`: what a frame over MS of CPU spent its time on.
                        let tilesNow = renderer.baseMap.inFrameTileCount, directNow = renderer.baseMap.directPaintCount
                        print(#"{"slow_frame":\#(times.count - 1),"mode":"\#(mode)","center":"\#(name)","#
                            + #""ms":\#(fmt(times.last!)),"cpu_ms":\#(fmt(cpu.last!)),"labels_cpu_ms":\#(fmt(labelCPU.last!)),"#
                            + #""base_map_cpu_ms":\#(fmt(phases.baseMap)),"overlays_cpu_ms":\#(fmt(phases.overlays)),"#
                            + #""chrome_cpu_ms":\#(fmt(phases.chrome)),"helper_cpu_ms":\#(fmt(helperCPU.last!)),"#
                            + #""helper_wait_ms":\#(fmt(waitMs.last!)),"in_frame_tiles":\#(tilesNow - tilesBefore),"#
                            + #""direct_paints":\#(directNow - directBefore),"labels":\#(overlay.scene.labels.count),"#
                            + #""mark_sprites_made":\#(overlay.madeSpriteCounts.marks - madeBefore.marks),"#
                            + #""label_sprites_made":\#(overlay.madeSpriteCounts.labels - madeBefore.labels),"#
                            + #""labels_deferred":\#(overlay.labelRenderer.deferredCount),"layer_copy":\#(layer.mode != .direct),"#
                            + #""label_sprites_made_in_background":\#(overlay.labelRenderer.backgroundSpriteCount)}"#)
                    }
                    tilesBefore = renderer.baseMap.inFrameTileCount
                    madeBefore = overlay.madeSpriteCounts
                    directBefore = renderer.baseMap.directPaintCount
                    let rest = 1000 / 60 - (nowMs() - t0)
                    if rest > 0 { Thread.sleep(forTimeInterval: rest / 1000) }
                }
            }
            print(#"{"bench":"frame","mode":"\#(mode)","center":"\#(name)","items":\#(items),"drawn_items":\#(drawnItems),"#
                + #""street_tiles":\#(tiles == nil ? "false" : "true"),"#
                + #""width":\#(Int(size.width)),"height":\#(Int(size.height)),"scale":\#(options.scale),"#
                + #""frames":\#(times.count),"median_ms":\#(fmt(percentile(times, 0.5))),"#
                + #""p95_ms":\#(fmt(percentile(times, 0.95))),"max_ms":\#(fmt(times.max() ?? .nan)),"#
                + #""first_ms":\#(fmt(times.first ?? .nan)),"cpu_median_ms":\#(fmt(percentile(cpu, 0.5))),"#
                + #""cpu_p95_ms":\#(fmt(percentile(cpu, 0.95))),"sprites":\#(overlay.cachedSpriteCount),"#
                + #""labels":\#(overlay.scene.labels.count),"background_tiles":\#(worker.renderedCount),"#
                + #""in_frame_tiles":\#(renderer.baseMap.inFrameTileCount),"direct_paints":\#(renderer.baseMap.directPaintCount),"#
                + #""labels_cpu_median_ms":\#(fmt(percentile(labelCPU, 0.5))),"#
                + #""labels_cpu_p95_ms":\#(fmt(percentile(labelCPU, 0.95))),"#
                + #""helper_cpu_median_ms":\#(fmt(percentile(helperCPU, 0.5))),"#
                + #""helper_cpu_p95_ms":\#(fmt(percentile(helperCPU, 0.95))),"#
                + #""helper_wake_median_ms":\#(fmt(percentile(wakeMs, 0.5))),"helper_wait_median_ms":\#(fmt(percentile(waitMs, 0.5))),"#
                + #""helper_poll_cpu_median_ms":\#(fmt(percentile(pollCPU, 0.5))),"#
                + #""base_map_cpu_median_ms":\#(fmt(percentile(baseCPU, 0.5))),"#
                + #""overlays_cpu_median_ms":\#(fmt(percentile(overlayCPU, 0.5))),"#
                + #""chrome_cpu_median_ms":\#(fmt(percentile(chromeCPU, 0.5))),"layer_copies":\#(copies),"layer_swaps":\#(layer.swapCount),"#
                + #""rest_layer_steps":\#(restSteps),"rest_layer_cpu_ms":\#(fmt(restCPU))}"#)
            fflush(nil)
            if let dir = options.pngDirectory {
                try? image.writePNG(to: dir.appendingPathComponent("frame-\(mode)-\(name).png"))
            }
        }
    }
}
