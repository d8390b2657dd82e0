import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel
import MapRender
import TilesOnline

/// Live data (SPEC §3.4, §4): a watched file, a refreshing GeoJSON feed, or the earthquake
/// replay change the shown session in place; camera and selection stay.
extension MapViewController {
    /// Whether the launch data comes from a live source rather than the launch file load.
    static func launchIsLive(_ options: LaunchOptions) -> Bool {
        options.dataset == LaunchOptions.liveEarthquakes || (options.files.count == 1 && LaunchOptions.isURL(options.files[0]))
    }

    /// Starts the launch's feed or replay (a launch file is watched once it has loaded).
    func startLiveSource(window: UnsafeMutablePointer<GtkWidget>) {
        installRefreshAction(window: window)
        if options.dataset == LaunchOptions.liveEarthquakes {
            startReplay()
        } else if options.files.count == 1 && LaunchOptions.isURL(options.files[0]) {
            startFeed(url: options.files[0])
        } else if options.dataset == nil {
            live.willLoad(files: options.files)
        }
    }

    /// A load finished and its session is shown: watch its file, when it is one local file.
    func liveDataDidLoad() {
        let files = live.takeLoadedFiles()
        guard files.count == 1, !LaunchOptions.isURL(files[0]), files[0] != "-" else { return }
        var st = stat()
        guard stat(files[0], &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return }
        watch(path: files[0])
        captureLiveIdentity()
    }

    // MARK: - Files

