import CGtk
import Foundation
import AppSupport
import GeoData

/// The time bar (SPEC §10, issue 29 item 4): any date property of the shown data drives a bar
/// under the map; its shown range goes to the filter (`setFilter`, newest request wins), so the
/// map shows the places of that time, exactly. The earthquake replay is the same bar over the
/// quakes' dates, driving the live index instead (`MapViewController+Replay.swift`).
extension MapViewController {
    /// Shows or hides the bar (menu, Ctrl+T).
    func toggleTimeBar() {
        timeBar.toggleWanted()
        eventLog.emit("time-bar-toggle", [("shown", .bool(timeBar.wanted))])
        if timeBar.wanted { buildTimeBar() } else { closeTimeBar() }
    }

    /// New data is shown: the bar follows it (the launch's `--time PROPERTY` asks for it).
    func timeBarDataDidLoad(generation: Int) {
        if generation == 1, let t = options.filters.timeProperty {
            checkLaunchTimeOption(t)   // MapViewController+LaunchChecks.swift
            timeBar.want(property: t)
        } else if let source = filterMemory.shownSource, let saved = filterMemory.saved.timeBar(for: source) {
            // The bar as it was left on this file (the state file); the command line's wins.
            timeBar.want(restoring: saved)
        }
        timeBar.dataChanged()
        if case .replay = live.source { return }
        if timeBar.wanted { buildTimeBar() } else { showTimeBar() }
    }

    private func closeTimeBar() {
        let hadRange = timeBar.lastAsked != nil
        timeBar.closed()
        showTimeBar()
        if hadRange {
            var s = presentation.filterSettings
            s.since = nil
            s.until = nil
            setFilter(s)
        }
    }

    /// Reads the shown data's date column off the GTK thread and shows the bar over it (a
    /// table's: read on the server, `MapViewController+DatabaseTimeBar.swift`).
    func buildTimeBar() {
        if let t = tableFilter, let link = database { return buildTableTimeBar(t, link) }
        guard let session, !live.isReplay else { return }
        let generation = timeBar.generation
        let wanted = timeBar.property
        let engine = presentation.filterEngine(), types = presentation.filterSettings.types
        Thread.detachNewThread { [weak self] in
            let table = engine?.propertyTable(types: types) ?? session.propertyTable()
            let name = wanted.flatMap { table.contains($0) && table.type(of: $0) == .date ? $0 : nil }
                ?? table.names(ofType: .date).first
            let bar = name.flatMap { table.column($0) }.flatMap { TimeBar(column: $0, mode: .cumulative) }
            runOnGtkThread { [weak self] in
                guard let c = self, !c.isClosed, generation == c.timeBar.generation, c.timeBar.wanted else { return }
                c.timeBarDidBuild(bar, noDates: "No property of these places holds dates, so there is no time bar.")
            }
        }
    }

    /// The bar worked out for the shown data (nil: it has no dates, said by `noDates`): shown as
    /// it was left when remembered (paused), its range asked of the filter unless it holds it.
    func timeBarDidBuild(_ bar: TimeBar?, noDates: String, fields extra: [(String, JSONValue)] = []) {
        guard let bar else {
            chrome?.show(message: noDates, isError: false)
            timeBar.noDates()
            return
        }
        let restore = timeBar.takeRestore()
        let shown = restore.map { bar.restored($0) } ?? bar
        timeBar.show(shown)
        timeBar.restoredPaused(wasPlaying: restore?.playing == true)
        var fields = timeBarFields(shown, reason: restore != nil ? "restored" : "shown") + extra
        if let restore { fields.append(("was_playing", .bool(restore.playing))) }
        eventLog.emit("time-bar", fields)
        // Usually the restored filter already holds the restored range; otherwise (the
        // command line chose another filter) the bar's range is asked.
        if restore != nil {
            if shown.applied(to: presentation.filterSettings) == presentation.filterSettings {
                timeBar.alreadyApplied(shown.shown)
            } else {
                askTimeBarRange()
            }
        }
        showTimeBar()
    }

    /// What the bar says, in the view.
    func showTimeBar() {
        guard !live.isReplay else { return }
        guard let bar = timeBar.model else {
            chrome?.timeBarDidChange(nil, text: "", playing: false, finished: false)
            return
        }
        var text = "\(bar.rangeText) · \(bar.speedText)"
        if case .window = bar.window.mode { text = "Window " + text }
        if timeBar.countsSampledPercent != nil { text += " · counts about" }
        if timeBar.wasPlaying { text += " · was playing: P plays on" }
        chrome?.timeBarDidChange(bar, text: text, playing: bar.isPlaying, finished: false)
    }

