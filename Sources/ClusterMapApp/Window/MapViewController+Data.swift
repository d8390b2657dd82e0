import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel
import PostGIS

/// Loading data off the GTK thread and handing it back the GLib way (ARCHITECTURE §4).
extension MapViewController {
    /// The files and datasets to show at launch: the command line's files, `--dataset NAME`,
    /// or the default dataset.
    static func initialSources(_ options: LaunchOptions, dataDirectory: String?) -> (files: [String], datasets: [Dataset?]) {
        // A `postgresql://` table is asked per view (`MapViewController+Database.swift`), not loaded.
        // So is a tile file: clustered data (`+ClusterTiles.swift`) or a street map (the base map).
        if !options.files.isEmpty { return (options.files.filter { !PostGISAddress.looksLikeAddress($0) && !ClusterTileLink.isTileFile($0) }, []) }
        let ds = options.dataset.flatMap(DatasetCatalog.dataset(id:)) ?? DatasetCatalog.defaultDataset
        guard let dir = dataDirectory else { return ([], []) }
        return ([ds.path(in: dir)], [ds])
    }

    /// Loads files in the background; on success they replace what is shown, on failure what is
    /// shown stays and the error is reported.
    func load(files: [String], datasets: [Dataset?]) {
        loadGeneration += 1
        currentLoadCancel?.cancel()
        closeDatabase()
        clusterTiles = nil
        live.stop()
        updateReplayChip()
        live.willLoad(files: datasets.allSatisfy { $0 == nil } ? files : [])
        filterDataWillLoad(files: files, datasets: datasets)
        currentLoadCancel = MapViewController.startLoad(files: files, datasets: datasets, generation: loadGeneration, log: eventLog,
                                                        options: options, to: LoadReceiver(controller: self))
        currentLoadIsBig = LoaderPriority.isBig(files)
        chrome?.loadDidStart(name: datasets.first??.title ?? files.map(PointSetLoader.displayName(of:)).joined(separator: ", "))
    }

    /// Starts loading on a background thread (also before the window exists, at launch); results
    /// come back on the GTK thread to `receiver`'s controller, as that load's generation.
    static func startLoad(files: [String], datasets: [Dataset?], generation: Int, log: EventLog,
                          options: LaunchOptions, to receiver: LoadReceiver) -> CancelFlag {
        let cancelFlag = CancelFlag()
        let started = ProcessClock.now()
        // The command line's CSV column names apply to files (datasets bring their own).
        let fileOptions = LoadOptions(latitudeColumn: options.latColumn, longitudeColumn: options.lonColumn)
        // Progress at most ~30 times a second: each update is a wake-up of the GTK thread.
        let throttle = ProgressThrottle()
        let keepApart = options.noClustering  // --no-clustering: no bubbles at all
        Thread.detachNewThread {
            // The map stays responsive while a big load's threads work.
            if LoaderPriority.isBig(files) { LoaderPriority.lowerCurrentThread() }
            var sets: [PointSet] = []
            var failures: [String] = []
            for (i, path) in files.enumerated() {
                let ds = i < datasets.count ? datasets[i] : nil
                do {
                    // A file with several layers (GDAL formats) gives a set per layer.
                    let layers = try PointSetLoader.loadLayers(path: path, options: ds?.loadOptions ?? fileOptions,
                                                      progress: { f in
                        if let bytes = throttle.takeHeldBytes() {
                            // A stream has been read: its complete byte count first.
                            log.emit("load-progress", [("bytes", .int(bytes))])
                            runOnGtkThread { receiver.controller?.loadProgress(generation, bytes: bytes) }
                        }
                        let total = (Double(i) + f) / Double(files.count)
                        guard throttle.admits(total) else { return }
                        log.emit("load-progress", [("fraction", .number((total * 1000).rounded() / 1000))])
                        runOnGtkThread { receiver.controller?.loadProgress(generation, total) }
                    }, streamProgress: { bytes in
                        // A pipe or standard input: its size is unknown, so progress is bytes read.
                        guard throttle.admits(bytes: bytes) else { return }
                        log.emit("load-progress", [("bytes", .int(bytes))])
                        runOnGtkThread { receiver.controller?.loadProgress(generation, bytes: bytes) }
                    }, isCancelled: { cancelFlag.isCancelled })
                    sets.append(contentsOf: layers)
                } catch is CancellationError {
                    runOnGtkThread(priority: G_PRIORITY_DEFAULT) { receiver.deliver { $0.loadDidCancel(generation) } }
                    return
                } catch {
                    // Every file's error is reported, not only the last one's (issue 15 item 5).
                    failures.append("\(error)")
                }
            }
            // Cancelled as the last file finished: no index is built for nothing (it kept a
            // cancelled big load's thread busy for seconds).
            if cancelFlag.isCancelled {
                runOnGtkThread(priority: G_PRIORITY_DEFAULT) { receiver.deliver { $0.loadDidCancel(generation) } }
                return
            }
            let session = sets.isEmpty ? nil : MapDataSession(pointSets: sets, datasets: datasets, keepPlacesApart: keepApart)
            let ms = (ProcessClock.now() - started) * 1000
            // Ahead of frames and layout: at idle priority the result of a launch load waited behind
            // the frames of the window's start (base-map tiles drawn a few per frame) — 90–230 ms
            // between the loader finishing and `load-done` in launches measured under load.
            runOnGtkThread(priority: G_PRIORITY_DEFAULT) {
                receiver.deliver { $0.loadDidFinish(generation, session: session, failures: failures, ms: ms) }
            }
        }
        return cancelFlag
    }

