import GeoData

/// The time bar as remembered with a file's filter (issue 29 item 7): that it was shown, its
/// date property, window or cumulative (and the window's length), the playhead and the speed.
/// Reopening the file shows the bar where it was left (paused: playing is not remembered).
public struct SavedTimeBar: Equatable, Sendable, Codable {
    /// The date property the bar reads.
    public var property: String
    /// The window's length in seconds; nil when cumulative.
    public var windowSeconds: Double?
    /// The playhead (UTC seconds).
    public var playhead: Double
    /// Seconds of data played per second.
    public var speed: Double

    public init(property: String, windowSeconds: Double?, playhead: Double, speed: Double) {
        self.property = property
        self.windowSeconds = windowSeconds
        self.playhead = playhead
        self.speed = speed
    }

    /// What `bar` shows now.
    public init(_ bar: TimeBar) {
        let seconds: Double?
        switch bar.window.mode {
        case .cumulative: seconds = nil
        case .window(let s): seconds = s
        }
        self.init(property: bar.window.property, windowSeconds: seconds, playhead: bar.window.playhead, speed: bar.speed)
    }
}

extension TimeBar {
    /// The bar as `saved` left it (mode, window length, playhead, speed, each kept within this
    /// bar's limits: the file may have changed); unchanged when `saved` read another property.
    public func restored(_ saved: SavedTimeBar) -> TimeBar {
        guard saved.property == window.property else { return self }
        var bar = self
        bar.pause()
        bar.setMode(saved.windowSeconds.map { .window(seconds: max(1, $0)) } ?? .cumulative)
        bar.move(to: saved.playhead)
        bar.setSpeed(saved.speed)
        return bar
    }
}
