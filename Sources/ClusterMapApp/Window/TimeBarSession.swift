import AppSupport
import GeoData

/// The window's time bar state (owned by `MapViewController`, GTK thread only): the bar over the
/// shown data's date property, whether the person wants it, and the play counters the event log
/// reports (how many filtered frames a second of playing showed).
final class TimeBarSession {
    /// The bar over the shown data (nil: none, or not worked out yet).
    private(set) var model: TimeBar?
    /// The person asked for the bar (`--time PROPERTY`, the menu, Ctrl+T).
    private(set) var wanted = false
    /// The date property asked for (nil: the first date property).
    private(set) var property: String?
    /// The bar remembered for the file being opened (the state file), applied once it is built.
    private(set) var restore: SavedTimeBar?
    /// Bumped for each data change: a bar worked out for older data is dropped.
    private(set) var generation = 0
    /// Whether the bar plays (the map is then never at rest).
    var isPlaying: Bool { model?.isPlaying ?? false }
    /// The shown range last handed to the filter (so a tick that doesn't change it asks nothing).
    private(set) var lastAsked: Range<Double>?
    /// When it was asked (a range that never lands is asked again after half a second).
    private(set) var askedAt = 0.0
    /// The bar came back paused from the state file where it had been playing (it says so until
    /// the person acts on it).
    private(set) var wasPlaying = false

    // Playing: what the event log reports once a second.
    /// When the current second of counting started (frame-clock seconds).
    private var countStart: Double?
    /// Frame-clock ticks and newly shown filtered ranges in the current second.
    private var ticks = 0
    private var shownFrames = 0
    /// The filtered range last seen on the map (a change is a new frame of the window's play).
    private var lastShown: String?

    /// The share of a big table the bar's counts were read from (percent; nil: every row).
    private(set) var countsSampledPercent: Double?

    /// A table's bar is being read again after its rows changed; `rereadAgain`: rows changed
    /// meanwhile (read once more when this read lands, never two reads at once).
    private(set) var rereading = false
    private(set) var rereadAgain = false

    /// The rows changed under a shown bar: returns whether to read it again now (false while a
    /// read runs: it is read once more after).
    func rereadWanted() -> Bool {
        guard model != nil else { return false }
        if rereading { rereadAgain = true; return false }
        rereading = true
        return true
    }

    /// A read again landed (or failed): returns whether the rows changed meanwhile.
    func rereadEnded() -> Bool {
        defer { rereading = false; rereadAgain = false }
        return rereadAgain
    }

    /// The bar's counts were read from `percent` % of a table (nil: every row).
    func countsRead(sampledPercent percent: Double?) { countsSampledPercent = percent }

    /// The person shows or hides the bar.
    func toggleWanted() { wanted.toggle() }

    /// The bar is asked for over `property` (nil: the first date property).
    func want(property: String?) {
        wanted = true
        self.property = property
    }

    /// The bar is asked for as it was left on this file (the state file).
    func want(restoring saved: SavedTimeBar) {
        want(property: saved.property)
        restore = saved
    }

    /// The shown data has no date property: no bar.
    func noDates() { wanted = false }

    /// New data is shown: the bar of the old is dropped (and one worked out for it meanwhile).
    func dataChanged() {
        generation += 1
        closed()
    }

    /// The bar is hidden (or dropped): no bar, no range asked.
    func closed() {
        model = nil
        countsSampledPercent = nil
        lastAsked = nil
        wasPlaying = false
    }

    /// The bar was restored paused; `playing`: it was playing when the state was saved.
    func restoredPaused(wasPlaying playing: Bool) { wasPlaying = playing }

    /// The person acted on the bar (play, step, seek…): "was playing" is old news.
    func acted() { wasPlaying = false }

    /// The remembered bar, to apply to the bar just built (asked once).
    func takeRestore() -> SavedTimeBar? {
        defer { restore = nil }
        return restore
    }

    /// The bar shown from now on.
    func show(_ bar: TimeBar) { model = bar }

    /// `range` was handed to the filter at `time` (frame-clock seconds).
    func asked(_ range: Range<Double>, at time: Double) {
        lastAsked = range
        askedAt = time
    }

    /// The filter already holds `range` (a restored bar): nothing to ask.
    func alreadyApplied(_ range: Range<Double>) { lastAsked = range }

    /// Counts a frame-clock tick at `t` and whether the map shows a new filtered range (`shown`);
    /// once a second has passed, returns that second's counts and starts the next.
    func countFrame(at t: Double, shown: String?) -> (ticks: Int, frames: Int, seconds: Double)? {
        if shown != lastShown { lastShown = shown; shownFrames += 1 }
        ticks += 1
        guard let start = countStart else { countStart = t; return nil }
        guard t - start >= 1 else { return nil }
        let counts = (ticks: ticks, frames: shownFrames, seconds: t - start)
        countStart = t
        ticks = 0
        shownFrames = 0
        return counts
    }
}
