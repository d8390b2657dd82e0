import ClusterCore
import Foundation
import GeoData

// `clustermap-bench filter-large [--points N] [--runs R]` (SPEC §8: any filter change at 1M
// points → next clustered frame ≤ 250 ms; at 10M ≤ 2.5 s): the big filters one by one —
// most (~83 % pass), half, a tenth, a ≤ 1 % change — and what the window pays per data set
// and per live update for the prepared points.

/// N uniform random places with `mag` (0–10) and `type` (8 values); for each filter, the
/// medians of evaluating it, the exact re-clustering from `PreparedPoints` and a frame's query
/// (wall ms), the process's CPU ms for it (all threads: CPU / wall > 1 means both cores
/// worked; on a busy machine wall time includes waiting for a core), and the calling thread's
/// CPU ms (two-thread steps run one part on the calling thread: about the build's critical
/// path, its wall time on two otherwise idle cores). Also: preparing the points
/// (once per data set), and updating them after a live update moving 0.1 % of the points and
/// adding 0.1 % (instead of preparing them again); and what the builds' scratch pool holds
/// between builds. One JSON line.
func runLargeFilterBenchmark(_ args: [String]) {
    var n = 1_000_000, runs = 3
    let given = benchNumbers(args, ["--points", "--runs"])
    n = given["--points"] ?? n; runs = given["--runs"] ?? runs
    var random = SeededRandom(seed: 29)
    let points = (0..<n).map { _ in GeoCoordinate(latitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180)) }
    let kinds = ["quake", "blast", "slide", "storm", "flood", "fire", "ice", "other"]
    let table = PropertyTable(count: n, values: [
        ("mag", (0..<n).map { _ in .number((random.uniform(0, 10) * 100).rounded() / 100) }),
        ("type", (0..<n).map { _ in .string(kinds[Int(random.next() % 8)]) }),
    ])
    let evaluator = FilterEvaluator(table: table)
    for name in ["mag", "type"] { _ = evaluator.column(name) }
    let method = ClusteringMethod.hierarchical(HierarchicalClusterer.Options())

    var prepareMs: [Double] = [], prepareCPU: [Double] = []
    var prepared: PreparedPoints?
    for _ in 0..<runs {
        let c0 = processCPUMilliseconds(), t0 = monotonicSeconds()
        prepared = PreparedPoints(points: points)
        prepareMs.append((monotonicSeconds() - t0) * 1000)
        prepareCPU.append(processCPUMilliseconds() - c0)
    }
    // A live update: 0.1 % of the points moved, 0.1 % added.
    var next = points
    for _ in 0..<(n / 1000) {
        next[Int(random.next() % UInt64(n))] = GeoCoordinate(latitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180))
    }
    next += (0..<(n / 1000)).map { _ in GeoCoordinate(latitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180)) }
    var updateMs: [Double] = []
    for _ in 0..<runs {
        let t0 = monotonicSeconds()
        _ = prepared!.updated(points: next, from: points)
        updateMs.append((monotonicSeconds() - t0) * 1000)
    }

    var buffer: [ClusterItem] = []
    func frameQuery(_ index: any PointClusterer) {
        for z in [2.0, 6, 10, 14] {
            let c = GeoCoordinate(latitude: random.uniform(-60, 60), longitude: random.uniform(-170, 170))
            let world = 256 * pow(2, z)
            let halfW = 680 / world * 360, halfH = min(85, 440 / world * 180)
            index.clusters(in: GeoBounds(west: c.longitude - halfW, south: max(-85, c.latitude - halfH),
                                         east: c.longitude + halfW, north: min(85, c.latitude + halfH)),
                           zoom: z, into: &buffer)
        }
    }
    let filters: [(key: String, text: String)] = [
        ("most", "mag >= 0.5 and type != 'other'"),  // ~83 %
        ("half", "mag >= 5"),                        // ~50 %
        ("tenth", "mag >= 9"),                       // ~10 %
        ("change_1pct", "mag >= 5.1"),               // ~1 % fewer than half
    ]
    var line = "{\"bench\":\"filter-large\",\"points\":\(n),\"runs\":\(runs)"
        + ",\"prepare_ms\":\(median(prepareMs)),\"prepare_cpu_ms\":\(median(prepareCPU))"
        + ",\"prepare_update_0.1pct_ms\":\(median(updateMs))"
    for f in filters {
        var evaluate: [Double] = [], total: [Double] = [], cpu: [Double] = [], mainCPU: [Double] = []
        var passing = 0
        for _ in 0..<runs {
            let c0 = processCPUMilliseconds(), m0 = threadCPUMilliseconds(), t0 = monotonicSeconds()
            guard let selection = try? evaluator.selection(for: f.text) else { benchFail("bad filter \(f.text)") }
            let t1 = monotonicSeconds()
            frameQuery(SubsetClusterer(points: points, selection: selection, method: method, prepared: prepared))
            let t2 = monotonicSeconds()
            evaluate.append((t1 - t0) * 1000)
            total.append((t2 - t0) * 1000)
            cpu.append(processCPUMilliseconds() - c0)
            mainCPU.append(threadCPUMilliseconds() - m0)
            passing = selection.chosenCount
        }
        line += ",\"\(f.key)_passing\":\(passing),\"\(f.key)_evaluate_ms\":\(median(evaluate))"
            + ",\"\(f.key)_then_frame_ms\":\(median(total)),\"\(f.key)_cpu_ms\":\(median(cpu))"
            + ",\"\(f.key)_calling_thread_cpu_ms\":\(median(mainCPU))"
    }
    // What the filtered builds' scratch pool holds between builds (kept while a filter is shown).
    if let pool = prepared?.scratchPool {
        line += ",\"scratch_pool_idle_mb\":\(fixed(Double(pool.idleBytes) / 1_048_576))"
            + ",\"scratch_pool_peak_in_use_mb\":\(fixed(Double(pool.peakBytesInUse) / 1_048_576))"
    }
    print(line + ",\"peak_rss_mb\":\(fixed(peakRSSMegabytes()))}")

    func median(_ v: [Double]) -> String { fixed(v.sorted()[v.count / 2], digits: 1) }
}
