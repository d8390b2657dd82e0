import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel

/// Loading data off the GTK thread and handing it back the GLib way (ARCHITECTURE §4).
extension MapViewController {
    /// The files and datasets to show at launch: the command line's files, `--dataset NAME`,
    /// or the default dataset.
    static func initialSources(_ options: LaunchOptions, dataDirectory: String?) -> (files: [String], datasets: [Dataset?]) {
        if !options.files.isEmpty { return (options.files, []) }
        let ds = options.dataset.flatMap(DatasetCatalog.dataset(id:)) ?? DatasetCatalog.defaultDataset
        guard let dir = dataDirectory else { return ([], []) }
        return ([ds.path(in: dir)], [ds])
    }

    /// Loads files in the background; on success they replace what is shown, on failure what is
    /// shown stays and the error is reported.
    func load(files: [String], datasets: [Dataset?]) {
        loadGeneration += 1
        currentLoadCancel?.cancel()
        currentLoadCancel = MapViewController.startLoad(files: files, datasets: datasets, generation: loadGeneration, log: eventLog)
        chrome?.loadDidStart(name: datasets.first??.title ?? files.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
    }

    /// Starts loading on a background thread (also before the window exists, at launch); results
    /// come back on the GTK thread to the controller of that load's generation.
    static func startLoad(files: [String], datasets: [Dataset?], generation: Int, log: EventLog) -> CancelFlag {
        let cancelFlag = CancelFlag()
        let started = ProcessClock.now()
        Thread.detachNewThread {
            var sets: [PointSet] = []
            var failure: String?
            for (i, path) in files.enumerated() {
                let ds = i < datasets.count ? datasets[i] : nil
                do {
                    let set = try PointSetLoader.load(path: path, options: ds?.loadOptions ?? LoadOptions(),
                                                      progress: { f in
                        let total = (Double(i) + f) / Double(files.count)
                        log.emit("load-progress", [("fraction", .number((total * 1000).rounded() / 1000))])
                        runOnGtkThread { MapApplication.window?.controller.loadProgress(generation, total) }
                    }, isCancelled: { cancelFlag.isCancelled })
                    sets.append(set)
                } catch is CancellationError {
                    deliver { $0.loadDidCancel(generation) }
                    return
                } catch {
                    failure = "\(error)"
                }
            }
            let session = sets.isEmpty ? nil : MapDataSession(pointSets: sets, datasets: datasets)
            let ms = (ProcessClock.now() - started) * 1000
            deliver { $0.loadDidFinish(generation, session: session, failure: failure, ms: ms) }
        }
        return cancelFlag
    }

    /// Runs `body` on the GTK thread with the controller, waiting for the window if a launch load
    /// finishes before it exists.
    private static func deliver(_ body: @escaping (MapViewController) -> Void) {
        runOnGtkThread {
            if let c = MapApplication.window?.controller { body(c) } else { deliver(body) }
        }
    }

    /// Tells the chrome about the launch load (it started before the window existed).
    func announceInitialLoad() {
        guard currentLoadCancel != nil else { return }
        let initial = MapViewController.initialSources(options, dataDirectory: dataDirectory)
        chrome?.loadDidStart(name: initial.datasets.first??.title ?? initial.files.map { ($0 as NSString).lastPathComponent }.joined(separator: ", "))
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

    private func loadProgress(_ generation: Int, _ fraction: Double) {
        guard generation == loadGeneration else { return }
        chrome?.loadDidProgress(fraction)
    }

    private func loadDidCancel(_ generation: Int) {
        guard generation == loadGeneration else { return }
        currentLoadCancel = nil
        chrome?.loadDidEnd()
        eventLog.emit("load-cancelled")
    }

    private func loadDidFinish(_ generation: Int, session: MapDataSession?, failure: String?, ms: Double) {
        guard generation == loadGeneration else { return }
        currentLoadCancel = nil
        chrome?.loadDidEnd()
        if let failure { showError(failure) }
        guard let session else {
            if self.session == nil { chrome?.dataDidChange() }
            return
        }
        self.session = session
        sceneState = SceneState()
        containerCache = nil
        chrome?.dataDidChange()
        let skipMessages = session.sources.flatMap { s in s.points.report.messages.map { "\(s.points.sourceName): \($0)" } }
        if !skipMessages.isEmpty { chrome?.show(message: skipMessages.joined(separator: "\n"), isError: false) }
        let skipped = session.sources.reduce(0) { $0 + $1.points.report.totalSkipped }
        eventLog.emit("load-done", [("points", .int(session.pointCount)), ("skipped", .int(skipped)),
                                    ("ms", .number(ms.rounded()))])
        dataAttribution = session.attribution
        sceneDidChange()
        // Files open fitted to their data; bundled datasets open on the world, one click from flying in.
        if options.center == nil && options.zoom == nil && !options.files.isEmpty {
            showAllData(animated: false)
        }
    }

    /// Moves the camera to show every point.
    func showAllData(animated: Bool) {
        guard let b = session?.bounds else { return }
        let ctx = beginInput()
        let target = ctx.camera.fitting(b, paddingPixels: 60, maxZoom: 14)
        apply(animated ? .fly(to: target, purpose: .showAll, in: ctx) : .set(target))
        gestureDidEnd()
    }

    /// Reports an error in the window and on stderr.
    func showError(_ message: String) {
        FileHandle.standardError.write("clustermap: \(message)\n".data(using: .utf8)!)
        chrome?.show(message: message, isError: true)
        eventLog.emit("error", [("message", .string(message))])
    }
}

/// A flag the GTK thread sets and the loading thread polls.
final class CancelFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isCancelled: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func cancel() { lock.lock(); value = true; lock.unlock() }
}
