import GeoData

extension TimeBar {
    /// This bar, just read again over changed data (a table's rows added or removed under
    /// `--refresh`/watch: a new extent and histogram), keeping what the person set on `old`: the
    /// mode and window length, the speed, playing or paused, and the playhead where it was —
    /// kept inside the new range (a playhead past the new end is at the end, one before the new
    /// start at the start). A bar at the end (everything shown, or the window over the last rows)
    /// stays at the end, so rows past the old last time show as they come, as a live log's tail
    /// follows. `now` is the frame clock's time, for a bar that plays on. Another property: self.
    public func keeping(_ old: TimeBar, now: Double) -> TimeBar {
        guard old.window.property == window.property else { return self }
        var bar = TimeBar(window: TimeWindow(property: window.property, extent: window.extent, mode: old.window.mode),
                          histogram: histogram, speed: old.speed)
        if old.window.isAtEnd { bar.moveToEnd() } else { bar.move(to: old.window.playhead) }
        if old.isPlaying && !bar.window.isAtEnd { bar.play(at: now) }
        return bar
    }
}
