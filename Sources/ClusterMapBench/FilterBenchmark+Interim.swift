import ClusterCore
import Foundation
import GeoData

/// The ≤ 1 % filter change as the window takes it (issue 29 item 3): the shown filter's exact
/// build adopted by a `LiveSubsetIndex` (its node state made in the background once it
/// settled), then, timed from the change: evaluating the new filter, the difference, the repair
/// and the first clusters query of a 1280×800 view — the interim frame — and the exact build of
/// the new set with the same query — the settled frame — for a 1 % change and a 0.2 % one (the
/// window's interim limit at 1M is 2.5k places, `FilterInterim.changeLimit`). Also the repair
/// alone for batches of 1k…20k changes, which sets that limit. Returns JSON fields (medians,
/// ms) and writes one readable line per change to stderr.
func runInterimChanges(points: [GeoCoordinate], evaluator: FilterEvaluator, prepared: PreparedPoints, runs: Int) -> String {
    let n = points.count
    let method = ClusteringMethod.hierarchical(HierarchicalClusterer.Options())
    var random = SeededRandom(seed: 31)
    let viewQuery = BenchWorldView(seed: 31)
    func select(_ text: String) -> PointSelection { benchSelection(evaluator, text) }
    func adopt(_ selection: PointSelection) -> (LiveSubsetIndex, adoptMs: Double, prepareMs: Double) {
        let exact = SubsetClusterer(points: points, selection: selection, method: method, prepared: prepared)
        let t1 = monotonicSeconds()
        guard let live = LiveSubsetIndex(adopting: exact, points: points) else { benchFail("not adoptable") }
        let t2 = monotonicSeconds()
        live.prepareForChanges()
        return (live, (t2 - t1) * 1000, (monotonicSeconds() - t2) * 1000)
    }
    func median(_ v: [Double]) -> String { fixed(v.sorted()[v.count / 2], digits: 1) }
    let from = select("mag >= 5")
    var fields = ""
    // 1 % of 1M (~10k places) and 0.2 % (~2k: within the window's interim limit at 1M, 2.5k).
    for (key, texts) in [("change_1pct", ["mag >= 5.1", "mag >= 4.9"]), ("change_02pct", ["mag >= 5.02", "mag >= 4.98"])] {
        var interimMs: [Double] = [], settledMs: [Double] = [], interimCPU: [Double] = [], changed = 0
        var adoptMs: [Double] = [], prepareMs: [Double] = []
        for run in 0..<runs {
            let (live, a, p) = adopt(from)
            adoptMs.append(a); prepareMs.append(p)
            let text = texts[run % 2]
            let c0 = processCPUMilliseconds()
            let t0 = monotonicSeconds()
            let to = select(text)
            guard let count = live.changeCount(to: to, limit: n / 50) else { benchFail("\(text) changes more than 2 %") }
            live.apply(to: to, points: points)
            viewQuery(live)
            interimMs.append((monotonicSeconds() - t0) * 1000)
            interimCPU.append(processCPUMilliseconds() - c0)
            changed = count
            viewQuery(SubsetClusterer(points: points, selection: to, method: method, prepared: prepared))
            settledMs.append((monotonicSeconds() - t0) * 1000)
        }
        fields += ",\"\(key)_changed\":\(changed),\"\(key)_interim_frame_ms\":\(median(interimMs))"
            + ",\"\(key)_interim_cpu_ms\":\(median(interimCPU)),\"\(key)_settled_ms\":\(median(settledMs))"
        if key == "change_1pct" { fields += ",\"adopt_ms\":\(median(adoptMs)),\"adopt_prepare_ms\":\(median(prepareMs))" }
        let what = key == "change_1pct" ? "≤ 1 % change" : "≤ 0.2 % change"
        FileHandle.standardError.write(("\(what) at \(n / 1_000_000)M (\(changed) places): interim frame \(median(interimMs)) ms "
            + "(median; \(median(interimCPU)) ms CPU), settled \(median(settledMs)) ms\n").data(using: .utf8)!)
    }
    fields += runInterimFromNoFilter(points: points, prepared: prepared, select: select, runs: runs, view: { viewQuery($0) })
    // The repair alone, per batch size: k random passing points removed, or k others added.
    var line = ""
    let (live, _, _) = adopt(from)
    var current = from
    for k in [1_000, 2_000, 5_000, 10_000, 20_000] where k <= n / 20 {
        var target = current
        var picked = 0
        let adding = k % 2 == 0 && k != 10_000 ? false : true
        while picked < k {
            let i = Int(random.next() % UInt64(n))
            if target[i] != adding { target[i] = adding; picked += 1 }
        }
        let t0 = monotonicSeconds()
        live.apply(to: target, points: points)
        line += ",\"interim_repair_\(k)_\(adding ? "added" : "removed")_ms\":\(fixed((monotonicSeconds() - t0) * 1000, digits: 1))"
        current = target
    }
    return fields + line
}

