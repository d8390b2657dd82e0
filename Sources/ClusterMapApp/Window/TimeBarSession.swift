import AppSupport
import GeoData

/// The window's time bar state (owned by `MapViewController`, GTK thread only): the bar over the
/// shown data's date property, whether the person wants it, and the play counters the event log
/// reports (how many filtered frames a second of playing showed).
final class TimeBarSession {
    /// The bar over the shown data (nil: none, or not worked out yet).
    var model: TimeBar?
    /// The person asked for the bar (`--time PROPERTY`, the menu, Ctrl+T).
    var wanted = false
    /// The date property asked for (nil: the first date property).
    var property: String?
    /// The bar remembered for the file being opened (the state file), applied once it is built.
    var restore: SavedTimeBar?
    /// Bumped for each data change: a bar worked out for older data is dropped.
    var generation = 0
    /// Whether the bar plays (the map is then never at rest).
    var isPlaying: Bool { model?.isPlaying ?? false }
    /// The shown range last handed to the filter (so a tick that doesn't change it asks nothing).
    var lastAsked: Range<Double>?
    /// When it was asked (a range that never lands is asked again after half a second).
    var askedAt = 0.0

    // Playing: what the event log reports once a second.
    /// When the current second of counting started (frame-clock seconds).
    var countStart: Double?
    /// Frame-clock ticks and newly shown filtered ranges in the current second.
    var ticks = 0
    var shownFrames = 0
    /// The filtered range last seen on the map (a change is a new frame of the window's play).
    var lastShown: String?
}
