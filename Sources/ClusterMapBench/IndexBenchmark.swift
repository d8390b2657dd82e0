import ClusterCore
import Foundation
import GeoData

// `clustermap-bench index FILE.geojson [--max-zoom M]` and
// `clustermap-bench generate N OUT.geojson [--seed S]` (SPEC §8, issue 3 item 6).

/// Indexes a point file with the hierarchical clusterer (default options) and times a fixed
/// query workload that other implementations can run too; prints one JSON line.
func runIndexBenchmark(_ args: [String]) {
    var path: String?
    var maxZoom = 16
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--max-zoom":
            guard i + 1 < args.count, let v = Int(args[i + 1]) else { benchFail("--max-zoom needs a number") }
            maxZoom = v
            i += 1
        default:
            if path == nil && !args[i].hasPrefix("--") { path = args[i] } else { benchFail("unexpected argument \(args[i])") }
        }
        i += 1
    }
    guard let path else { benchFail("usage: clustermap-bench index FILE.geojson [--max-zoom M]") }

    // Parse (file read included), then drop the loader's buffers before indexing.
    let parseStart = monotonicSeconds()
    var coordinates: [GeoCoordinate]
    do {
        coordinates = try PointSetLoader.load(path: path).coordinates
    } catch {
        benchFail("\(error)")
    }
    let parseMs = (monotonicSeconds() - parseStart) * 1000

    let indexStart = monotonicSeconds(), cpuStart = processCPUSeconds()
    let index = HierarchicalClusterer(points: coordinates, options: .init(maxZoom: maxZoom))
    let indexMs = (monotonicSeconds() - indexStart) * 1000
    let indexCPUMs = (processCPUSeconds() - cpuStart) * 1000
    let pointCount = coordinates.count
    coordinates = []

    let (medianMs, items) = runQueryWorkload(index)
    let peak = peakRSSMegabytes()
    print("{\"impl\":\"clustermap\",\"points\":\(pointCount),\"parse_ms\":\(fixed(parseMs)),"
        + "\"index_ms\":\(fixed(indexMs)),\"index_cpu_ms\":\(fixed(indexCPUMs)),\"query_median_ms\":\(fixed(medianMs, digits: 4)),"
        + "\"query_items\":\(items),\"peak_rss_mb\":\(fixed(peak))}")
}

/// The shared query workload: a 31-bit LCG seeded with 42; for each zoom 0…16, 40 views of
/// 1280×800 pixels at random centres (latitude band of the middle half of the world's height).
/// Returns the median time of one `clusters(in:zoom:)` call and the total number of items.
func runQueryWorkload(_ index: some PointClusterer) -> (medianMs: Double, items: Int) {
    var s: UInt64 = 42
    func rnd() -> Double {
        s = (s &* 1_103_515_245 &+ 12345) % 2_147_483_648
        return Double(s) / 2_147_483_648
    }
    var times: [Double] = []
    var items = 0
    for z in 0...16 {
        let world = 256 * pow(2, Double(z))
        func lon(_ x: Double) -> Double { x / world * 360 - 180 }
        func lat(_ y: Double) -> Double { atan(sinh(Double.pi - 2 * Double.pi * y / world)) * 180 / Double.pi }
        for _ in 0..<40 {
            let cx = rnd() * world
            let cy = world * (0.25 + 0.5 * rnd())
            let box = GeoBounds(west: max(-180, lon(cx - 640)), south: lat(min(world, cy + 400)),
                                east: min(180, lon(cx + 640)), north: lat(max(0, cy - 400)))
            let t0 = monotonicSeconds()
            let result = index.clusters(in: box, zoom: Double(z))
            let t1 = monotonicSeconds()
            times.append((t1 - t0) * 1000)
            items += result.count
        }
    }
    times.sort()
    let median = times.count % 2 == 1 ? times[times.count / 2]
        : (times[times.count / 2 - 1] + times[times.count / 2]) / 2
    return (median, items)
}