/// The first filter after "no filter" as the window takes it: the live index of every place,
/// adopted from the full build while it had no change (`LiveClusterIndex.unchangedBuild`, readied
/// off the GTK thread after a load), then a range nudged from its end (~0.15 % of the places
/// leave): the interim frame timed as above, and what holding that state costs (`heldBytes`: beyond the build, which the session holds anyway).
private func runInterimFromNoFilter(points: [GeoCoordinate], prepared: PreparedPoints, select: (String) -> PointSelection, runs: Int,
                                    view: (any PointClusterer) -> Void) -> String {
    let n = points.count
    let method = ClusteringMethod.hierarchical(HierarchicalClusterer.Options())
    guard let snapshot = LiveClusterIndex(points: points).unchangedBuild else { benchFail("no unchanged build") }
    func median(_ v: [Double]) -> String { fixed(v.sorted()[v.count / 2], digits: 1) }
    var interimMs: [Double] = [], interimCPU: [Double] = [], settledMs: [Double] = [], readyMs: [Double] = []
    var changed = 0, heldMB = 0
    for run in 0..<runs {
        let r0 = monotonicSeconds()
        guard let live = LiveSubsetIndex(adopting: snapshot) else { benchFail("not adoptable") }
        live.prepareForChanges()
        readyMs.append((monotonicSeconds() - r0) * 1000)
        if run == 0 { heldMB = live.heldBytes / 1_048_576 }
        let text = run % 2 == 0 ? "mag >= 0.02" : "mag <= 9.98"
        let c0 = processCPUMilliseconds()
        let t0 = monotonicSeconds()
        let to = select(text)
        guard let count = live.changeCount(to: to, limit: n / 100) else { benchFail("\(text) changes more than 1 %") }
        live.apply(to: to, points: points)
        view(live)
        interimMs.append((monotonicSeconds() - t0) * 1000)
        interimCPU.append(processCPUMilliseconds() - c0)
        changed = count
        view(SubsetClusterer(points: points, selection: to, method: method, prepared: prepared))
        settledMs.append((monotonicSeconds() - t0) * 1000)
    }
    FileHandle.standardError.write(("from no filter at \(n / 1_000_000)M (\(changed) places): interim frame \(median(interimMs)) ms "
        + "(median; \(median(interimCPU)) ms CPU), settled \(median(settledMs)) ms; readying \(median(readyMs)) ms, "
        + "held \(heldMB) MB beyond the build\n").data(using: .utf8)!)
    return ",\"from_none_changed\":\(changed),\"from_none_interim_frame_ms\":\(median(interimMs))"
        + ",\"from_none_interim_cpu_ms\":\(median(interimCPU)),\"from_none_settled_ms\":\(median(settledMs))"
        + ",\"from_none_ready_ms\":\(median(readyMs)),\"from_none_held_mb\":\(heldMB)"
}
