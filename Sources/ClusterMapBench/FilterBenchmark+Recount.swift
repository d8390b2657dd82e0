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
    var random = SeededRandom(seed: 37)
    var buffer: [ClusterItem] = []
    func viewQuery(_ index: any PointClusterer) {
        let z = 3.0
        let c = GeoCoordinate(latitude: random.uniform(-40, 40), longitude: random.uniform(-120, 120))
        let world = 256 * pow(2, z)
        let halfW = 640 / world * 360, halfH = min(85, 400 / world * 180)
        index.clusters(in: GeoBounds(west: c.longitude - halfW, south: max(-85, c.latitude - halfH),
                                     east: c.longitude + halfW, north: min(85, c.latitude + halfH)),
                       zoom: z, into: &buffer)
    }
    func select(_ text: String) -> PointSelection {
        guard let s = try? evaluator.selection(for: text) else { benchFail("bad filter \(text)") }
        return s
    }
    func median(_ v: [Double]) -> String { fixed(v.sorted()[v.count / 2], digits: 1) }
    let t0 = monotonicSeconds()
    let build = HierarchicalClusterer(points: points)
    let buildMs = (monotonicSeconds() - t0) * 1000
    let t1 = monotonicSeconds()
    let recounter = HierarchyRecount(build: build)
    let readyMs = (monotonicSeconds() - t1) * 1000
    var fields = ",\"recount_unfiltered_build_ms\":\(fixed(buildMs)),\"recount_ready_ms\":\(fixed(readyMs))"
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
        let differs = lastSelection.map { differingShares(recounter.recount(passing: $0), exact(points, $0, method, prepared)) } ?? (0, 0, 0, 0)
        fields += ",\"recount_\(key)_passing\":\(passing),\"recount_\(key)_first_frame_ms\":\(median(firstMs))"
            + ",\"recount_\(key)_first_frame_cpu_ms\":\(median(firstCPU)),\"recount_\(key)_recount_ms\":\(median(recountMs))"
            + ",\"recount_\(key)_settled_ms\":\(median(settledMs))"
            + ",\"recount_\(key)_z3_differs\":\(fixed(differs.0, digits: 3)),\"recount_\(key)_z6_differs\":\(fixed(differs.1, digits: 3))"
        FileHandle.standardError.write(Data(("\(key) at \(points.count) (\(passing) passing): first frame (recount) \(median(firstMs)) ms "
            + "(median; \(median(firstCPU)) ms CPU; recount alone \(median(recountMs)) ms), settled \(median(settledMs)) ms; "
            + "first-frame items not in the exact frame: zoom 3 \(fixed(differs.0 * 100, digits: 1)) % of \(differs.2), "
            + "zoom 6 view \(fixed(differs.1 * 100, digits: 1)) % of \(differs.3)\n").utf8))
    }
    return fields
}

private func exact(_ points: [GeoCoordinate], _ selection: PointSelection, _ method: ClusteringMethod,
                   _ prepared: PreparedPoints) -> SubsetClusterer {
    SubsetClusterer(points: points, selection: selection, method: method, prepared: prepared)
}

/// The share of `first`'s items (zoom 3, the world; zoom 6, a 1280×800 view at 0°, 0°) that have
/// no item of the same count within a quarter of the cluster radius in `settled`, and how many
/// items each share is of.
private func differingShares(_ first: any PointClusterer, _ settled: any PointClusterer) -> (Double, Double, Int, Int) {
    func share(zoom: Int, bounds: GeoBounds) -> (Double, Int) {
        let a = first.clusters(in: bounds, zoom: Double(zoom)), b = settled.clusters(in: bounds, zoom: Double(zoom))
        let near = 40.0 / 512 / pow(2, Double(zoom)) / 4
        // Exact items by cell of `near`, for a lookup per first-frame item.
        var cells: [Int64: [(Double, Double, Int)]] = [:]
        func key(_ x: Double, _ y: Double) -> Int64 { Int64((x / near).rounded(.down)) << 32 | Int64((y / near).rounded(.down)) & 0xFFFF_FFFF }
        for item in b {
            let p = WebMercator.project(item.coordinate)
            cells[key(p.x, p.y), default: []].append((p.x, p.y, item.count))
        }
        var differ = 0
        for item in a {
            let p = WebMercator.project(item.coordinate)
            var found = false
            for dx in -1...1 { for dy in -1...1 {
                for (x, y, n) in cells[key(p.x + Double(dx) * near, p.y + Double(dy) * near)] ?? []
                    where n == item.count && abs(x - p.x) <= near && abs(y - p.y) <= near { found = true }
            } }
            if !found { differ += 1 }
        }
        return (a.isEmpty ? 0 : Double(differ) / Double(a.count), a.count)
    }
    let (z3, n3) = share(zoom: 3, bounds: .world)
    let halfW = 640 / (256 * 64.0) * 360, halfH = 400 / (256 * 64.0) * 180
    let (z6, n6) = share(zoom: 6, bounds: GeoBounds(west: -halfW, south: -halfH, east: halfW, north: halfH))
    return (z3, z6, n3, n6)
}
