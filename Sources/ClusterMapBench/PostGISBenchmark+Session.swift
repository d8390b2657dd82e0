import ClusterCore
import Foundation
import PostGIS

/// `clustermap-bench postgis ADDRESS --session`: SPEC §8's PostGIS row as a user meets it — a
/// 1280×800 window opens on the world at zoom 1, pans, then zooms in step by step towards Paris
/// to zoom 12 with three pans at each zoom and two zoom-outs on the way. Each camera step goes
/// through what the window does: `PostGISViewPlanner` (a pan inside the box already asked for
/// asks nothing), the view queue's cache of 32 views, then the source's query. Timed per step,
/// camera change → clustered result; the first view is reported apart from the session's median,
/// p90 and max (all steps, and the steps that asked the server). RSS at start and end.
struct PostGISSession {
    /// One camera position: centre and zoom.
    struct Step { let latitude: Double, longitude: Double, zoom: Double }

    /// The steps: world, pans, then zooms 2…12 towards Paris, each followed by three pans of half a
    /// view; after zoom 6 out to 4 and back, after zoom 10 out to 8 and back.
    static func steps() -> [Step] {
        let target = (lat: 48.85, lon: 2.35)
        var (lat, lon) = (20.0, 0.0)
        var steps: [Step] = []
        func pans(_ z: Double) {
            // Half a view east, south, then west (in degrees at this zoom; Mercator y near enough).
            let w = 1280 * 360 / (256 * pow(2, z)), h = 800 * 360 / (256 * pow(2, z)) * cos(lat * .pi / 180)
            for (dx, dy) in [(0.5, 0.0), (0.0, -0.5), (-0.5, 0.0)] {
                lon += dx * w
                lat = max(-80, min(80, lat + dy * h))
                steps.append(Step(latitude: lat, longitude: lon, zoom: z))
            }
        }
        steps.append(Step(latitude: lat, longitude: lon, zoom: 1))
        pans(1)
        for z in 2...12 {
            lat += (target.lat - lat) / 2
            lon += (target.lon - lon) / 2
            steps.append(Step(latitude: lat, longitude: lon, zoom: Double(z)))
            pans(Double(z))
            if z == 6 || z == 10 {
                for back in [Double(z - 1), Double(z - 2), Double(z - 1), Double(z)] {
                    steps.append(Step(latitude: lat, longitude: lon, zoom: back))
                }
            }
        }
        return steps
    }

    /// The visible box of a 1280×800 view at a step.
    static func visible(_ s: Step) -> GeoBounds {
        let world = 256 * pow(2, s.zoom)
        let (cx, cy) = WebMercator.project(GeoCoordinate(latitude: s.latitude, longitude: s.longitude))
        let n = max(0, cy - 400 / world), south = min(1, cy + 400 / world)
        return GeoBounds(west: WebMercator.longitude(x: cx - 640 / world), south: WebMercator.latitude(y: south),
                         east: WebMercator.longitude(x: cx + 640 / world), north: WebMercator.latitude(y: n))
    }

    /// Runs the session on `source` and prints one JSON line labelled `label`.
    static func run(_ source: PostGISSource, label: String, options: PostGISViewOptions = PostGISViewOptions()) throws {
        source.forgetAggregates()
        let rssStart = residentMegabytes()
        var planner = PostGISViewPlanner()
        var cache: [PostGISViewQueue.View] = []
        var all: [Double] = [], asked: [Double] = [], trace: [String] = []
        for step in steps() {
            let start = DispatchTime.now().uptimeNanoseconds
            var what = "kept"
            if let view = planner.viewToRequest(visible: visible(step), zoom: step.zoom) {
                if let at = cache.firstIndex(of: view) {
                    cache.remove(at: at)
                    what = "cache"
                } else {
                    let r = try source.clusters(in: view.bounds, zoom: Double(view.zoom), options: options)
                    switch r.method {
                    case .fetched: what = "fetched"
                    case .aggregated: what = "cells"
                    case .pyramid: what = "pyramid"
                    }
                    if cache.count == 32 { cache.removeFirst() }
                }
                cache.append(view)
            }
            let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
            all.append(ms)
            if what != "kept" && what != "cache" { asked.append(ms) }
            trace.append("[\(Int(step.zoom)),\"\(what)\",\(String(format: "%.1f", ms))]")
        }
        func pct(_ v: [Double], _ p: Double) -> String {
            guard !v.isEmpty else { return "null" }
            let s = v.sorted()
            return String(format: "%.1f", s[min(s.count - 1, Int((Double(s.count) * p).rounded(.up)) - 1)])
        }
        let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
        print("{\"bench\":\"postgis_session_\(label)\",\"steps\":\(all.count),\"queries\":\(asked.count),"
              + "\"first_ms\":\(String(format: "%.1f", all[0])),\"median_ms\":\(pct(all, 0.5)),\"p90_ms\":\(pct(all, 0.9)),"
              + "\"max_ms\":\(pct(all, 1)),\"after_first\":{\"median_ms\":\(pct(Array(all.dropFirst()), 0.5)),"
              + "\"p90_ms\":\(pct(Array(all.dropFirst()), 0.9)),\"max_ms\":\(pct(Array(all.dropFirst()), 1))},"
              + "\"queries_median_ms\":\(pct(asked, 0.5)),\"queries_p90_ms\":\(pct(asked, 0.9)),"
              + "\"rss_start_mb\":\(rssStart),\"rss_end_mb\":\(residentMegabytes()),\"load\":\"\(load)\","
              + "\"steps_zoom_how_ms\":[\(trace.joined(separator: ","))]}")
    }
}

/// The sessions `--session` asks for: without the pyramid (with `--compare-keys`, first with each row
/// projected to find its cell), then with `--build-pyramid` the pyramid's build and the session with it.
func runPostGISSessions(_ source: PostGISSource, _ args: [String]) throws {
    if args.contains("--compare-keys") {
        var projected = PostGISViewOptions()
        projected.findsCellsByEdges = false
        try PostGISSession.run(source, label: "no_pyramid_projected", options: projected)
    }
    try PostGISSession.run(source, label: "no_pyramid")
    guard args.contains("--build-pyramid") else { return }
    let start = Date()
    let cells = try PostGISPyramid.build(for: source)
    print("{\"bench\":\"postgis_pyramid_build\",\"seconds\":\(String(format: "%.2f", Date().timeIntervalSince(start))),\"cells\":\(cells.reduce(0, +))}")
    try PostGISSession.run(source, label: "pyramid")
}

/// Resident memory of this process in MB.
func residentMegabytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = Int(s.split(separator: " ")[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}
