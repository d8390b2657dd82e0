import AppSupport
import ClusterCore
import Foundation
import GeoData

// `clustermap-bench timebar [--points N] [--frames F]` (SPEC §8: the time bar playing over 1M
// points stays at ≥ 30 frames per second).

/// Plays a 7-day time bar over N places (uniform over Spain, a `when` over one year, a `kind`
/// of four) through the window's own path: a CSV read by the app's reader, the session's
/// property table, `FilterEngine.run` of the bar's `FilterSettings` (evaluate the window,
/// exact `SubsetClusterer` build of the passing places) and a 1280×800 frame's query. One bar
/// step of a day per frame. Prints one JSON line: per-frame medians and p95 (ms), the frames per
/// second that gives, and the process CPU per frame.
func runTimeBarBenchmark(_ args: [String]) {
    var n = 1_000_000, frames = 60
    let given = benchNumbers(args, ["--points", "--frames"])
    n = given["--points"] ?? n; frames = given["--frames"] ?? frames
    var random = SeededRandom(seed: 294)
    let kinds = ["burglary", "fire", "flood", "theft"]
    var csv = "lat,lon,when,kind\n"
    csv.reserveCapacity(n * 48)
    for _ in 0..<n {
        let t = 1_293_840_000 + Int(random.uniform(0, 365 * 86400))
        csv += "\(String(format: "%.5f", random.uniform(36, 43.5))),\(String(format: "%.5f", random.uniform(-9, 3))),"
        csv += "\(DateText.text(Double(t))),\(kinds[Int(random.next() % 4)])\n"
    }
    let t0 = monotonicSeconds()
    guard let set = try? PointSetLoader.load(bytes: Array(csv.utf8), name: "timebar.csv", options: LoadOptions(format: .csv)) else {
        benchFail("the generated CSV did not load")
    }
    csv = ""
    let session = MapDataSession(pointSets: [set])
    let loadMs = (monotonicSeconds() - t0) * 1000
    let t1 = monotonicSeconds()
    let table = session.propertyTable()
    guard let column = table.column("when"), var bar = TimeBar(column: column, mode: .window(seconds: 7 * 86400)) else {
        benchFail("no date column")
    }
    let engine = FilterEngine(session: session)
    _ = try? engine.run(FilterSettings(conditions: ["kind != 'none'"]))  // the engine's own columns, built once (as the first filter in the window)
    let columnsMs = (monotonicSeconds() - t1) * 1000

    // Mid-March, one day per frame.
    bar.move(to: 1_299_888_000)
    var wall: [Double] = [], cpu: [Double] = [], passing: [Int] = []
    var buffer: [ClusterItem] = []
    let view = GeoBounds(west: -9.5, south: 35.5, east: 3.5, north: 44)
    for _ in 0..<frames {
        let c0 = processCPUMilliseconds(), w0 = monotonicSeconds()
        bar.step(1)
        guard let shown = try? engine.run(bar.applied(to: FilterSettings())) else { benchFail("the window did not filter") }
        shown.index.clusters(in: view, zoom: 6, into: &buffer)
        wall.append((monotonicSeconds() - w0) * 1000)
        cpu.append(processCPUMilliseconds() - c0)
        passing.append(shown.passing)
    }
    func pct(_ v: [Double], _ p: Double) -> Double {
        let s = v.sorted()
        return s[min(s.count - 1, Int(Double(s.count - 1) * p))]
    }
    let median = pct(wall, 0.5)
    func r(_ v: Double) -> String { String(format: "%.1f", v) }
    print("{\"bench\":\"timebar\",\"points\":\(n),\"frames\":\(frames),\"load_ms\":\(r(loadMs)),\"columns_ms\":\(r(columnsMs)),"
        + "\"passing_median\":\(passing.sorted()[passing.count / 2]),\"frame_ms_median\":\(r(median)),\"frame_ms_p95\":\(r(pct(wall, 0.95))),"
        + "\"fps\":\(r(1000 / median)),\"frame_cpu_ms_median\":\(r(pct(cpu, 0.5)))}")
}

private extension FilterSettings {
    init(conditions: [String]) {
        self.init()
        self.conditions = conditions
    }
}
