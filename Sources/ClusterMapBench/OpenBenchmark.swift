import AppSupport
import ClusterCore
import Foundation
import GeoData
import MapModel

// `clustermap-bench open FILE…`: the window's load path without a display (issue 14 item 1).
//
// Runs what `MapViewController.startLoad` runs on its loader thread — `PointSetLoader.load` with
// progress and cancel callbacks, then `MapDataSession(pointSets:)` — and then the first
// clustered frame's query (`visibleItems` for a 1280×800 camera showing all the data), and prints
// the wall time to that first frame, the CPU time of the whole process (both cores), the number
// of progress updates and the peak RSS.

/// Loads FILEs as the window does and prints one JSON line.
func runOpenBenchmark(_ args: [String]) {
    let files = args.filter { !$0.hasPrefix("--") }
    guard !files.isEmpty else { benchFail("usage: clustermap-bench open FILE… [--load-only]") }
    // As the window's loader thread: lowered priority, progress throttled to ~30 updates a second.
    if LoaderPriority.isBig(files) { LoaderPriority.lowerCurrentThread() }
    let throttle = ProgressThrottle()
    let start = monotonicSeconds(), cpuStart = processCPUSeconds()
    let updates = UpdateCounter()
    var sets: [PointSet] = []
    var bytes = 0
    for (i, path) in files.enumerated() {
        do {
            var st = stat()
            if stat(path, &st) == 0 { bytes += Int(st.st_size) }
            let set = try PointSetLoader.load(path: path, options: LoadOptions(), progress: { f in
                let total = (Double(i) + f) / Double(files.count)
                if throttle.admits(total) { updates.add(total) }
            }, streamProgress: { b in if throttle.admits(bytes: b) { updates.add(-1) } }, isCancelled: { false })
            sets.append(set)
        } catch {
            benchFail("\(error)")
        }
    }
    let loadedAt = monotonicSeconds(), loadCPU = processCPUSeconds() - cpuStart
    if args.contains("--load-only") {
        // The reader alone (profiling the parse): no index, no frame.
        let n = sets.reduce(0) { $0 + $1.count }
        print("{\"bench\":\"load\",\"points\":\(n),\"load_ms\":\(fixed((loadedAt - start) * 1000)),"
            + "\"load_cpu_ms\":\(fixed(loadCPU * 1000)),\"parse_gb_per_cpu_s\":\(fixed(Double(bytes) / 1e9 / max(loadCPU, 1e-9), digits: 2)),"
            + "\"peak_rss_mb\":\(fixed(peakRSSMegabytes()))}")
        return
    }
    let session = MapDataSession(pointSets: sets, datasets: [])
    let indexedAt = monotonicSeconds()
    var camera = Camera(center: GeoCoordinate(latitude: 0, longitude: 0), zoom: 2,
                        viewportSize: ScreenSize(width: 1280, height: 800))
    if let bounds = session.bounds { camera = camera.fitting(bounds) }
    let items = session.visibleItems(for: camera)
    let end = monotonicSeconds(), cpu = processCPUSeconds() - cpuStart
    let parseSeconds = loadedAt - start
    print("{\"bench\":\"open\",\"points\":\(session.pointCount),\"load_ms\":\(fixed(parseSeconds * 1000)),"
        + "\"parse_gb_per_s\":\(fixed(Double(bytes) / 1e9 / max(parseSeconds, 1e-9), digits: 2)),"
        + "\"parse_gb_per_cpu_s\":\(fixed(Double(bytes) / 1e9 / max(loadCPU, 1e-9), digits: 2)),"
        + "\"load_cpu_ms\":\(fixed(loadCPU * 1000)),\"index_ms\":\(fixed((indexedAt - loadedAt) * 1000)),"
        + "\"first_frame_ms\":\(fixed((end - start) * 1000)),\"cpu_ms\":\(fixed(cpu * 1000)),"
        + "\"progress_updates\":\(updates.count),\"items\":\(items.count),\"peak_rss_mb\":\(fixed(peakRSSMegabytes()))}")
}

/// Counts progress callbacks (they come from the loader's threads).
private final class UpdateCounter: @unchecked Sendable {
    private let lock = NSLock()
    private(set) var count = 0
    func add(_ fraction: Double) {
        lock.lock()
        count += 1
        lock.unlock()
    }
}

/// CPU time of the whole process (user + system, every thread), in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
