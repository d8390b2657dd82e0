import AppSupport
import CGtk
import MapModel

/// What the map controller tells the window's chrome (header bar, banner, progress bar).
/// Every call comes on the GTK thread.
protocol MapChrome: AnyObject {
    /// A load began (`name` is the file or dataset title).
    func loadDidStart(name: String)
    /// Fraction 0…1 of the running load.
    func loadDidProgress(_ fraction: Double)
    /// Bytes read so far of a stream (a pipe or standard input, whose size is unknown).
    func loadDidReadBytes(_ bytes: Int)
    /// The running load finished, failed or was cancelled.
    func loadDidEnd()
    /// Shows a message in the window (a banner); errors stay until dismissed.
    func show(message: String, isError: Bool)
    /// The fault `error` (shown as an error) is over; `note` says so.
    func errorIsOver(_ error: String, note: String)
    /// The data on the map changed (new dataset or files).
    /// The shown data changed: a new session, or (`names` given) a live change of it.
    func dataDidChange(names: MapDataSession.NameChanges?)
    /// Places were added to (or removed from) the shown session in place (the replay).
    func liveNamesDidChange(_ names: MapDataSession.NameChanges)
    /// The time bar's state and words (nil: no bar); `isReplay` for the earthquake replay's.
    func timeBarDidChange(_ bar: TimeBar?, text: String, playing: Bool, finished: Bool, isReplay: Bool)
    /// Whether the time bar's frame clock runs (a playing bar asks for every frame).
    func timeBarSetTicking(_ on: Bool)
    /// What the legend says may have changed (a filter grouped the bubbles or totals them).
    func legendDidChange()
    /// The map in use changed (nil: the built-in map; else a tile file's path or a URL template).
    func basemapDidChange(_ source: String?)
    /// The map switched between its light and dark palettes.
    func paletteDidChange()
    /// The map's drawing area changed size (the chrome fits itself to a narrow window).
    func mapSizeDidChange(_ size: ScreenSize)
    /// What the chrome covers of the map, for an opening view to frame the data beside it.
    var openingInsets: ScreenInsets { get }
    /// No online tile of `source` arrived and some failed (no network?).
    func onlineTilesDidFail(source: String)
    /// The filter asked or shown changed (panel, chips, "N of M places").
    func filterDidChange()
    /// The map came to rest showing `scene` (the legend folds while data lies under it).
    func sceneDidSettle(_ scene: Scene)
}

extension MapChrome {
    func mapSizeDidChange(_ size: ScreenSize) {}
    var openingInsets: ScreenInsets { .zero }
    func onlineTilesDidFail(source: String) {}
    func sceneDidSettle(_ scene: Scene) {}
    /// A chrome without a banner shows `note` as information.
    func errorIsOver(_ error: String, note: String) { show(message: note, isError: false) }

    /// The shown data is a new session.
    func dataDidChange() { dataDidChange(names: nil) }
    /// A chrome without filter widgets ignores filters.
    func filterDidChange() {}
    func timeBarDidChange(_ bar: TimeBar?, text: String, playing: Bool, finished: Bool) {
        timeBarDidChange(bar, text: text, playing: playing, finished: finished, isReplay: false)
    }
}
