import ClusterCore
import Foundation
import PostGIS

/// `clustermap-bench postgis ADDRESS [--build-pyramid] [--views-without N] [--no-roll-up]`: pans and zooms a 1280×800 view over a
/// PostGIS table (SPEC §8's PostGIS row): at zooms 1…15, five views each (a centre and four pans by
/// a quarter of the view), timing view → clustered result (the query and, for sparse views, the
/// in-process clustering). Prints one JSON line per mode: without the pyramid, then (with
/// `--build-pyramid`) the pyramid's build time and the same views with it. Resident memory is
/// printed after each mode: it must not grow with the table. `--views-without N` measures only the
/// first N views of each zoom without the pyramid (a whole-table GROUP BY of 10M rows takes a minute
/// on a loaded 2-core machine, and the full set of 15 views × 3 low zooms would take most of an hour).
/// `--no-roll-up` first measures the same views each asking the server for its own box.
/// `--session` runs a user's session instead (`PostGISSession`; with `--compare-keys` first with each
/// row projected, then with the cell edges; with `--build-pyramid` then with the pyramid).
/// `--first-view-ab N` only compares, N times in turn, the first world view at zoom 1 asked directly
/// with the same view answered by a fresh whole-world roll-up pass (same minute, same load).
func runPostGISBenchmark(_ args: [String]) {
    guard let address = args.first else { print("usage: clustermap-bench postgis ADDRESS [--build-pyramid]"); return }
    do {
        let source = try PostGISSource(address: address)
        if args.contains("--existing-pyramid") {
            // Only the views with the pyramid already in the database.
            guard source.pyramid != nil else { print("{\"bench\":\"postgis\",\"error\":\"no pyramid\"}"); return }
            try runViews(source, label: "pyramid")
            return
        }
        // Without the pyramid first (drop a leftover one so the figure is honest).
        source.dropPyramidForBenchmark()
        if args.contains("--session") {
            try runPostGISSessions(source, args)
            return
        }
        if let i = args.firstIndex(of: "--first-view-ab"), i + 1 < args.count, let n = Int(args[i + 1]) {
            try compareFirstWorldView(source, rounds: max(1, n))
            return
        }
        var perZoom = 15
        if let i = args.firstIndex(of: "--views-without"), i + 1 < args.count, let n = Int(args[i + 1]) { perZoom = max(1, n) }
        if args.contains("--no-roll-up") {
            // Every view asks the server for its own box (no kept whole-world pass): the SQL alone.
            var direct = PostGISViewOptions()
            direct.rollsUp = false
            try runViews(source, label: "no_pyramid_no_rollup", perZoom: perZoom, options: direct)
        }
        source.forgetAggregates()
        try runViews(source, label: "no_pyramid", perZoom: perZoom)
        if args.contains("--build-pyramid") {
            let start = Date()
            let cells = try PostGISPyramid.build(for: source)  // depth from the row count
            print("{\"bench\":\"postgis_pyramid_build\",\"seconds\":\(String(format: "%.2f", Date().timeIntervalSince(start))),\"cells\":\(cells.reduce(0, +))}")
            try runViews(source, label: "pyramid")
        }
    } catch {
        print("{\"bench\":\"postgis\",\"error\":\"\(error)\"}")
    }
}

