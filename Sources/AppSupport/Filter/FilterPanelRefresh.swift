import GeoData

/// How the filter panel follows a change of the asked filter (issue 29 item 4, review-s16
/// finding 7): a time-bar step changes only `since`/`until`, and rebuilding every row for it
/// (~60 times a second while playing) cost frames, scrolled the panel to its top and moved
/// the keyboard focus. Such a change updates the rows in place (the date row's range, the
/// count); anything else that came from outside the panel (a chip's ✕, Clear, a restored
/// filter, new types) rebuilds them.
public enum FilterPanelRefresh: Equatable, Sendable {
    /// Nothing the rows were built from changed (or only the time window): update in place.
    case inPlace
    /// Rebuild every row.
    case rebuild

    /// What the panel built for `built` (nil: nothing built yet) does when `asked` is asked.
    public static func decide(built: FilterSettings?, asked: FilterSettings) -> FilterPanelRefresh {
        guard var b = built else { return .rebuild }
        // The time window is shown by the date row's sliders, which update in place.
        b.since = asked.since
        b.until = asked.until
        return b == asked ? .inPlace : .rebuild
    }
}
