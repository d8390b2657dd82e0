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
        live.stop()
        live.source = .replay
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
                    c.live.replay = replay
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
        live.replayTimer = runAfter(MapViewController.replayStepSeconds) { [weak self] in
            self?.live.replayTimer = 0
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

    /// Shows the replay's date and speed in the chip (hides it when there is no replay).
    func updateReplayChip() {
        guard case .replay = live.source, let replay = live.replay else {
            chrome?.replayDidChange(date: nil, daysPerSecond: 0, paused: false, finished: false)
            return
        }
        chrome?.replayDidChange(date: replay.date, daysPerSecond: replay.daysPerSecond, paused: live.replayPaused,
                                  finished: replay.isFinished)
    }

    /// Pauses or resumes the replay (the chip's middle button).
    func toggleReplayPause() {
        guard live.replay != nil else { return }
        live.replayPaused.toggle()
        eventLog.emit("replay-pause", [("paused", .bool(live.replayPaused))])
        updateReplayChip()
    }

    private func replayStep() {
        guard case .replay = live.source, let replay = live.replay else { return }
        if live.replayPaused { scheduleReplayStep(); return }
        let before = replay.shown
        let added = replay.advance(seconds: MapViewController.replayStepSeconds)
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
        updateReplayChip()
        if !replay.isFinished { scheduleReplayStep() }
    }

    /// Replay speed control: multiplies the days replayed per second (keys `]` and `[`).
    func changeReplaySpeed(by factor: Double) {
        guard let replay = live.replay else { return }
        replay.daysPerSecond = min(3650, max(1, replay.daysPerSecond * factor))
        eventLog.emit("replay-speed", [("days_per_second", .number(replay.daysPerSecond))])
        updateReplayChip()
    }
}
