#if canImport(Glibc)
import Glibc
#endif

/// The loader's threads make way for the GTK thread (issue 14): on two cores a load that runs at
/// the same priority as the window starves it (and the software GL threads that draw its frames),
/// and the map stops following the pointer for seconds.
public enum LoaderPriority {
    /// The nice value loader threads run at: the GTK thread (nice 0) gets about nine tenths of a
    /// contended core, and an idle machine still gives the loader everything.
    public static let niceness: Int32 = 10

    /// Lowers the calling thread's priority; threads it starts afterwards inherit it (Linux
    /// keeps a nice value per thread).
    public static func lowerCurrentThread() {
        #if os(Linux)
        // `who` 0 is the calling thread on Linux (a nice value is per thread there).
        _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        #endif
    }
}