    private func watch(path: String) {
        live.startWatching(path: path)
        let file = g_file_new_for_path(path)
        defer { g_object_unref(UnsafeMutableRawPointer(file)) }
        guard let monitor = g_file_monitor_file(file, G_FILE_MONITOR_WATCH_MOVES, nil, nil) else { return }
        live.monitorStarted(OpaquePointer(monitor))
        let changed: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, OpaquePointer?, GFileMonitorEvent, gpointer?) -> Void = { _, _, _, event, data in
            UserData.controller(data)?.fileDidChange(event)
        }
        connectSignal(monitor, "changed", unsafeBitCast(changed, to: GCallback.self), owner: self)
        eventLog.emit("watch", [("path", .string(PointSetLoader.displayName(of: path)))])
    }

    fileprivate func fileDidChange(_ event: GFileMonitorEvent) {
        guard case .file = live.source else { return }
        if event == G_FILE_MONITOR_EVENT_DELETED || event == G_FILE_MONITOR_EVENT_MOVED_OUT {
            chrome?.show(message: "\(live.displayName) was removed; the map keeps what it showed.", isError: false)
            return
        }
        guard event != G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED else { return }
        // Writers append in bursts: read once things are quiet for a moment.
        live.fileChanged(quietFor: 0.15) { [weak self] in
            self?.reloadWatchedFile()
        }
    }

    private func reloadWatchedFile() {
        guard case .file(let path) = live.source, let session else { return }
        guard live.beginReload() else { return }
        let generation = live.generation
        let options = LoadOptions(latitudeColumn: self.options.latColumn, longitudeColumn: self.options.lonColumn)
        let idProperty = self.options.idProperty
        Thread.detachNewThread { [weak self] in
            var badLines: [Int] = [], reason: String?
            let result: Result<MapDataSession.UpdatePlan?, Error> = Result {
                let read = try LiveFileReader.load(path: path, options: options)
                badLines = read.badLines
                reason = read.firstReason
                return session.planUpdate(to: read.set, dataset: nil, idProperty: idProperty)
            }
            let bad = badLines, why = reason
            runOnGtkThread { [weak self] in
                guard let c = self, !c.isClosed else { return }
                c.live.fileRead(badLines: bad)
                if let first = bad.first, let why {
                    let count = bad.count == 1 ? "1 line" : "\(bad.count) lines"
                    c.chrome?.show(message: "\(c.live.displayName): \(count) skipped (line \(first): \(why))", isError: false)
                }
                c.liveReloadDidFinish(result, generation: generation)
            }
        }
    }

    private func liveReloadDidFinish(_ result: Result<MapDataSession.UpdatePlan?, Error>, generation: Int) {
        guard generation == live.generation else { return }
        live.reloadFinished()
        switch result {
        case .success(let plan?): applyLiveUpdate(plan)
        case .success(nil): break
        case .failure(let error):
            // A file caught half-written, or broken: what is shown stays.
            eventLog.emit("refresh-failed", [("error", .string(MessageText.line("\(error)")))])
            chrome?.show(message: "Couldn't read the changed \(live.displayName); the map keeps what it showed. \(MessageText.line("\(error)"))",
                         isError: false)
        }
        if live.takeReloadAgain() {
            reloadWatchedFile()
        }
    }

    // MARK: - Feeds

    private func startFeed(url: String) {
        let seconds = options.refreshSeconds ?? 60
        live.startFeed(url: url, refreshSeconds: seconds,
                       download: HTTPDownload(userAgent: OnlineBasemap.userAgent,
                                              deadlineSeconds: HTTPDownload.feedDeadline(refreshSeconds: seconds)))
        chrome?.loadDidStart(name: url)
        refreshFeed()
    }

    /// Fetches the feed now (also "Refresh Now" in the menu) and schedules the next refresh.
    func refreshFeed() {
        guard case .feed(let url, let seconds) = live.source, let download = live.download else { return }
        live.refreshStarted()
        let generation = live.generation
        download.get(url) { [weak self] result in
            guard let self, generation == self.live.generation else { return }
            self.live.scheduleRefresh(after: seconds) { [weak self] in
                self?.refreshFeed()
            }
            switch result {
            case .success(let data): self.parseFeed(data, url: url, generation: generation)
            case .failure(let error): self.feedFailed(Self.describe(error))
            }
        }
    }

    private static func describe(_ error: XYZTileSource.FetchError) -> String {
        switch error {
        case .http(let status): return "HTTP \(status)"
        case .network(let text): return text
        case .notFound: return "not found"
        case .cancelled: return "cancelled"
        }
    }

    private func parseFeed(_ data: Data, url: String, generation: Int) {
        let old = session
        let name = url.split(separator: "/").last.map(String.init) ?? url
        let idProperty = options.idProperty
        let started = ProcessClock.now()
        Thread.detachNewThread { [weak self] in
            let result: Result<(MapDataSession.UpdatePlan?, MapDataSession?), Error> = Result {
                let set = try PointSetLoader.load(bytes: [UInt8](data), name: name, options: LoadOptions(format: .geoJSON))
                if let old, old.sources.count == 1 { return (old.planUpdate(to: set, dataset: nil, idProperty: idProperty), nil) }
                return (nil, MapDataSession(pointSets: [set], datasets: [nil]))
            }
            runOnGtkThread { [weak self] in
                guard let c = self, !c.isClosed, generation == c.live.generation else { return }
                switch result {
                case .success((let plan, let fresh)):
                    c.live.refreshSucceeded()
                    if let fresh {
                        c.loadGeneration += 1
                        c.loadDidFinish(c.loadGeneration, session: fresh, failures: [], ms: (ProcessClock.now() - started) * 1000)
                        c.captureLiveIdentity()
                    } else if let plan {
                        c.applyLiveUpdate(plan)
                    }
                case .failure(let error):
                    c.feedFailed(MessageText.line("\(error)"))
                }
            }
        }
    }

    /// A refresh failed: what is shown stays, and a quiet message says so (once per outage).
    private func feedFailed(_ reason: String) {
        eventLog.emit("refresh-failed", [("error", .string(reason))])
        if session == nil { chrome?.loadDidEnd() }
        guard live.refreshFailed() else { return }
        let keeps = session == nil ? "" : "; the map keeps what it showed"
        chrome?.show(message: "Couldn't refresh \(live.displayName) (\(reason))\(keeps).", isError: session == nil)
    }

    // MARK: - Applying a change

    /// Shows the result of a live update in place: ids, camera and selection stay; a removed
    /// selected place closes its callout with a quiet message.
    func applyLiveUpdate(_ plan: MapDataSession.UpdatePlan) {
        guard let current = session else { return }
        let skippedBefore = current.sources.reduce(0) { $0 + $1.points.report.totalSkipped }
        let (updated, newID, names) = plan.applied()
        if sceneState.fan != nil { closeFan() }
        // One selection path: a selected place keeps its card (read again from the new data).
        let events = presentation.dataDidChange(to: updated, newID: newID)
        eventLog.emit(events)
        refilterData(keepingFrom: current)
        if events.contains(where: { $0.name == "deselect" }) {
            chrome?.show(message: "The selected place was removed from \(live.displayName).", isError: false)
        }
        chrome?.dataDidChange(names: names)
        let skipped = updated.sources.reduce(0) { $0 + $1.points.report.totalSkipped } + live.badLines.count
        if skipped > skippedBefore, let src = updated.sources.first {
            chrome?.show(message: src.points.report.messages.map { "\(src.points.sourceName): \($0)" }.joined(separator: "\n"),
                         isError: false)
        }
        logDataChanged(plan.change, session: updated, skipped: skipped)
        sceneDidChange()
        scheduleCompaction()
    }

    func logDataChanged(_ change: MapDataSession.Change, session: MapDataSession, skipped: Int) {
        eventLog.emit("data-changed", [("added", .int(change.added)), ("removed", .int(change.removed)),
                                       ("moved", .int(change.moved)), ("points", .int(session.clusterer.count)),
                                       ("skipped", .int(skipped))])
    }

    // MARK: - Menu

    private func installRefreshAction(window: UnsafeMutablePointer<GtkWidget>) {
        let action = g_simple_action_new("refresh-now", nil)!
        let activate: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
            guard let c = UserData.controller(data) else { return }
            switch c.live.source {
            case .feed: c.refreshFeed()
            case .file: c.reloadWatchedFile()
            default: break
            }
        }
        connectSignal(action, "activate", unsafeBitCast(activate, to: GCallback.self), owner: self)
        g_action_map_add_action(OpaquePointer(window), action)
        g_object_unref(gpointer(action))  // the window's action map holds it from here on
        // Enabled only while there is something to refresh (SPEC §4: a watched file or a feed);
        // for static data the menu item is greyed out instead of doing nothing.
        var enabled: Bool?
        let update = { [weak self] in
            guard let self, enabled != self.live.isRefreshable else { return }
            enabled = self.live.isRefreshable
            g_simple_action_set_enabled(action, self.live.isRefreshable ? 1 : 0)
            self.eventLog.emit("refresh-action", [("enabled", .bool(self.live.isRefreshable))])
        }
        live.observeSource(update)
        update()
    }
}
