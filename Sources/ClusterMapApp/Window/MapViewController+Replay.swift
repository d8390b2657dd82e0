import CGtk
import Foundation
import AppSupport
import GeoData

/// `--dataset live-earthquakes`: the bundled earthquakes replayed in time order through the live
/// index, a batch every quarter second, so the live path can be seen with no network.
extension MapViewController {
    /// Seconds between replay steps.
    static let replayStepSeconds = 0.25

    func startReplay() {
        live.startReplay()
        guard let dir = dataDirectory, let ds = DatasetCatalog.dataset(id: "earthquakes") else {
            showError("Cannot find the bundled data folder (set CLUSTERMAP_DATA_DIR).")
            return
        }
        let speed = options.replayDaysPerSecond ?? 120
        let generation = live.generation
        let started = ProcessClock.now()
        chrome?.loadDidStart(name: "Earthquakes, replayed")
        Thread.detachNewThread { [weak self] in
            let result = Result { () throws -> EarthquakeReplay in
                let set = try PointSetLoader.load(path: ds.path(in: dir), options: ds.loadOptions)
                return EarthquakeReplay(set: set, dataset: ds, daysPerSecond: speed)
            }
            runOnGtkThread { [weak self] in
                guard let c = self, !c.isClosed, generation == c.live.generation else { return }
                switch result {
                case .success(let replay):
                    c.live.replayLoaded(replay)
                    c.loadGeneration += 1
                    c.loadDidFinish(c.loadGeneration, session: replay.session, failures: [], ms: (ProcessClock.now() - started) * 1000)
                    c.scheduleReplayStep()
                    c.updateReplayChip()
                case .failure(let error):
                    c.chrome?.loadDidEnd()
                    c.showError("\(error)")
                }
            }
        }
    }

    private func scheduleReplayStep() {
        live.scheduleReplayStep(after: MapViewController.replayStepSeconds) { [weak self] in
            self?.replayStep()
        }
    }

    /// The dataset menu chose the replay: drop any running load, then start it.
    func loadReplay() {
        loadGeneration += 1
        currentLoadCancel?.cancel()
        // The dropped load reports nothing any more (its generation is gone): it is over here.
        currentLoadCancel = nil
        startReplay()
    }

    /// Shows the replay's time bar: the quakes' histogram, the replayed part, its date and
    /// speed (the general bar's, or none, when there is no replay).
    func updateReplayChip() {
        guard case .replay = live.source, let replay = live.replay else {
            showTimeBar()
            return
        }
        let text = TimeBarView.replayText(date: replay.date, daysPerSecond: replay.daysPerSecond, paused: live.replayPaused,
                                          finished: replay.isFinished)
        chrome?.timeBarDidChange(replay.timeBar, text: text, playing: !live.replayPaused && !replay.isFinished,
                                 finished: replay.isFinished, isReplay: true)
    }

    /// The time bar's requests while it shows the replay: pause, speed, and steps or clicks
    /// forward (the live index only grows, so the replay doesn't go back).
    func replayRequest(_ request: TimeBarView.Request) {
        guard let replay = live.replay else { return }
        switch request {
        case .playPause: toggleReplayPause()
        case .slower: changeReplaySpeed(by: 0.5)
        case .faster: changeReplaySpeed(by: 2)
        case .step(let n) where n > 0:
            let before = replay.shown
            replayDidAdd(replay.step(n), before: before)
            eventLog.emit("time-bar", timeBarFields(replay.timeBar, reason: "step"))
            updateReplayChip()
        case .seek(let f):
            let target = replay.timeBar.histogram.time(at: f)
            let steps = Int(((target - replay.timeBar.window.playhead) / replay.timeBar.stepSeconds).rounded(.down))
            if steps > 0 { replayRequest(.step(steps)) }
        case .step, .start, .end, .mode, .tick: break
        }
    }

    /// Pauses or resumes the replay (the chip's middle button).
    func toggleReplayPause() {
        guard live.replay != nil else { return }
        live.toggleReplayPause()
        eventLog.emit("replay-pause", [("paused", .bool(live.replayPaused))])
        updateReplayChip()
    }

    private func replayStep() {
        guard case .replay = live.source, let replay = live.replay else { return }
        if live.replayPaused {
            // Logged so a test can watch paused steps pass without adding anything (no fixed wait).
            eventLog.emit("replay-idle", [("shown", .int(replay.shown))])
            scheduleReplayStep()
            return
        }
        let before = replay.shown
        replayDidAdd(replay.advance(seconds: MapViewController.replayStepSeconds), before: before)
        updateReplayChip()
        if !replay.isFinished { scheduleReplayStep() }
    }

    /// Shows the earthquakes the replay just added (`added` of them, after the first `before`).
    private func replayDidAdd(_ added: Int, before: Int) {
        guard let replay = live.replay else { return }
        if added > 0 {
            let shownBefore = session
            presentation.dataDidGrow(to: replay.session)
            refilterData(keepingFrom: shownBefore)
            chrome?.liveNamesDidChange(MapDataSession.NameChanges(named: Array(before..<replay.shown)))
            logDataChanged(MapDataSession.Change(added: added), session: replay.session, skipped: 0)
            eventLog.emit("replay", [("date", .string(replay.date)), ("shown", .int(replay.shown))])
            sceneDidChange()
            scheduleCompaction()
        }
    }

    /// Replay speed control: multiplies the days replayed per second (keys `]` and `[`).
    func changeReplaySpeed(by factor: Double) {
        guard let replay = live.replay else { return }
        replay.changeSpeed(by: factor)
        eventLog.emit("replay-speed", [("days_per_second", .number(replay.daysPerSecond))])
        updateReplayChip()
    }
}

extension LiveData {
    /// Whether the earthquake replay is the shown data's source.
    var isReplay: Bool {
        if case .replay = source { return true }
        return false
    }
}
