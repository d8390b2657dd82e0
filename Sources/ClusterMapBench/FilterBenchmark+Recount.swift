import ClusterCore
import Foundation
import GeoData

/// Any filter change as the window takes it past the repair's reach (issue 29 item 3): the
/// unfiltered build of every place (the session's, made at load) recounted over the passing
/// places — timed from the change: evaluating the filter, the recount and the first clusters
/// query of a 1280×800 view at zoom 3, the *first frame* — then the exact build of the passing
/// places with the same query, the *settled* frame. For a ≤ 1 % change (10k places at 1M),
/// half and most (~83 %) passing. Also how the first frame differs from the settled one: the
/// share of the first frame's items at zooms 3 (the world) and 6 (a view) with no item of the
/// same count at the same spot (within a quarter of the cluster radius) in the exact build.
/// Returns JSON fields (medians, ms) and writes one readable line per case to stderr.
func runRecountChanges(points: [GeoCoordinate], evaluator: FilterEvaluator, prepared: PreparedPoints, runs: Int) -> String {
    let method = ClusteringMethod.hierarchical(HierarchicalClusterer.Options())
    let viewQuery = BenchWorldView(seed: 37)
    func select(_ text: String) -> PointSelection { benchSelection(evaluator, text) }
    func median(_ v: [Double]) -> String { fixed(v.sorted()[v.count / 2], digits: 1) }
    let t0 = monotonicSeconds()
    let build = HierarchicalClusterer(points: points)
    let buildMs = (monotonicSeconds() - t0) * 1000
    let t1 = monotonicSeconds()
    let recounter = HierarchyRecount(build: build)
    let readyMs = (monotonicSeconds() - t1) * 1000
    var fields = ",\"recount_unfiltered_build_ms\":\(fixed(buildMs)),\"recount_ready_ms\":\(fixed(readyMs))"
    // One thread against two for the recount pass (the pass splits big zooms in two).
    if let most = try? evaluator.selection(for: "mag >= 0.5 and type != 'other'") {
        // Wall, process CPU and the calling thread's CPU (with two threads: about the critical path).
        var one: [Double] = [], two: [Double] = [], twoCPU: [Double] = [], twoCaller: [Double] = [], oneWall: [Double] = []
        for _ in 0..<max(runs, 3) {
            RecountPass.twoThreadsFrom = .max
            var w0 = monotonicSeconds(), c0 = processCPUMilliseconds()
            _ = recounter.recount(passing: most)
            one.append(processCPUMilliseconds() - c0)
            oneWall.append((monotonicSeconds() - w0) * 1000)
            RecountPass.twoThreadsFrom = 32_768
            w0 = monotonicSeconds(); c0 = processCPUMilliseconds()
            let t0 = threadCPUMilliseconds()
            _ = recounter.recount(passing: most)
            twoCaller.append(threadCPUMilliseconds() - t0)
            twoCPU.append(processCPUMilliseconds() - c0)
            two.append((monotonicSeconds() - w0) * 1000)
        }
        fields += ",\"recount_most_one_thread_ms\":\(median(oneWall)),\"recount_most_one_thread_cpu_ms\":\(median(one))"
            + ",\"recount_most_two_threads_ms\":\(median(two)),\"recount_most_two_threads_cpu_ms\":\(median(twoCPU))"
            + ",\"recount_most_two_threads_caller_cpu_ms\":\(median(twoCaller))"
        FileHandle.standardError.write(Data(("recount pass alone (most): one thread \(median(oneWall)) ms wall / \(median(one)) CPU; "
            + "two threads \(median(two)) ms wall / \(median(twoCPU)) CPU / \(median(twoCaller)) on the calling thread\n").utf8))
    }
    let cases: [(key: String, texts: [String])] = [
        ("change_1pct", ["mag >= 5.1", "mag >= 4.9"]), ("half", ["mag >= 5"]), ("most", ["mag >= 0.5 and type != 'other'"]),
    ]
    for (key, texts) in cases {
        var firstMs: [Double] = [], firstCPU: [Double] = [], recountMs: [Double] = [], settledMs: [Double] = []
        var passing = 0
        var lastSelection: PointSelection?
        for run in 0..<runs {
            let text = texts[run % texts.count]
            let c0 = processCPUMilliseconds(), s0 = monotonicSeconds()
            let selection = select(text)
            let r0 = monotonicSeconds()
            let shown = recounter.recount(passing: selection)
            recountMs.append((monotonicSeconds() - r0) * 1000)
            viewQuery(shown)
            firstMs.append((monotonicSeconds() - s0) * 1000)
            firstCPU.append(processCPUMilliseconds() - c0)
            let exact = SubsetClusterer(points: points, selection: selection, method: method, prepared: prepared)
            viewQuery(exact)
            settledMs.append((monotonicSeconds() - s0) * 1000)
            passing = selection.chosenCount
            lastSelection = selection
        }
        let differs = lastSelection.map { differingShares(recounter.recount(passing: $0), exact(points, $0, method, prepared)) }
            ?? [(0, 0, 0, 0), (0, 0, 0, 0)]
        let (z3, z6) = (differs[0], differs[1])
        fields += ",\"recount_\(key)_passing\":\(passing),\"recount_\(key)_first_frame_ms\":\(median(firstMs))"
            + ",\"recount_\(key)_first_frame_cpu_ms\":\(median(firstCPU)),\"recount_\(key)_recount_ms\":\(median(recountMs))"
            + ",\"recount_\(key)_settled_ms\":\(median(settledMs))"
            + ",\"recount_\(key)_z3_count_differs\":\(fixed(z3.0, digits: 3)),\"recount_\(key)_z3_off_by_10pct\":\(fixed(z3.1, digits: 3))"
            + ",\"recount_\(key)_z6_count_differs\":\(fixed(z6.0, digits: 3)),\"recount_\(key)_z6_off_by_10pct\":\(fixed(z6.1, digits: 3))"
        func pct(_ v: Double) -> String { fixed(v * 100, digits: 1) + " %" }
        FileHandle.standardError.write(Data(("\(key) at \(points.count) (\(passing) passing): first frame (recount) \(median(firstMs)) ms "
            + "(median; \(median(firstCPU)) ms CPU; recount alone \(median(recountMs)) ms), settled \(median(settledMs)) ms; "
            + "first-frame items with no exact item of the same count at their spot: zoom 3 \(pct(z3.0)) (none within 10 %: \(pct(z3.1))) "
            + "of \(z3.2) items (exact: \(z3.3)); zoom 6 view \(pct(z6.0)) (\(pct(z6.1))) of \(z6.2) (exact: \(z6.3))\n").utf8))
    }
    return fields
}

