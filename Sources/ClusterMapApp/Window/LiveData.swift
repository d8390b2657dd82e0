import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import TilesOnline

/// The state of the shown data's live source (SPEC §4 live data): the file being watched, the
/// feed being refreshed, or the earthquake replay. Owned by `MapViewController`; everything runs
/// on the GTK thread except the reading and comparing, which the controller does in the background.
final class LiveData {
    /// Where the shown data comes from.
    enum Source {
        case none
        /// A local file watched for changes.
        case file(path: String)
        /// A GeoJSON URL fetched every `refreshSeconds`.
        case feed(url: String, refreshSeconds: Double)
        /// The bundled earthquakes replayed in time order.
        case replay
    }

    var source = Source.none {
        didSet { onSourceChange?() }
    }
    /// Called after every change of `source` (the window keeps "Refresh Now" in step).
    var onSourceChange: (() -> Void)?

    /// Whether "Refresh Now" can do anything: a watched file is read again, a feed fetched again
    /// (bundled or static data and the replay have nothing to refresh).
    var isRefreshable: Bool {
        switch source {
        case .file, .feed: return true
        case .none, .replay: return false
        }
    }
    /// Bumped whenever the source changes: late results of an older source are dropped.
    var generation = 0
    /// Files to watch once the running load has finished (the files it is loading).
    var pendingFiles: [String] = []

    // File watching.
    var monitor: OpaquePointer?
    var reloadTimer: guint = 0
    /// A reload is running; `reloadAgain` asks for another one after it (the file changed meanwhile).
    var isReloading = false
    var reloadAgain = false
    /// Lines of the watched file skipped at the last reading (not valid JSON).
    var badLines: [Int] = []

    // Feed.
    var download: HTTPDownload?
    var refreshTimer: guint = 0
    var lastRefreshFailed = false

    // Background compaction (MapViewController+Compaction.swift).
    var compactTimer: guint = 0
    var isCompacting = false
    /// A compaction built while the camera moved, waiting for it to rest.
    var builtCompaction: (job: LiveClusterIndex.Compaction, index: LiveClusterIndex, ms: Double)?

    // Replay.
    var replay: EarthquakeReplay?
    var replayTimer: guint = 0
    var replayPaused = false

    /// Stops watching, refreshing and replaying.
    func stop() {
        if let monitor {
            g_file_monitor_cancel(UnsafeMutablePointer(monitor))
            g_object_unref(UnsafeMutableRawPointer(monitor))
        }
        monitor = nil
        for t in [reloadTimer, refreshTimer, replayTimer, compactTimer] where t != 0 { g_source_remove(t) }
        reloadTimer = 0; refreshTimer = 0; replayTimer = 0; compactTimer = 0
        builtCompaction = nil
        isReloading = false
        reloadAgain = false
        download = nil
        replay = nil
        replayPaused = false
        source = .none
        generation += 1
    }

    /// The name messages use for the source.
    var displayName: String {
        switch source {
        case .file(let path): return PointSetLoader.displayName(of: path)
        case .feed(let url, _): return url
        case .replay: return "Earthquakes"
        case .none: return ""
        }
    }
}

/// Calls `body` once after `seconds` on the GTK main loop; returns the source id.
@discardableResult
func runAfter(_ seconds: Double, _ body: @escaping @MainActor () -> Void) -> guint {
    let box = Unmanaged.passRetained(GtkWork(body)).toOpaque()
    return g_timeout_add_full(G_PRIORITY_DEFAULT, guint(max(1, seconds * 1000)), { data in
        let b = Unmanaged<GtkWork>.fromOpaque(data!).takeUnretainedValue()
        MainActor.assumeIsolated { b.work() }  // a GLib timeout of the main loop: the main thread
        return 0  // G_SOURCE_REMOVE
    }, box, { data in
        Unmanaged<GtkWork>.fromOpaque(data!).release()
    })
}
