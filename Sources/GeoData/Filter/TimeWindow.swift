import ClusterCore

/// The time bar's state as a value: the date property it reads, the data's time extent, and a
/// playhead with either a window of fixed length behind it or everything since the start
/// (cumulative). Playing is a pure function of elapsed time, so a test jumps ahead without
/// sleeping; the frame-clock driver alone reads the clock.
public struct TimeWindow: Equatable, Sendable {
    /// What is shown behind the playhead.
    public enum Mode: Equatable, Sendable {
        /// The last `seconds` before the playhead (e.g. 7 days).
        case window(seconds: Double)
        /// Everything from the start of the data to the playhead.
        case cumulative
    }

    /// The date property (UTC seconds) the bar reads.
    public var property: String
    /// The first and last time in the data.
    public var extent: ClosedRange<Double>
    public var mode: Mode
    /// The playhead: places before it (and inside the window) show.
    public private(set) var playhead: Double

    /// A bar over `extent` with the playhead at the end (everything within the window shows).
    public init(property: String, extent: ClosedRange<Double>, mode: Mode) {
        self.property = property
        self.extent = extent
        self.mode = mode
        self.playhead = extent.upperBound.nextUp
    }

    /// The bar for a date column, nil when it has no dates.
    public init?(column: PropertyColumn, mode: Mode) {
        guard column.type == .date, let range = column.numberRange() else { return nil }
        self.init(property: column.name, extent: range, mode: mode)
    }

    /// The times shown: `lower..<upper`.
    public var shown: Range<Double> {
        switch mode {
        case .cumulative: return extent.lowerBound..<max(extent.lowerBound, playhead)
        case .window(let s): return (playhead - max(0, s))..<playhead
        }
    }

    /// Whether the playhead is past the last time (playing stops there).
    public var isAtEnd: Bool { playhead > extent.upperBound }

    /// Moves the playhead to `time`, kept within the extent (just past its end at most, so that
    /// the last place shows).
    public mutating func move(to time: Double) {
        guard time.isFinite else { return }
        playhead = min(max(time, extent.lowerBound), extent.upperBound.nextUp)
    }

    /// The playhead at the start of playing: one window in (cumulative: the start).
    public mutating func rewind() {
        switch mode {
        case .cumulative: move(to: extent.lowerBound)
        case .window(let s): move(to: extent.lowerBound + s)
        }
    }

    /// Moves by `steps` steps of `step` seconds (arrow keys; negative goes back).
    public mutating func step(_ steps: Int, of step: Double) { move(to: playhead + Double(steps) * step) }

    /// The bar after playing for `elapsed` seconds at `speed` seconds of data per second;
    /// stops at the end.
    public func played(for elapsed: Double, speed: Double) -> TimeWindow {
        var next = self
        next.move(to: playhead + max(0, elapsed) * speed)
        return next
    }

    /// The places shown, from the property's column.
    public func selection(_ column: PropertyColumn) -> PointSelection {
        let r = shown
        return column.selection(from: r.lowerBound, below: r.upperBound)
    }
}
