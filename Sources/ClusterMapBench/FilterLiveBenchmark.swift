import AppSupport
import ClusterCore
import Foundation
import GeoData

// `clustermap-bench filterlive [--points N] [--changes K] [--runs R]` (issue 29: live data with a
// filter on).

/// A live file of N places (an `id`, a date, a kind, a magnitude) filtered by
/// `mag >= 5 and kind != 'fire'`, rewritten R times with K changes each (half change values,
/// a quarter go, a quarter come). For each rewrite, through the window's path (CSV read →
/// `planUpdate` → `applied` → a filter engine for the new session): the filter worked out by a
/// fresh engine (every place decoded again: before) and by the engine that follows the last one
/// (only the changed places decoded: after), and the same filter asked again of a built engine
/// (no decoding at all: what evaluating and clustering cost), and how long each engine's
/// property table took (wall ms: decoding every place, or patching the changed ones). Prints one JSON line of medians
/// (wall ms for the first filter and the read, process CPU ms for the engines: the machine is shared).
func runFilterLiveBenchmark(_ args: [String]) {
    var n = 1_000_000, k = 1000, runs = 3
    let given = benchNumbers(args, ["--points", "--changes", "--runs"])
    n = given["--points"] ?? n; k = given["--changes"] ?? k; runs = given["--runs"] ?? runs
    var random = SeededRandom(seed: 29)
    let kinds = ["burglary", "fire", "flood", "theft"]
    func row(_ id: Int) -> String {
        let t = 1_293_840_000 + Int(random.uniform(0, 365 * 86400))
        return "\(id),\(String(format: "%.5f", random.uniform(36, 43.5))),\(String(format: "%.5f", random.uniform(-9, 3))),"
            + "\(DateText.text(Double(t))),\(kinds[Int(random.next() % 4)]),\(String(format: "%.2f", random.uniform(0, 10)))"
    }
    var rows = (0..<n).map(row)
    var nextID = n
    func load() -> PointSet {
        let csv = "id,lat,lon,when,kind,mag\n" + rows.joined(separator: "\n") + "\n"
        guard let set = try? PointSetLoader.load(bytes: Array(csv.utf8), name: "live.csv", options: LoadOptions(format: .csv)) else {
            benchFail("the generated CSV did not load")
        }
        return set
    }
    var settings = FilterSettings()
    settings.conditions = ["mag >= 5 and kind != 'fire'"]
    var session = MapDataSession(pointSets: [load()])
    _ = session.identityKeys(idProperty: "id")
    var engine = FilterEngine(session: session)
    let f0 = monotonicSeconds()
    guard (try? engine.run(settings)) != nil else { benchFail("the filter did not run") }
    let firstMs = (monotonicSeconds() - f0) * 1000

    var planMs: [Double] = [], freshMs: [Double] = [], followMs: [Double] = [], againMs: [Double] = []
    var decoded: [Int] = [], passing = 0
    var freshTableMs: [Double] = [], followTableMs: [Double] = []
    for _ in 0..<runs {
        for _ in 0..<(k / 2) {
            let at = Int(random.next() % UInt64(rows.count))
            let id = rows[at].prefix { $0 != "," }
            var fields = row(0).split(separator: ",").map(String.init)
            fields[0] = String(id)
            fields[1] = String(rows[at].split(separator: ",")[1])
            fields[2] = String(rows[at].split(separator: ",")[2])
            rows[at] = fields.joined(separator: ",")
        }
        for _ in 0..<(k / 4) { rows.remove(at: Int(random.next() % UInt64(rows.count))) }
        for _ in 0..<(k - k / 2 - k / 4) { rows.append(row(nextID)); nextID += 1 }
        let p0 = monotonicSeconds()
        let set = load()
        guard let plan = session.planUpdate(to: set, dataset: nil, idProperty: "id") else { benchFail("no update planned") }
        let updated = plan.applied().session
        planMs.append((monotonicSeconds() - p0) * 1000)

        // CPU time of this process (the machine is shared: wall time says more about the others).
        let w0 = processCPUMilliseconds()
        let freshEngine = FilterEngine(session: updated)
        let fresh = try? freshEngine.run(settings)
        freshMs.append(processCPUMilliseconds() - w0)
        freshTableMs.append(freshEngine.tableMilliseconds)
        let following = FilterEngine(session: updated, following: engine)
        let w1 = processCPUMilliseconds()
        let shown = try? following.run(settings)
        followMs.append(processCPUMilliseconds() - w1)
        let w2 = processCPUMilliseconds()
        _ = try? following.run(settings)
        againMs.append(processCPUMilliseconds() - w2)
        guard let shown, let fresh, shown.passing == fresh.passing, shown.total == fresh.total else {
            benchFail("the followed filter differs from a fresh one")
        }
        decoded.append(following.recordsDecoded)
        followTableMs.append(following.tableMilliseconds)
        passing = shown.passing
        session = updated
        engine = following
    }
    func median(_ v: [Double]) -> String { String(format: "%.1f", v.sorted()[v.count / 2]) }
    print("{\"bench\":\"filterlive\",\"points\":\(n),\"changes\":\(k),\"runs\":\(runs),\"passing\":\(passing),"
          + "\"first_filter_ms\":\(String(format: "%.1f", firstMs)),\"read_and_plan_ms\":\(median(planMs)),"
          + "\"fresh_engine_cpu_ms\":\(median(freshMs)),\"following_engine_cpu_ms\":\(median(followMs)),"
          + "\"built_engine_cpu_ms\":\(median(againMs)),\"fresh_table_ms\":\(median(freshTableMs)),"
          + "\"following_table_ms\":\(median(followTableMs)),\"records_decoded\":\(decoded)}")
}