    /// The window is closing: the load stops and nothing it reports is delivered any more.
    func stopLoadingForClose() {
        markClosed()
        currentLoadCancel?.cancel()
        currentLoadCancel = nil
        loadGeneration += 1
    }

    /// Tells the chrome about the launch load (it started before the window existed).
    func announceInitialLoad() {
        guard currentLoadCancel != nil else { return }
        let initial = MapViewController.initialSources(options, dataDirectory: dataDirectory)
        chrome?.loadDidStart(name: initial.datasets.first??.title ?? initial.files.map(PointSetLoader.displayName(of:)).joined(separator: ", "))
    }

    /// Stops the running load; what is shown stays. Takes effect at once: results that were
    /// already on their way (e.g. a load that was indexing) are dropped.
    func cancelLoad() {
        guard let flag = currentLoadCancel else { return }
        flag.cancel()
        currentLoadCancel = nil
        loadGeneration += 1
        chrome?.loadDidEnd()
        eventLog.emit("load-cancelled")
    }

    /// A cancelled or replaced load's thread has ended: what it made is dropped. Logged
    /// (`load-dropped`) so a test knows nothing of that load can arrive any more.
    private func loadWasDropped() {
        eventLog.emit("load-dropped")
    }

    private func loadProgress(_ generation: Int, _ fraction: Double) {
        guard generation == loadGeneration else { return }
        chrome?.loadDidProgress(fraction)
    }

    private func loadProgress(_ generation: Int, bytes: Int) {
        guard generation == loadGeneration else { return }
        chrome?.loadDidReadBytes(bytes)
    }

    private func loadDidCancel(_ generation: Int) {
        guard generation == loadGeneration else { return loadWasDropped() }
        currentLoadCancel = nil
        chrome?.loadDidEnd()
        eventLog.emit("load-cancelled")
    }

    func loadDidFinish(_ generation: Int, session: MapDataSession?, failures: [String], ms: Double) {
        guard generation == loadGeneration else { return loadWasDropped() }
        currentLoadCancel = nil
        chrome?.loadDidEnd()
        if !failures.isEmpty { showErrors(failures) }
        guard let session else {
            if self.session == nil { chrome?.dataDidChange() }
            return
        }
        presentation.show(session)
        filterLoadedData(generation: generation)
        chrome?.dataDidChange()
        let skipMessages = session.sources.flatMap { s in s.points.report.messages.map { "\(s.points.sourceName): \($0)" } }
        if !skipMessages.isEmpty { chrome?.show(message: skipMessages.joined(separator: "\n"), isError: false) }
        let skipped = session.sources.reduce(0) { $0 + $1.points.report.totalSkipped }
        eventLog.emit("load-done", [("points", .int(session.pointCount)), ("skipped", .int(skipped)),
                                    ("ms", .number(ms.rounded())),
                                    ("at", .number(ProcessClock.millisecondsSinceStart().rounded()))])
        sceneDidChange()
        liveDataDidLoad()
        timeBarDataDidLoad(generation: generation)
        warmFilterAfterLoad()
        // The launch's files and demos open fitted to their data; the default world cities open
        // on the world. (Later loads from the menu or Open fit through the chrome, animated.)
        if generation == 1 && options.opensFittedToData {
            showAllData(animated: false)
        }
    }

    /// Moves the camera to show every point.
    func showAllData(animated: Bool) {
        guard let b = session?.bounds else { return }
        let ctx = beginInput()
        let insets = chrome?.openingInsets ?? .zero  // the legend card: data opens beside it, not under it
        let target = session?.openingCamera(from: ctx.camera, insets: insets) ?? ctx.camera.fitting(b, paddingPixels: 60, maxZoom: 14)
        apply(animated ? .fly(to: target, purpose: .showAll, in: ctx) : .set(target))
        gestureDidEnd()
    }

    /// Reports an error in the window and on stderr.
    func showError(_ message: String) { showErrors([message]) }

    /// Reports several errors (one per file): one line each on stderr and in the event log, one
    /// banner listing them all. Each is made one safe, bounded line first (`MessageText`).
    func showErrors(_ messages: [String]) {
        let lines = messages.map { MessageText.line($0) }
        for line in lines {
            ErrorOutput.write("clustermap", line)
            eventLog.emit("error", [("message", .string(line))])
        }
        chrome?.show(message: lines.joined(separator: "\n"), isError: true)
    }
}

/// A flag the GTK thread sets and the loading thread polls.
nonisolated final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func cancel() { lock.lock(); value = true; lock.unlock() }
}
