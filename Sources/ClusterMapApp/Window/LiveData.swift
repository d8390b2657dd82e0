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

    private(set) var source = Source.none {
        didSet { onSourceChange?() }
    }
    /// Called after every change of `source` (the window keeps "Refresh Now" in step).
    private var onSourceChange: (() -> Void)?

    /// Whether "Refresh Now" can do anything: a watched file is read again, a feed fetched again
    /// (bundled or static data and the replay have nothing to refresh).
    var isRefreshable: Bool {
        switch source {
        case .file, .feed: return true
        case .none, .replay: return false
        }
    }
    /// Bumped whenever the source changes: late results of an older source are dropped.
    private(set) var generation = 0
    /// Files to watch once the running load has finished (the files it is loading).
    private var pendingFiles: [String] = []

    // File watching.
    private var monitor: OpaquePointer?
    private var reloadTimer: guint = 0
    /// A reload is running; `reloadAgain` asks for another one after it (the file changed meanwhile).
    private(set) var isReloading = false
    private var reloadAgain = false
    /// Lines of the watched file skipped at the last reading (not valid JSON).
    private(set) var badLines: [Int] = []

    // Feed.
    private(set) var download: HTTPDownload?
    private var refreshTimer: guint = 0
    private var lastRefreshFailed = false

    // Background compaction (MapViewController+Compaction.swift).
    private var compactTimer: guint = 0
    private(set) var isCompacting = false
    /// A compaction built while the camera moved, waiting for it to rest.
    private(set) var builtCompaction: (job: LiveClusterIndex.Compaction, index: LiveClusterIndex, ms: Double)?

    // Replay.
    private(set) var replay: EarthquakeReplay?
    private var replayTimer: guint = 0
    private(set) var replayPaused = false

    /// Calls `update` after every change of the source.
    func observeSource(_ update: @escaping () -> Void) { onSourceChange = update }

    // MARK: - Starting a source

    /// A load of `files` starts: they are watched once it has loaded (pass none for datasets).
    func willLoad(files: [String]) { pendingFiles = files }

    /// The running load has finished: the files it loaded, to watch (asked once).
    func takeLoadedFiles() -> [String] {
        defer { pendingFiles = [] }
        return pendingFiles
    }

    /// Watches the file at `path` from now on (the monitor follows when GIO gives one).
    func startWatching(path: String) {
        stop()
        source = .file(path: path)
    }

    /// The file monitor of the watched file (cancelled by `stop()`).
    func monitorStarted(_ monitor: OpaquePointer) { self.monitor = monitor }

    /// Fetches the feed at `url` every `refreshSeconds` with `download` from now on.
    func startFeed(url: String, refreshSeconds: Double, download: HTTPDownload) {
        stop()
        source = .feed(url: url, refreshSeconds: refreshSeconds)
        self.download = download
    }

    /// Replays the bundled earthquakes from now on (the replay itself follows once loaded).
    func startReplay() {
        stop()
        source = .replay
    }

    /// The replay is loaded and runs.
    func replayLoaded(_ replay: EarthquakeReplay) { self.replay = replay }

    /// Pauses a running replay or resumes a paused one.
    func toggleReplayPause() { replayPaused.toggle() }

    // MARK: - Reloading the watched file

    /// The watched file changed: `body` runs once it has been quiet for `seconds` (a later change
    /// starts the wait again).
    func fileChanged(quietFor seconds: Double, _ body: @escaping @MainActor () -> Void) {
        if reloadTimer != 0 { g_source_remove(reloadTimer) }
        reloadTimer = runAfter(seconds) { [weak self] in
            self?.reloadTimer = 0
            body()
        }
    }

    /// A reading of the watched file is to start: returns false (and asks for another reading
    /// after it) while one is running.
    func beginReload() -> Bool {
        if isReloading { reloadAgain = true; return false }
        isReloading = true
        return true
    }

    /// A reading skipped `badLines` (their numbers).
    func fileRead(badLines: [Int]) { self.badLines = badLines }

    /// The reading ended.
    func reloadFinished() { isReloading = false }

    /// Whether the file changed during the reading (read it again; asked once).
    func takeReloadAgain() -> Bool {
        guard reloadAgain else { return false }
        reloadAgain = false
        return true
    }

    // MARK: - Refreshing the feed

    /// A refresh of the feed starts now: the one scheduled is not needed.
    func refreshStarted() {
        if refreshTimer != 0 { g_source_remove(refreshTimer); refreshTimer = 0 }
    }

    /// The feed answered: `body` refreshes it again after `seconds`.
    func scheduleRefresh(after seconds: Double, _ body: @escaping @MainActor () -> Void) {
        refreshTimer = runAfter(seconds) { [weak self] in
            self?.refreshTimer = 0
            body()
        }
    }

    /// A refresh succeeded: the next failure is said again.
    func refreshSucceeded() { lastRefreshFailed = false }

    /// A refresh failed: returns whether it is the first of an outage (the one to say).
    func refreshFailed() -> Bool {
        guard !lastRefreshFailed else { return false }
        lastRefreshFailed = true
        return true
    }

    // MARK: - Compaction and replay steps

    /// The data changed: `body` runs after `seconds` of rest (a later change starts the wait again).
    func dataChanged(restFor seconds: Double, _ body: @escaping @MainActor () -> Void) {
        if compactTimer != 0 { g_source_remove(compactTimer) }
        compactTimer = runAfter(seconds) { [weak self] in
            self?.compactTimer = 0
            body()
        }
    }

    /// A compaction is being built on another thread.
    func compactionStarted() { isCompacting = true }

    /// The compaction's build finished.
    func compactionBuilt() { isCompacting = false }

    /// Keeps a built compaction until the camera rests.
    func holdCompaction(_ job: LiveClusterIndex.Compaction, index: LiveClusterIndex, ms: Double) {
        builtCompaction = (job, index, ms)
    }

    /// The held compaction is installed now (or dropped).
    func releaseHeldCompaction() { builtCompaction = nil }

    /// `body` steps the replay after `seconds`.
    func scheduleReplayStep(after seconds: Double, _ body: @escaping @MainActor () -> Void) {
        replayTimer = runAfter(seconds) { [weak self] in
            self?.replayTimer = 0
            body()
        }
    }

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
