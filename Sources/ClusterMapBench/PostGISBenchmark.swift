import ClusterCore
import Foundation
import PostGIS

/// `clustermap-bench postgis ADDRESS [--build-pyramid]`: pans and zooms a 1280×800 view over a
/// PostGIS table (SPEC §8's PostGIS row): at zooms 1…15, five views each (a centre and four pans by
/// a quarter of the view), timing view → clustered result (the query and, for sparse views, the
/// in-process clustering). Prints one JSON line per mode: without the pyramid, then (with
/// `--build-pyramid`) the pyramid's build time and the same views with it. Resident memory is
/// printed after each mode: it must not grow with the table.
func runPostGISBenchmark(_ args: [String]) {
    guard let address = args.first else { print("usage: clustermap-bench postgis ADDRESS [--build-pyramid]"); return }
    do {
        let source = try PostGISSource(address: address)
        // Without the pyramid first (drop a leftover one so the figure is honest).
        source.dropPyramidForBenchmark()
        try runViews(source, label: "no_pyramid")
        if args.contains("--build-pyramid") {
            let start = Date()
            let cells = try PostGISPyramid.build(for: source)
            print("{\"bench\":\"postgis_pyramid_build\",\"seconds\":\(String(format: "%.2f", Date().timeIntervalSince(start))),\"cells\":\(cells.reduce(0, +))}")
            try runViews(source, label: "pyramid")
        }
    } catch {
        print("{\"bench\":\"postgis\",\"error\":\"\(error)\"}")
    }
}

private func runViews(_ source: PostGISSource, label: String) throws {
    let centres = [GeoCoordinate(latitude: 48.85, longitude: 2.35), GeoCoordinate(latitude: 40.7, longitude: -74),
                   GeoCoordinate(latitude: -23.5, longitude: -46.6)]
    var times: [Double] = [], byZoom: [Int: [Double]] = [:]
    var methods: [String: Int] = [:]
    for zoom in 1...15 {
        for centre in centres {
            let worldPixels = 256 * pow(2, Double(zoom))
            let (cx, cy) = WebMercator.project(centre)
            for (dx, dy) in [(0.0, 0.0), (0.25, 0), (0, 0.25), (-0.25, 0), (0, -0.25)] {
                let x = cx + dx * 1280 / worldPixels, y = cy + dy * 800 / worldPixels
                let w = x - 640 / worldPixels, e = x + 640 / worldPixels
                let n = max(0, y - 400 / worldPixels), s = min(1, y + 400 / worldPixels)
                let bounds = GeoBounds(west: max(-180, WebMercator.longitude(x: w)), south: WebMercator.latitude(y: s),
                                       east: min(180, WebMercator.longitude(x: e)), north: WebMercator.latitude(y: n))
                let start = DispatchTime.now().uptimeNanoseconds
                let r = try source.clusters(in: bounds, zoom: Double(zoom))
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
    let m = methods.map { "\"\($0.key)\":\($0.value)" }.sorted().joined(separator: ",")
    print("{\"bench\":\"postgis_views_\(label)\",\"views\":\(times.count),\"median_ms\":\(String(format: "%.1f", pct(times, 0.5))),"
          + "\"p95_ms\":\(String(format: "%.1f", pct(times, 0.95))),\"max_ms\":\(String(format: "%.1f", times.max() ?? 0)),"
          + "\"median_ms_by_zoom\":{\(zooms)},\"methods\":{\(m)},\"rss_mb\":\(residentMegabytes())}")
}

private func residentMegabytes() -> Int {
    guard let s = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
          let pages = Int(s.split(separator: " ")[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}