private func exact(_ points: [GeoCoordinate], _ selection: PointSelection, _ method: ClusteringMethod,
                   _ prepared: PreparedPoints) -> SubsetClusterer {
    SubsetClusterer(points: points, selection: selection, method: method, prepared: prepared)
}

/// At zoom 3 (the world) and zoom 6 (a 1280×800 view at 0°, 0°): the share of `first`'s items
/// with no item of the same count within a quarter of the cluster radius in `settled`, the share
/// with none within ±10 % of its count there, and how many items each frame has.
private func differingShares(_ first: any PointClusterer, _ settled: any PointClusterer) -> [(Double, Double, Int, Int)] {
    func share(zoom: Int, bounds: GeoBounds) -> (Double, Double, Int, Int) {
        let a = first.clusters(in: bounds, zoom: Double(zoom)), b = settled.clusters(in: bounds, zoom: Double(zoom))
        let near = 40.0 / 512 / pow(2, Double(zoom)) / 4
        // Exact items by cell of `near`, for a lookup per first-frame item.
        var cells: [Int64: [(Double, Double, Int)]] = [:]
        func key(_ x: Double, _ y: Double) -> Int64 { Int64((x / near).rounded(.down)) << 32 | Int64((y / near).rounded(.down)) & 0xFFFF_FFFF }
        for item in b {
            let p = WebMercator.project(item.coordinate)
            cells[key(p.x, p.y), default: []].append((p.x, p.y, item.count))
        }
        var differ = 0, far = 0
        for item in a {
            let p = WebMercator.project(item.coordinate)
            var found = false
            for dx in -1...1 { for dy in -1...1 {
                for (x, y, n) in cells[key(p.x + Double(dx) * near, p.y + Double(dy) * near)] ?? []
                    where n == item.count && abs(x - p.x) <= near && abs(y - p.y) <= near { found = true }
            } }
            if !found { differ += 1 }
            var close = false
            for dx in -1...1 { for dy in -1...1 {
                for (x, y, n) in cells[key(p.x + Double(dx) * near, p.y + Double(dy) * near)] ?? []
                    where abs(Double(n - item.count)) <= 0.1 * Double(item.count) && abs(x - p.x) <= near && abs(y - p.y) <= near { close = true }
            } }
            if !close { far += 1 }
        }
        return (a.isEmpty ? 0 : Double(differ) / Double(a.count), a.isEmpty ? 0 : Double(far) / Double(a.count), a.count, b.count)
    }
    let z3 = share(zoom: 3, bounds: .world)
    let halfW = 640 / (256 * 64.0) * 360, halfH = 400 / (256 * 64.0) * 180
    let z6 = share(zoom: 6, bounds: GeoBounds(west: -halfW, south: -halfH, east: halfW, north: halfH))
    return [z3, z6]
}
