import GeoData

/// The time bar as remembered with a file's filter (issue 29 item 7): that it was shown, its
/// date property, window or cumulative (and the window's length), the playhead, the speed and
/// whether it was playing. Reopening the file shows the bar where it was left, paused (see
/// `TimeBar.restored`).
public struct SavedTimeBar: Equatable, Sendable, Codable {
    /// The date property the bar reads.
    public var property: String
    /// The window's length in seconds; nil when cumulative.
    public var windowSeconds: Double?
    /// The playhead (UTC seconds).
    public var playhead: Double
    /// Seconds of data played per second.
    public var speed: Double
    /// Whether it was playing when the state was saved (false in lines written before this was kept).
    public var playing: Bool

    public init(property: String, windowSeconds: Double?, playhead: Double, speed: Double, playing: Bool = false) {
        self.property = property
        self.windowSeconds = windowSeconds
        self.playhead = playhead
        self.speed = speed
        self.playing = playing
    }

    enum CodingKeys: String, CodingKey { case property, windowSeconds, playhead, speed, playing }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(property: try c.decode(String.self, forKey: .property),
                  windowSeconds: try c.decodeIfPresent(Double.self, forKey: .windowSeconds),
                  playhead: try c.decode(Double.self, forKey: .playhead), speed: try c.decode(Double.self, forKey: .speed),
                  playing: try c.decodeIfPresent(Bool.self, forKey: .playing) ?? false)
    }

    /// What `bar` shows now.
    public init(_ bar: TimeBar) {
        let seconds: Double?
        switch bar.window.mode {
        case .cumulative: seconds = nil
        case .window(let s): seconds = s
        }
        self.init(property: bar.window.property, windowSeconds: seconds, playhead: bar.window.playhead, speed: bar.speed,
                  playing: bar.isPlaying)
    }
}

extension TimeBar {
    /// The bar as `saved` left it (mode, window length, playhead, speed, each kept within this
    /// bar's limits: the file may have changed); unchanged when `saved` read another property.
    ///
    /// Always paused, even when it was playing: reopened, the map shows the places at the
    /// playhead where it was left and waits for the person, as media players and browsers bring
    /// back a video paused at its position. Motion that starts by itself is hard to follow (and to
    /// stop, for some: WCAG 2.2.2), and playing a million places keeps both cores busy from the
    /// first second, while the window is still loading. That it was playing is still kept (the
    /// bar says "was playing", one key resumes).
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
