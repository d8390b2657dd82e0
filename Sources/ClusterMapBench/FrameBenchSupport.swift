import CCairo
import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel
import MapRender
import Tiles

// What the `basemap` and `frame` benchmarks share: their options, the cameras' centres, clocks,
// percentiles, and loading the bundled base maps and labels.

struct BenchOptions {
    var width = 1280.0
    var height = 800.0
    var scale = 1.0
    var frames = 120
    var pngDirectory: URL?
    var zooms: [Double] = [1, 4, 6, 8, 11]
    /// `--one-core`: the drawing thread alone (no band helper), for before/after comparisons.
    var oneCore = false
    /// `--no-poll`: the band helper sleeps between a frame's jobs (see `BandHelper`).
    var noPoll = false
    /// `--bilinear`: magnified tiles bilinear during zoom animations too.
    var bilinear = false
    /// `--slow-frames MS`: `frame` prints the phases of every frame over MS of drawing-thread CPU.
    var slowFrameMs: Double?

    init(_ args: [String]) {
        var i = 0
        while i < args.count {
            let a = args[i], next = i + 1 < args.count ? args[i + 1] : nil
            switch a {
            case "--scale": if let v = next.flatMap(Double.init) { scale = v }; i += 1
            case "--one-core": oneCore = true
            case "--no-poll": noPoll = true
            case "--bilinear": bilinear = true
            case "--slow-frames": if let v = next.flatMap(Double.init) { slowFrameMs = v }; i += 1
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

let benchCentres: [(name: String, coordinate: GeoCoordinate)] = [
    ("europe", GeoCoordinate(latitude: 50, longitude: 10)),
    ("us", GeoCoordinate(latitude: 39, longitude: -98)),
    ("east_asia", GeoCoordinate(latitude: 33, longitude: 125)),
]

func nowMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e6 }

func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let s = values.sorted()
    return s[min(s.count - 1, Int((Double(s.count - 1) * p).rounded()))]
}

/// CPU time of the calling thread (not counting time other processes had the core), ms.
func threadCPUMs() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}

func fmt(_ v: Double) -> String { String(format: "%.3f", v) }

/// The repo's data folder: $CLUSTERMAP_DATA_DIR, or walking up from the executable or the cwd.
func benchDataDirectory() -> URL? {
    let found = DataDirectory.locate()
        ?? DataDirectory.locate(executablePath: FileManager.default.currentDirectoryPath + "/clustermap-bench")
    return found.map { URL(fileURLWithPath: $0) }
}

func loadMaps(report: Bool) -> (BaseMap, BaseMap, BaseMap)? {
    guard let dir = benchDataDirectory() else {
        print(#"{"bench":"basemap","error":"data/basemap not found; set CLUSTERMAP_DATA_DIR"}"#)
        return nil
    }
    var maps: [BaseMap.Level: BaseMap] = [:]
    for level in BaseMap.Level.allCases {
        var times: [Double] = []
        for _ in 0..<(level == .fine ? 2 : 5) {
            let t0 = nowMs()
            guard let m = try? BaseMap.load(level: level, dataDirectory: dir) else {
                print(#"{"bench":"basemap_load","error":"can't load \#(level.rawValue)"}"#)
                return nil
            }
            times.append(nowMs() - t0)
            maps[level] = m
        }
        if report, let m = maps[level] {
            func count(_ m: BaseMap) -> Int {
                m.land.vertexCount + m.lakes.vertexCount + m.coastlines.vertexCount + m.borders.vertexCount + m.rivers.vertexCount
            }
            let vertices = count(m)
            let t0 = nowMs()
            let bands = m.standardZoomBands()
            let bandVertices = bands.keys.sorted().map { "\"z\($0)\":\(count(bands[$0]!))" }.joined(separator: ",")
            print(#"{"bench":"basemap_bands","level":"\#(level.rawValue)","ms":\#(fmt(nowMs() - t0)),"vertices":{\#(bandVertices)}}"#)
            print(#"{"bench":"basemap_load","level":"\#(level.rawValue)","median_ms":\#(fmt(percentile(times, 0.5))),"#
                + #""min_ms":\#(fmt(times.min()!)),"first_ms":\#(fmt(times[0])),"vertices":\#(vertices)}"#)
        }
    }
    return (maps[.coarse]!, maps[.detailed]!, maps[.fine]!)
}

/// The base-map labels and the time they take to load.
func loadLabels() -> MapLabelIndex {
    guard let dir = benchDataDirectory() else { return .empty }
    let t0 = nowMs()
    let index = (try? BaseMapLabelSource.load(dataDirectory: dir)) ?? .empty
    print(#"{"bench":"labels_load","candidates":\#(index.count),"ms":\#(fmt(nowMs() - t0))}"#)
    return index
}

/// `frame --modes label_measure`: measuring label texts for placement, as at a zoom seen for the
/// first time (3,000 candidates spread over the index, each text new to the renderer).
func benchLabelMeasuring(_ index: MapLabelIndex) {
    guard index.count > 0 else { return }
    let renderer = MapLabelRenderer()
    let step = max(1, index.count / 3000)
    let picked = Swift.stride(from: 0, to: index.count, by: step).map { index.candidates[$0] }
    let c0 = threadCPUMs()
    var width = 0.0
    for c in picked { width += renderer.size(of: c.text, kind: c.kind).width }
    let ms = threadCPUMs() - c0
    print(#"{"bench":"label_measure","texts":\#(picked.count),"cpu_ms":\#(fmt(ms)),"#
        + #""us_per_text":\#(fmt(ms * 1000 / Double(picked.count))),"total_width":\#(fmt(width))}"#)
}