/// `clustermap-bench points FILE.geojson OUT.f64`: the file's coordinates as little-endian
/// Float64 (longitude, latitude) pairs, so that other implementations index the very same points
/// without parsing GeoJSON (`scripts/bench-compare.sh`).
func runPointsCommand(_ args: [String]) {
    guard args.count == 2 else { benchFail("usage: clustermap-bench points FILE.geojson OUT.f64") }
    let coordinates: [GeoCoordinate]
    do { coordinates = try PointSetLoader.load(path: args[0]).coordinates } catch { benchFail("\(error)") }
    var flat: [Double] = []
    flat.reserveCapacity(2 * coordinates.count)
    for c in coordinates { flat.append(c.longitude); flat.append(c.latitude) }
    let data = flat.withUnsafeBytes { Data($0) }
    guard FileManager.default.createFile(atPath: args[1], contents: data) else { benchFail("cannot write \(args[1])") }
}

/// Writes N uniform random points (lon in [−180, 180), lat in [−80, 80)) as a GeoJSON
/// FeatureCollection, seeded (SplitMix64), coordinates with 7 decimals.
func runGenerateCommand(_ args: [String]) {
    var positional: [String] = []
    var seed: UInt64 = 1
    var i = 0
    while i < args.count {
        if args[i] == "--seed" {
            guard i + 1 < args.count, let v = UInt64(args[i + 1]) else { benchFail("--seed needs a number") }
            seed = v
            i += 2
            continue
        }
        positional.append(args[i])
        i += 1
    }
    guard positional.count == 2, let n = Int(positional[0]), n >= 0 else {
        benchFail("usage: clustermap-bench generate N OUT.geojson [--seed S]")
    }
    var rng = SeededRandom(seed: seed)
    var out: [UInt8] = []
    out.reserveCapacity(n * 110 + 64)
    out.append(contentsOf: Array("{\"type\":\"FeatureCollection\",\"features\":[\n".utf8))
    for k in 0..<n {
        let lon = rng.unit() * 360 - 180
        let lat = rng.unit() * 160 - 80
        if k > 0 { out.append(contentsOf: Array(",\n".utf8)) }
        out.append(contentsOf: Array("{\"type\":\"Feature\",\"properties\":{\"id\":\(k)},\"geometry\":{\"type\":\"Point\",\"coordinates\":[".utf8))
        appendFixed7(lon, to: &out)
        out.append(UInt8(ascii: ","))
        appendFixed7(lat, to: &out)
        out.append(contentsOf: Array("]}}".utf8))
    }
    out.append(contentsOf: Array("\n]}\n".utf8))
    guard FileManager.default.createFile(atPath: positional[1], contents: Data(out)) else {
        benchFail("cannot write \(positional[1])")
    }
}

/// Appends `v` with exactly 7 decimals (values are rounded half away from zero, never `-0`).
/// Whole units must stay below 7 digits (coordinates).
func appendFixed7(_ v: Double, to out: inout [UInt8]) {
    var units = Int((abs(v) * 10_000_000).rounded())
    if units != 0 && v < 0 { out.append(UInt8(ascii: "-")) }
    let frac = units % 10_000_000
    units /= 10_000_000
    out.append(contentsOf: Array(String(units).utf8))
    out.append(UInt8(ascii: "."))
    var digits = [UInt8](repeating: UInt8(ascii: "0"), count: 7)
    var f = frac
    for d in stride(from: 6, through: 0, by: -1) {
        digits[d] = UInt8(ascii: "0") + UInt8(f % 10)
        f /= 10
    }
    out.append(contentsOf: digits)
}


func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Peak resident set size (VmHWM) in MB.
func peakRSSMegabytes() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return -1 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kb = line.split(separator: " ").compactMap { Double($0) }.first ?? -1
        return kb / 1024
    }
    return -1
}

func fixed(_ v: Double, digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }

/// A benchmark's `--name N` options (each N a positive whole number), only the `names` it knows;
/// anything else stops it with a message.
func benchNumbers(_ args: [String], _ names: [String]) -> [String: Int] {
    var given: [String: Int] = [:]
    var i = 0
    while i < args.count {
        guard i + 1 < args.count, let v = Int(args[i + 1]), v > 0 else { benchFail("\(args[i]) needs a positive number") }
        guard names.contains(args[i]) else { benchFail("unexpected argument \(args[i])") }
        given[args[i]] = v
        i += 2
    }
    return given
}

func benchFail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("clustermap-bench: \(message)\n".utf8))
    exit(2)
}
