import Foundation

/// This process's peak resident memory (VmHWM), restartable: writing 5 to `/proc/self/clear_refs`
/// sets the peak back to the current size (Linux ≥ 4.0), so a test measures its own peak and not
/// that of a test before it.
enum PeakMemory {
    /// Sets the peak to the current resident size.
    static func reset() {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return }
        _ = write(fd, "5", 1)
        close(fd)
    }

    /// VmHWM or VmRSS in MB (0 if /proc can't be read).
    static func megabytes(_ field: String = "VmHWM") -> Double {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
              let kb = Double(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kb / 1024
    }

    /// How far the peak rose above the resident size while `body` ran, in MB.
    static func rise(during body: () throws -> Void) rethrows -> Double {
        reset()
        let before = megabytes("VmRSS")
        try body()
        return megabytes("VmHWM") - before
    }
}
