import CCairo
import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel
import MapRender
import Tiles

// `clustermap-bench basemap`: base-map load times and per-frame draw times for a 1280×800 frame,
// one JSON line per measurement. Modes: "static" draws the same camera again and again (the window
// at rest: cached tiles are blitted); "panning" moves the centre a few pixels per frame (a drag:
// tiles scrolling into view are rendered); "direct" draws without the tile cache (a first draw at a
// new zoom).

/// Wall-clock and thread-CPU milliseconds per frame (CPU time stays honest when other processes
/// share the cores).
/// Returns wall, drawing-thread CPU and band-helper CPU per frame (see `BandHelper`).
func measure(_ renderer: MapFrameRenderer, cameras: [Camera], into image: ImageSurface) -> ([Double], [Double], [Double]) {
    var times: [Double] = [], cpu: [Double] = [], helper: [Double] = []
    times.reserveCapacity(cameras.count)
    image.withContext { cr in
        for cam in cameras {
            let h0 = BandHelper.shared.cpuMilliseconds
            let c0 = threadCPUMs(), t0 = nowMs()
            renderer.draw(in: cr, camera: cam)
            times.append(nowMs() - t0)
            cpu.append(threadCPUMs() - c0)
            helper.append(BandHelper.shared.cpuMilliseconds - h0)
        }
    }
    return (times, cpu, helper)
}

func runFrameBenchmarks(_ options: BenchOptions, bench: String, zooms: [Double], reportLoad: Bool) {
    guard let (coarse, detailed, fine) = loadMaps(report: reportLoad) else { return }
    let bands = (detailed.standardZoomBands(), fine.standardZoomBands())
    let size = ScreenSize(width: options.width, height: options.height)
    let image = ImageSurface(width: Int(size.width), height: Int(size.height), scale: options.scale)
    for zoom in zooms {
        for palette in [MapPalette.light] {
            for (name, centre) in benchCentres {
                let start = Camera(center: centre, zoom: zoom, viewportSize: size)
                var panning: [Camera] = []
                var cam = start
                for _ in 0..<options.frames { cam.pan(by: -9, 4); panning.append(cam) }
                let runs: [(String, [Camera], Bool)] = [
                    ("static", Array(repeating: start, count: options.frames), true),
                    ("panning", panning, true),
                    ("direct", Array(repeating: start, count: max(10, options.frames / 4)), false),
                ]
                for (mode, cameras, cached) in runs {
                    let renderer = MapFrameRenderer(coarse: coarse, palette: palette)
                    renderer.baseMap.setBaseMap(detailed, bands: bands.0)
                    renderer.baseMap.setBaseMap(fine, bands: bands.1)
                    renderer.baseMap.usesTileCache = cached
                    renderer.baseMap.usesBothCores = !options.oneCore
                    let (times, cpu, helper) = measure(renderer, cameras: cameras, into: image)
                    print(#"{"bench":"\#(bench)","mode":"\#(mode)","zoom":\#(zoom),"center":"\#(name)","#
                        + #""width":\#(Int(size.width)),"height":\#(Int(size.height)),"scale":\#(options.scale),"#
                        + #""frames":\#(times.count),"median_ms":\#(fmt(percentile(times, 0.5))),"#
                        + #""p95_ms":\#(fmt(percentile(times, 0.95))),"max_ms":\#(fmt(times.max() ?? .nan)),"#
                        + #""first_ms":\#(fmt(times.first ?? .nan)),"cpu_median_ms":\#(fmt(percentile(cpu, 0.5))),"#
                        + #""cpu_p95_ms":\#(fmt(percentile(cpu, 0.95))),"helper_cpu_median_ms":\#(fmt(percentile(helper, 0.5)))}"#)
                    fflush(nil)
                    if mode == "static", let dir = options.pngDirectory {
                        try? image.writePNG(to: dir.appendingPathComponent("\(bench)-z\(zoom)-\(name).png"))
                    }
                }
            }
        }
    }
}

/// `clustermap-bench basemap [--scale S] [--frames N] [--size WxH] [--zooms 1,4,8] [--png DIR]`.
func runBaseMapBenchmark(_ args: [String]) {
    let options = BenchOptions(args)
    runFrameBenchmarks(options, bench: "basemap", zooms: options.zooms, reportLoad: true)
}
