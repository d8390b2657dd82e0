#if canImport(Glibc)
import Glibc
#endif

/// The loader's threads make way for the GTK thread during a big load (issue 14): on two cores a
/// load that runs at the same priority as the window starves it (and the software GL threads
/// that draw its frames), and the map stops following the pointer for seconds.
///
/// Only big loads are lowered: a small one is over before anyone pans, and at launch nothing
/// else wants the CPU but the window being built — while on a machine busy with other work a
/// lowered thread would wait behind all of it.
public enum LoaderPriority {
    /// The nice value loader threads of a big load run at: a contended core goes about three
    /// quarters to the GTK thread (nice 0); an idle machine still gives the loader everything.
    public static let niceness: Int32 = 5

    /// Files from this size on make a load big (the size from which they are also mapped).
    public static let bigLoadBytes = 16 << 20

    /// Whether loading `paths` is a big load (regular files adding up to `bigLoadBytes`).
    public static func isBig(_ paths: [String]) -> Bool {
        var total = 0
        for path in paths {
            var st = stat()
            if stat(path, &st) == 0 && st.st_mode & S_IFMT == S_IFREG { total += Int(st.st_size) }
        }
        return total >= bigLoadBytes
    }

    /// Lowers the calling thread's priority; threads it starts afterwards inherit it (Linux
    /// keeps a nice value per thread).
    public static func lowerCurrentThread() {
        #if os(Linux)
        // `who` 0 is the calling thread on Linux (a nice value is per thread there).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}
