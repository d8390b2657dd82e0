import ClusterCore
import Foundation

// `clustermap-bench update [--points N] [--changes K] [--runs R]` (SPEC §8: add or remove 1,000
// points in a 1M-point index → next clustered frame ≤ 50 ms).

/// Builds a `LiveClusterIndex` of N uniform random points, then times batches of K additions,
/// K removals and K moves, each followed by the query a 1280×800 frame makes at a few zooms.
/// Prints one JSON line with the medians (wall and thread CPU time, ms).
func runUpdateBenchmark(_ args: [String]) {
    var n = 1_000_000, k = 1000, runs = 5
    let given = benchNumbers(args, ["--points", "--changes", "--runs"])
    n = given["--points"] ?? n; k = given["--changes"] ?? k; runs = given["--runs"] ?? runs
    var random = SeededRandom(seed: 42)
    func point() -> GeoCoordinate {
        GeoCoordinate(latitude: random.uniform(-85, 85), longitude: random.uniform(-180, 180))
    }
    let points = (0..<n).map { _ in point() }
    let buildStart = monotonicSeconds()
    let index = LiveClusterIndex(points: points)
    let buildMs = (monotonicSeconds() - buildStart) * 1000

    // The frame's query: a 1280×800 view (plus margin) around a random spot at zooms 2, 6, 10, 14.
    var buffer: [ClusterItem] = []
    func frameQuery() {
        for z in [2.0, 6, 10, 14] {
            let c = point()
            let world = 256 * pow(2, z)
            let halfW = 680 / world * 360, halfH = min(85, 440 / world * 180)
            index.clusters(in: GeoBounds(west: c.longitude - halfW, south: max(-85, c.latitude - halfH),
                                         east: c.longitude + halfW, north: min(85, c.latitude + halfH)),
                           zoom: z, into: &buffer)
        }
    }

    var addWall: [Double] = [], addCPU: [Double] = [], removeWall: [Double] = [], removeCPU: [Double] = []
    var moveWall: [Double] = [], moveCPU: [Double] = []
    func timed(_ body: () -> Void) -> (Double, Double) {
        let w0 = monotonicSeconds(), c0 = threadCPUMilliseconds()
        body()
        frameQuery()
        return ((monotonicSeconds() - w0) * 1000, threadCPUMilliseconds() - c0)
    }
    for _ in 0..<runs {
        let additions = (0..<k).map { _ in point() }
        var added: [Int] = []
        let (aw, ac) = timed { added = index.add(contentsOf: additions) }
        addWall.append(aw); addCPU.append(ac)
        let victims = (0..<k).map { _ in Int(random.next() % UInt64(index.inputCount)) }
        let (rw, rc) = timed { index.remove(contentsOf: victims) }
        removeWall.append(rw); removeCPU.append(rc)
        let moves = added.map { (id: $0, to: point()) }
        let (mw, mc) = timed { index.move(contentsOf: moves) }
        moveWall.append(mw); moveCPU.append(mc)
    }
    // Compaction as the app does it when data and camera rest: the snapshot and the install run
    // on the GTK thread (they must be short), the full build on another one.
    let snapshotStart = monotonicSeconds()
    let job = index.compaction()
    let snapshotMs = (monotonicSeconds() - snapshotStart) * 1000
    let buildStart2 = monotonicSeconds()
    job?.build()
    let backgroundMs = (monotonicSeconds() - buildStart2) * 1000
    let installStart = monotonicSeconds()
    let installed = job.map(index.finish) ?? false
    let installMs = (monotonicSeconds() - installStart) * 1000
    let releaseStart = monotonicSeconds()
    job?.releaseRetired()  // the app does this on another thread
    let releaseMs = (monotonicSeconds() - releaseStart) * 1000
    if !installed { benchFail("the compaction was not installed") }
    // And in one call, after another round of changes.
    index.add(contentsOf: (0..<k).map { _ in point() })
    let compactStart = monotonicSeconds()
    index.compact()
    let compactMs = (monotonicSeconds() - compactStart) * 1000
    func median(_ v: [Double]) -> String { fixed(v.sorted()[v.count / 2], digits: 2) }
    print("{\"bench\":\"update\",\"points\":\(n),\"changes\":\(k),\"runs\":\(runs),\"build_ms\":\(fixed(buildMs)),"
        + "\"add_then_frame_ms\":\(median(addWall)),\"add_then_frame_cpu_ms\":\(median(addCPU)),"
        + "\"remove_then_frame_ms\":\(median(removeWall)),\"remove_then_frame_cpu_ms\":\(median(removeCPU)),"
        + "\"move_then_frame_ms\":\(median(moveWall)),\"move_then_frame_cpu_ms\":\(median(moveCPU)),"
        + "\"compact_ms\":\(fixed(compactMs)),\"compact_background_ms\":\(fixed(backgroundMs)),"
        + "\"compact_snapshot_ms\":\(fixed(snapshotMs, digits: 2)),\"compact_install_ms\":\(fixed(installMs, digits: 2)),"
        + "\"compact_release_ms\":\(fixed(releaseMs, digits: 2)),\"peak_rss_mb\":\(fixed(peakRSSMegabytes()))}")
}

/// CPU time of the calling thread (not counting time other processes had the core), ms.
func threadCPUMilliseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e3 + Double(ts.tv_nsec) / 1e6
}
