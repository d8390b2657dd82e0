import GeoData

extension TimeBar {
    /// The bar showing the filter's time window `since…until` (the panel's date row was dragged,
    /// a chip removed): the filter's window is the one source of truth, the bar follows it.
    /// Paused (the person took over); cumulative when the window starts at the data's first
    /// time, else a window as long as the range; everything when neither end is set. `until` is
    /// inclusive as the filter reads it: a bare day runs through its end, an instant through
    /// its second. nil when either text is not a date.
    ///
    /// Applying the result (`applied(to:)`) gives back the same window for any range the bar
    /// itself handed out, so the bar following its own request asks nothing new (no loop).
    public func following(since: String?, until: String?) -> TimeBar? {
        var lower = window.extent.lowerBound
        var upper = window.extent.upperBound.nextUp
        if let since {
            guard let s = DateText.seconds(since) else { return nil }
            lower = max(lower, s)
        }
        if let until {
            guard let u = DateText.seconds(until) else { return nil }
            upper = min(upper, u + (until.count <= 10 ? 86400 : 1))
        }
        var bar = self
        bar.pause()
        bar.setMode(lower <= window.extent.lowerBound ? .cumulative : .window(seconds: max(1, upper - lower)))
        bar.move(to: upper)
        return bar
    }
}
