import Foundation

/// Phase timers for profiling index builds, compiled in only with `-D CLUSTERCORE_TRACE` (a
/// standalone driver build: `swiftc -O -wmo -D CLUSTERCORE_TRACE Sources/ClusterCore/**/*.swift
/// main.swift`). Each mark prints the calling thread's CPU time, the wall time and the resident
/// memory since the previous mark, so a build's time and memory can be split by phase on a busy
/// machine. In normal builds `buildTrace` is an empty inline function.
#if CLUSTERCORE_TRACE
nonisolated(unsafe) private var traceLast: (cpu: Double, process: Double, wall: Double) = (0, 0, 0)

/// Prints one phase line to standard error: the label, this thread's and the process's CPU
/// milliseconds, wall milliseconds, and the resident and peak resident MB now.
func buildTrace(_ label: @autoclosure () -> String) {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    let cpu = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
    let process = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    clock_gettime(CLOCK_MONOTONIC, &ts)
    let wall = Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    var rss = 0.0, peak = 0.0
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") || line.hasPrefix("VmHWM:") {
        let mb = (line.split(separator: " ").compactMap { Double($0) }.first ?? 0) / 1024
        if line.hasPrefix("VmRSS:") { rss = mb } else { peak = mb }
    }
    let line = String(format: "trace %-28@ cpu %7.1f proc %7.1f wall %7.1f rss %7.1f peak %7.1f\n", label() as NSString,
                      (cpu - traceLast.cpu) * 1000, (process - traceLast.process) * 1000, (wall - traceLast.wall) * 1000, rss, peak)
    FileHandle.standardError.write(Data(line.utf8))
    traceLast = (cpu, process, wall)
}
#else
/// Compiled out (see above).
@inline(__always) func buildTrace(_ label: @autoclosure () -> String) {}
#endif
