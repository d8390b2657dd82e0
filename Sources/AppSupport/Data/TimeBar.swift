import ClusterCore
import GeoData

/// The time bar under the map (SPEC §10, issue 29): a date property's histogram, a playhead with
/// a window behind it (e.g. the last 7 days) or everything since the start (cumulative), and a
/// play clock. Pure: the wall clock is an input (`tick(at:)`), so tests play a year in one call
/// and the GTK bar only draws what this says.
public struct TimeBar: Equatable, Sendable {
    /// Where the playhead is and what it shows (GeoData's `TimeWindow`).
    public private(set) var window: TimeWindow
    /// Counts over time, for the bar's background.
    public let histogram: TimeHistogram
    /// Seconds of data played per second of wall time.
    public private(set) var speed: Double
    /// Whether the clock moves the playhead.
    public private(set) var isPlaying = false
    /// One key step (comma, period, arrow keys), in seconds of data: the window's length in
    /// window mode (a step shows the next window, no data skipped or seen twice — kepler.gl's
    /// way), else a round span giving about 100 steps over the data.
    public var stepSeconds: Double {
        if case .window(let s) = window.mode, s > 0 { return s }
        return TimeBar.niceStep(forSpan: max(1, window.extent.upperBound - window.extent.lowerBound))
    }
    /// The wall time of the last tick while playing (nil: not started, or paused).
    private var lastTick: Double?

    /// Slowest and fastest speeds, as a share of the extent per second (a year of data plays
    /// in at most 1,000 minutes and at least a tenth of a second).
    static let slowestShare = 1.0 / 60_000, fastestShare = 10.0

    /// A bar over `window`'s extent with `histogram`; `speed` defaults to `defaultSpeed`.
    public init(window: TimeWindow, histogram: TimeHistogram, speed: Double? = nil) {
        self.window = window
        self.histogram = histogram
        self.speed = 1
        self.speed = clampedSpeed(speed ?? defaultSpeed)
    }

    /// The speed a mode starts at: about one window per second in window mode (at 60 frames a
    /// second each frame moves a 60th of the window, so every place is on screen for a second),
    /// else the whole extent in 30 s.
    public var defaultSpeed: Double {
        if case .window(let s) = window.mode, s > 0 { return s }
        return max(1, window.extent.upperBound - window.extent.lowerBound) / 30
    }

    /// The bar for a date column, with `bins` histogram bins; nil when the column has no dates.
    public init?(column: PropertyColumn, mode: TimeWindow.Mode, bins: Int = 120) {
        guard let w = TimeWindow(column: column, mode: mode) else { return nil }
        self.init(window: w, histogram: TimeHistogram(counts: column.histogram(bins: bins, over: w.extent), extent: w.extent))
    }

    // MARK: - The play clock

    /// Starts playing at wall time `now` (from the start again when at the end).
    public mutating func play(at now: Double) {
        if window.isAtEnd { window.rewind() }
        isPlaying = true
        lastTick = now
    }

    /// Stops the clock; the playhead stays.
    public mutating func pause() {
        isPlaying = false
        lastTick = nil
    }

    /// Play or pause (the button, space).
    public mutating func togglePlaying(at now: Double) {
        if isPlaying { pause() } else { play(at: now) }
    }

    /// Moves the playhead by the wall time since the last tick; stops at the end. Returns
    /// whether the shown range changed.
    @discardableResult
    public mutating func tick(at now: Double) -> Bool {
        guard isPlaying else { return false }
        let elapsed = max(0, now - (lastTick ?? now))
        lastTick = now
        let before = window.shown
        window = window.played(for: elapsed, speed: speed)
        if window.isAtEnd { pause() }
        return window.shown != before
    }

    /// Moves the playhead by `seconds` of wall time at the current speed (playing or not).
    public mutating func advance(wallSeconds seconds: Double) {
        window = window.played(for: seconds, speed: speed)
    }

    // MARK: - Steering

    /// Steps the playhead by `steps` key steps (negative: back).
    public mutating func step(_ steps: Int) { window.step(steps, of: stepSeconds) }

    /// Moves the playhead to `time` (a click or drag on the bar).
    public mutating func move(to time: Double) { window.move(to: time) }

    /// The playhead to the start (Home): one window in, or the first time when cumulative.
    public mutating func rewind() { window.rewind() }

    /// The playhead past the end (End): everything in the last window shows.
    public mutating func moveToEnd() { window.move(to: window.extent.upperBound.nextUp) }

    /// Multiplies the speed by `factor` (`]` doubles, `[` halves), within the bar's limits.
    public mutating func changeSpeed(by factor: Double) { speed = clampedSpeed(speed * factor) }

    /// Sets the speed in seconds of data per second, within the bar's limits.
    public mutating func setSpeed(_ s: Double) { speed = clampedSpeed(s) }