private func runViews(_ source: PostGISSource, label: String, perZoom: Int = 15, options: PostGISViewOptions = PostGISViewOptions()) throws {
    let centres = [GeoCoordinate(latitude: 48.85, longitude: 2.35), GeoCoordinate(latitude: 40.7, longitude: -74),
                   GeoCoordinate(latitude: -23.5, longitude: -46.6)]
    var times: [Double] = [], byZoom: [Int: [Double]] = [:]
    var methods: [String: Int] = [:]
    for zoom in 1...15 {
        var done = 0
        for centre in centres where done < perZoom {
            let worldPixels = 256 * pow(2, Double(zoom))
            let (cx, cy) = WebMercator.project(centre)
            for (dx, dy) in [(0.0, 0.0), (0.25, 0), (0, 0.25), (-0.25, 0), (0, -0.25)] where done < perZoom {
                done += 1
                let x = cx + dx * 1280 / worldPixels, y = cy + dy * 800 / worldPixels
                let w = x - 640 / worldPixels, e = x + 640 / worldPixels
                let n = max(0, y - 400 / worldPixels), s = min(1, y + 400 / worldPixels)
                let bounds = GeoBounds(west: max(-180, WebMercator.longitude(x: w)), south: WebMercator.latitude(y: s),
                                       east: min(180, WebMercator.longitude(x: e)), north: WebMercator.latitude(y: n))
                let start = DispatchTime.now().uptimeNanoseconds
                let r = try source.clusters(in: bounds, zoom: Double(zoom), options: options)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
                times.append(ms)
                byZoom[zoom, default: []].append(ms)
                switch r.method {
                case .fetched: methods["fetched", default: 0] += 1
                case .aggregated: methods["aggregated", default: 0] += 1
                case .pyramid: methods["pyramid", default: 0] += 1
                }
            }
        }
    }
    func pct(_ v: [Double], _ p: Double) -> Double { let s = v.sorted(); return s[min(s.count - 1, Int(Double(s.count) * p))] }
    let zooms = byZoom.keys.sorted().map { "\"\($0)\":\(String(format: "%.1f", pct(byZoom[$0]!, 0.5)))" }.joined(separator: ",")
    // The first view of each zoom apart from the following ones (a kept whole-world pass makes
    // the first world view pay for every coarser one after it).
    let firsts = byZoom.keys.sorted().map { "\"\($0)\":\(String(format: "%.1f", byZoom[$0]![0]))" }.joined(separator: ",")
    let rest = byZoom.keys.sorted().filter { byZoom[$0]!.count > 1 }
        .map { "\"\($0)\":\(String(format: "%.1f", pct(Array(byZoom[$0]!.dropFirst()), 0.5)))" }.joined(separator: ",")
    let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").first.map(String.init) ?? "?"
    let m = methods.map { "\"\($0.key)\":\($0.value)" }.sorted().joined(separator: ",")
    print("{\"bench\":\"postgis_views_\(label)\",\"views\":\(times.count),\"seconds_total\":\(String(format: "%.1f", times.reduce(0, +) / 1000)),\"median_ms\":\(String(format: "%.1f", pct(times, 0.5))),"
          + "\"p95_ms\":\(String(format: "%.1f", pct(times, 0.95))),\"max_ms\":\(String(format: "%.1f", times.max() ?? 0)),"
          + "\"median_ms_by_zoom\":{\(zooms)},\"first_ms_by_zoom\":{\(firsts)},\"following_median_ms_by_zoom\":{\(rest)},"
          + "\"methods\":{\(m)},\"rss_mb\":\(residentMegabytes()),\"load\":\"\(load)\"}")
}

/// The first world view at zoom 1, direct (its own zoom's cells) against a fresh roll-up pass
/// (zoom `rollUpZoom`'s cells, kept), alternating which goes first: the pass's extra cost measured
/// in the same minutes rather than in two runs at different loads.
private func compareFirstWorldView(_ source: PostGISSource, rounds: Int) throws {
    let world = GeoBounds(west: -180, south: -85.05, east: 180, north: 85.05)
    var direct = PostGISViewOptions()
    direct.rollsUp = false
    var times: [String: [Double]] = ["direct": [], "pass": []]
    func time(_ label: String, _ options: PostGISViewOptions) throws {
        source.forgetAggregates()
        let start = DispatchTime.now().uptimeNanoseconds
        _ = try source.clusters(in: world, zoom: 1, options: options)
        times[label, default: []].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
    }
    for round in 0..<rounds {
        for label in round % 2 == 0 ? ["direct", "pass"] : ["pass", "direct"] {
            try time(label, label == "direct" ? direct : PostGISViewOptions())
        }
    }
    func list(_ v: [Double]) -> String { "[" + v.map { String(format: "%.0f", $0) }.joined(separator: ",") + "]" }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(3).joined(separator: " ")
    print("{\"bench\":\"postgis_first_world_view\",\"direct_ms\":\(list(times["direct"]!)),\"pass_ms\":\(list(times["pass"]!)),"
          + "\"direct_median_ms\":\(String(format: "%.0f", median(times["direct"]!))),\"pass_median_ms\":\(String(format: "%.0f", median(times["pass"]!))),"
          + "\"load\":\"\(load)\"}")
}
