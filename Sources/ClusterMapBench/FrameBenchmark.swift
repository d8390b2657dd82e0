import ClusterCore
import Foundation
import GeoData
import MapModel
import MapRender

// `clustermap-bench basemap` and `clustermap-bench frame`: base-map load times and per-frame draw
// times for a 1280×800 frame, one JSON line per measurement.
//
// Modes: "static" draws the same camera again and again (the window at rest: cached tiles are
// blitted); "panning" moves the centre a few pixels per frame (a drag: tiles scrolling into view are
// rendered); "direct" draws without the tile cache (what every frame of a zoom animation costs).

private struct BenchOptions {
    var width = 1280.0
    var height = 800.0
    var scale = 1.0
    var frames = 120
    var pngDirectory: URL?
    var zooms: [Double] = [1, 4, 8]

    init(_ args: [String]) {
        var i = 0
        while i < args.count {
            let a = args[i], next = i + 1 < args.count ? args[i + 1] : nil
            switch a {
            case "--scale": if let v = next.flatMap(Double.init) { scale = v }; i += 1
            case "--frames": if let v = next.flatMap(Int.init) { frames = max(5, v) }; i += 1
            case "--png": if let v = next { pngDirectory = URL(fileURLWithPath: v) }; i += 1
            case "--zooms": if let v = next { zooms = v.split(separator: ",").compactMap { Double($0) } }; i += 1
            case "--size":
                if let v = next {
                    let p = v.split(separator: "x").compactMap { Double($0) }
                    if p.count == 2 { width = p[0]; height = p[1] }
                }
                i += 1
            default: break
            }
            i += 1
        }
    }
}

private let benchCentres: [(name: String, coordinate: GeoCoordinate)] = [
    ("europe", GeoCoordinate(latitude: 50, longitude: 10)),
    ("us", GeoCoordinate(latitude: 39, longitude: -98)),
    ("east_asia", GeoCoordinate(latitude: 33, longitude: 125)),
]

private func nowMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

private func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}

private func fmt(_ v: Double) -> String { String(format: "%.3f", v) }

/// The repo's data folder: $CLUSTERMAP_DATA_DIR, or walking up from the executable or the cwd.
private func benchDataDirectory() -> URL? {
    let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    return BaseMapLocation.dataDirectory(searchingUpFrom: exe)
        ?? BaseMapLocation.dataDirectory(searchingUpFrom: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
}

private func loadMaps(report: Bool) -> (BaseMap, BaseMap)? {
    guard let dir = benchDataDirectory() else {
        print(#"{"bench":"basemap","error":"data/basemap not found; set CLUSTERMAP_DATA_DIR"}"#)
        return nil
    }
    var maps: [BaseMap.Level: BaseMap] = [:]
    for level in BaseMap.Level.allCases {
        var times: [Double] = []
        for _ in 0..<5 {
            let t0 = nowMs()
            guard let m = try? BaseMap.load(level: level, dataDirectory: dir) else {
                print(#"{"bench":"basemap_load","error":"can't load \#(level.rawValue)"}"#)
                return nil
            }
            times.append(nowMs() - t0)
            maps[level] = m
        }
        if report, let m = maps[level] {
            let vertices = m.land.vertexCount + m.lakes.vertexCount + m.coastlines.vertexCount + m.borders.vertexCount
            print(#"{"bench":"basemap_load","level":"\#(level.rawValue)","median_ms":\#(fmt(percentile(times, 0.5))),"#
                + #""min_ms":\#(fmt(times.min()!)),"first_ms":\#(fmt(times[0])),"vertices":\#(vertices)}"#)
        }
    }
    return (maps[.coarse]!, maps[.detailed]!)
}

private func measure(_ renderer: MapFrameRenderer, cameras: [Camera], into image: ImageSurface) -> [Double] {
    var times: [Double] = []
    times.reserveCapacity(cameras.count)
    image.withContext { cr in
        for cam in cameras {
            let t0 = nowMs()
            renderer.draw(in: cr, camera: cam)
            times.append(nowMs() - t0)
        }
    }
    return times
}

private func runFrameBenchmarks(_ options: BenchOptions, bench: String, zooms: [Double], reportLoad: Bool) {
    guard let (coarse, detailed) = loadMaps(report: reportLoad) else { return }
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
                    let renderer = MapFrameRenderer(coarse: coarse, detailed: detailed, palette: palette)
                    renderer.baseMap.usesTileCache = cached
                    let times = measure(renderer, cameras: cameras, into: image)
                    print(#"{"bench":"\#(bench)","mode":"\#(mode)","zoom":\#(zoom),"center":"\#(name)","#
                        + #""width":\#(Int(size.width)),"height":\#(Int(size.height)),"scale":\#(options.scale),"#
                        + #""frames":\#(times.count),"median_ms":\#(fmt(percentile(times, 0.5))),"#
                        + #""p95_ms":\#(fmt(percentile(times, 0.95))),"max_ms":\#(fmt(times.max() ?? .nan)),"#
                        + #""first_ms":\#(fmt(times.first ?? .nan))}"#)
                    fflush(nil)
                    if mode == "static", let dir = options.pngDirectory {
                        try? image.writePNG(to: dir.appendingPathComponent("\(bench)-z\(zoom)-\(name).png"))
                    }
                }
            }
        }
    }
}

/// `clustermap-bench frame`: for now the base map at zoom 4 (bubbles and a callout come later).
func runFrameBenchmark(_ args: [String]) {
    let options = BenchOptions(args)
    runFrameBenchmarks(options, bench: "frame", zooms: [4], reportLoad: false)
}

/// `clustermap-bench basemap [--scale S] [--frames N] [--size WxH] [--zooms 1,4,8] [--png DIR]`.
func runBaseMapBenchmark(_ args: [String]) {
    let options = BenchOptions(args)
    runFrameBenchmarks(options, bench: "basemap", zooms: options.zooms, reportLoad: true)
}