    /// Window or cumulative; the playhead stays.
    public mutating func setMode(_ mode: TimeWindow.Mode) { window.mode = mode }

    private func clampedSpeed(_ s: Double) -> Double {
        let span = max(1, window.extent.upperBound - window.extent.lowerBound)
        guard s.isFinite, s > 0 else { return span / 30 }
        return min(span * TimeBar.fastestShare, max(span * TimeBar.slowestShare, s))
    }

    // MARK: - What it says

    /// The times shown, `lower..<upper` (UTC seconds).
    public var shown: Range<Double> { window.shown }

    /// The shown range as the filter's `--since`/`--until`: date-times, always with a time
    /// (a bare date would mean "through the end of that day" there); `until` is inclusive, so it
    /// is the last whole second before the playhead.
    public var filterRange: (since: String, until: String) {
        let r = shown
        let lower = max(r.lowerBound, window.extent.lowerBound).rounded(.down)
        let upper = max(lower, (r.upperBound - 1).rounded(.up))
        return (TimeBar.instant(lower), TimeBar.instant(upper))
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` of whole UTC seconds.
    static func instant(_ t: Double) -> String {
        let whole = Int(t)
        var days = whole / 86400, rest = whole % 86400
        if rest < 0 { rest += 86400; days -= 1 }
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return CivilDate.isoDate(days: Int64(days)) + "T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))Z"
    }

    /// Whether every dated place shows (cumulative at the end, or a window wider than the data):
    /// then the filter needs no time window at all (the unfiltered index shows).
    public var showsEverything: Bool {
        let r = shown
        return r.lowerBound <= window.extent.lowerBound && r.upperBound > window.extent.upperBound
    }

    /// `settings` with the bar's property and shown range as the time window (none when the
    /// bar shows everything).
    public func applied(to settings: FilterSettings) -> FilterSettings {
        var s = settings
        s.timeProperty = window.property
        if showsEverything {
            s.since = nil
            s.until = nil
        } else {
            let r = filterRange
            s.since = r.since
            s.until = r.until
        }
        return s
    }

    /// The window the mode button offers: 7 days, or a tenth of data spanning under 70 days.
    public var defaultWindowSeconds: Double { min(7 * 86400, histogram.span / 10) }

    /// Cumulative ↔ the default window (the mode button, key W); the speed goes to the new
    /// mode's default (a window a second; the whole extent in 30 s).
    public mutating func toggleMode() {
        switch window.mode {
        case .cumulative: window.mode = .window(seconds: defaultWindowSeconds)
        case .window: window.mode = .cumulative
        }
        speed = clampedSpeed(defaultSpeed)
    }

    /// The playhead's day (`2011-03-05`), or date and minute when the extent is under three days.
    public var playheadText: String { TimeBar.text(window.playhead, fine: histogram.span < 3 * 86400) }

    /// "2011-02-27 – 2011-03-05" (window) or "since 2011-01-01" style text for the shown range.
    public var rangeText: String {
        let r = shown
        let fine = histogram.span < 3 * 86400
        switch window.mode {
        case .cumulative: return "\(TimeBar.text(window.extent.lowerBound, fine: fine)) – \(TimeBar.text(r.upperBound, fine: fine))"
        case .window: return "\(TimeBar.text(max(r.lowerBound, window.extent.lowerBound), fine: fine)) – \(TimeBar.text(r.upperBound, fine: fine))"
        }
    }

    /// The speed for people: "120 days/s", "2.5 hours/s", "30 min/s".
    public var speedText: String { TimeBar.speedText(speed) }

    static func speedText(_ speed: Double) -> String {
        func number(_ v: Double) -> String { v >= 10 ? "\(Int(v.rounded()))" : String(format: "%.1f", v) }
        if speed >= 86400 { return "\(number(speed / 86400)) days/s" }
        if speed >= 3600 { return "\(number(speed / 3600)) hours/s" }
        return "\(number(speed / 60)) min/s"
    }

    /// Date (`YYYY-MM-DD`) or date and minute (`YYYY-MM-DD HH:MM`) of UTC seconds.
    static func text(_ t: Double, fine: Bool) -> String {
        guard t.isFinite else { return "" }
        let full = TimeBar.instant(t.rounded(.down))
        return fine ? String(full.prefix(16)).replacingOccurrences(of: "T", with: " ") : String(full.prefix(10))
    }

    /// A step that reads well for a span: a minute, an hour, a day, a week, 30 days or a year,
    /// the largest that still gives at least 100 steps over the span (a year: days).
    static func niceStep(forSpan span: Double) -> Double {
        let steps: [Double] = [60, 3600, 86400, 7 * 86400, 30 * 86400, 365 * 86400]
        return steps.last { $0 <= span / 100 } ?? steps[0]
    }
}