    /// A request from the bar (its buttons, keys, a click or drag, the frame clock).
    func timeBarRequest(_ request: TimeBarView.Request) {
        if live.isReplay { replayRequest(request); return }
        guard var bar = timeBar.model else { return }
        let now = MapViewController.now()
        var reason: String?
        if case .tick = request {} else { timeBar.acted() }
        switch request {
        case .playPause: bar.togglePlaying(at: now); reason = bar.isPlaying ? "play" : "pause"
        case .slower: bar.changeSpeed(by: 0.5); reason = "speed"
        case .faster: bar.changeSpeed(by: 2); reason = "speed"
        case .start: bar.rewind(); reason = "start"
        case .end: bar.moveToEnd(); reason = "end"
        case .step(let n): bar.step(n); reason = "step"
        case .seek(let f): bar.move(to: bar.histogram.time(at: f)); reason = "seek"
        case .mode: bar.toggleMode(); reason = "mode"
        case .tick(let t):
            bar.tick(at: t)
            countPlayFrame(at: t)
            if !bar.isPlaying { reason = "end" }
        }
        timeBar.show(bar)
        chrome?.timeBarSetTicking(bar.isPlaying)
        if case .tick = request { askTimeBarRange(whenLanded: now) } else { askTimeBarRange() }
        // Stopped (paused, at the end): the last step's exact build, held while playing, is made now.
        if !bar.isPlaying && tableFilter == nil { filterWorker.settlePlay() }
        if let reason { eventLog.emit("time-bar", timeBarFields(bar, reason: reason)) }
        showTimeBar()
    }

    /// A filter landed on the map: a playing bar moves on and asks for its next range at once
    /// (not at the next frame: that wait was up to a frame per range). A bar that stopped at the
    /// end while an older range was on its way asks for its last range now (no tick asks any
    /// more: a slow table showed a window before the end, the bar said the end).
    func timeBarFilterDidLand() {
        guard timeBar.model != nil, !live.isReplay else { return }
        if timeBar.isPlaying { timeBarRequest(.tick(MapViewController.now())) } else { askTimeBarRange() }
    }

    /// Hands the shown range to the filter when it changed. While playing (`whenLanded` the
    /// frame's time), only once the last range asked has landed on the map: the filter shows only
    /// the newest request's result, so asking at every frame (60 a second, each taking ~15 ms)
    /// made most results stale on arrival and whole seconds passed without a new frame.
    func askTimeBarRange(whenLanded now: Double? = nil) {
        guard let bar = timeBar.model, bar.shown != timeBar.lastAsked else { return }
        if let now, !filterLanded {
            // A table's view still on its way is waited for however long the server takes: asking
            // again would cancel it, and with views slower than the half second none would land.
            if let link = database, link.waiting != nil || link.requestPending { return }
            if now - timeBar.askedAt < 0.5 { return }
        }
        timeBar.asked(bar.shown, at: now ?? MapViewController.now())
        setFilter(bar.applied(to: presentation.filterSettings), playStep: bar.isPlaying)
    }

    /// The filter's window changed from elsewhere (the panel's date row, a chip): the bar follows
    /// it, paused — one source of truth. Its own request comes back with its own range, so it
    /// changes nothing there (no loop).
    func timeBarFollowFilter(_ settings: FilterSettings) {
        guard let bar = timeBar.model, !live.isReplay,
              settings.timeProperty == nil || settings.timeProperty == bar.window.property else { return }
        let own = bar.applied(to: settings)
        guard own.since != settings.since || own.until != settings.until,
              let followed = bar.following(since: settings.since, until: settings.until) else { return }
        timeBar.show(followed)
        timeBar.alreadyApplied(followed.shown)
        chrome?.timeBarSetTicking(false)
        eventLog.emit("time-bar", timeBarFields(followed, reason: "filter"))
        showTimeBar()
    }

    /// Whether the filter asked last is the one the map shows (none in flight).
    private var filterLanded: Bool {
        // A table: its view under the asked filter is on the map (`DatabaseLink.shows`).
        if let t = tableFilter, let link = database { return link.shows(t.live.variant) }
        let asked = presentation.filterSettings
        return asked.isEmpty ? presentation.shownFilter == nil : presentation.shownFilter?.settings == asked
    }

    /// Counts the frame clock's ticks and the filtered ranges the map has shown since; reports
    /// both once a second while playing (`time-bar-play`: the window's frames per second).
    private func countPlayFrame(at t: Double) {
        var shown = presentation.shownFilter.map { "\($0.settings.since ?? "")|\($0.settings.until ?? "")" }
        var passing = presentation.shownFilter?.passing ?? 0
        if let link = database {
            // A table: a new window on the map is an answer under another filter; its rows in view.
            shown = link.shownVariant
            passing = session?.remote?.pointCount ?? 0
        }
        guard let counts = timeBar.countFrame(at: t, shown: shown) else { return }
        eventLog.emit("time-bar-play", [("ticks", .int(counts.ticks)), ("frames", .int(counts.frames)),
                                        ("fps", .number((Double(counts.frames) / counts.seconds * 10).rounded() / 10)),
                                        ("passing", .int(passing))])
    }

    /// What the state file keeps of the bar (nil: hidden), for the shown file.
    var savedTimeBar: SavedTimeBar? {
        guard timeBar.wanted, !live.isReplay else { return nil }
        return timeBar.model.map(SavedTimeBar.init) ?? timeBar.restore
    }

    func timeBarFields(_ bar: TimeBar, reason: String) -> [(String, JSONValue)] {
        let r = bar.filterRange
        return [("reason", .string(reason)), ("property", .string(bar.window.property)),
                ("since", .string(bar.showsEverything ? "" : r.since)), ("until", .string(bar.showsEverything ? "" : r.until)),
                ("playhead", .string(bar.playheadText)), ("playing", .bool(bar.isPlaying)),
                ("speed", .string(bar.speedText)), ("mode", .string(bar.window.mode == .cumulative ? "cumulative" : "window"))]
    }
}
