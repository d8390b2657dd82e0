import CGtk

/// What the map controller tells the window's chrome (header bar, banner, progress bar).
/// Every call comes on the GTK thread.
protocol MapChrome: AnyObject {
    /// A load began (`name` is the file or dataset title).
    func loadDidStart(name: String)
    /// Fraction 0…1 of the running load.
    func loadDidProgress(_ fraction: Double)
    /// The running load finished, failed or was cancelled.
    func loadDidEnd()
    /// Shows a message in the window (a banner); errors stay until dismissed.
    func show(message: String, isError: Bool)
    /// The data on the map changed (new dataset or files).
    func dataDidChange()
}

/// Builds the header bar contents and overlays (Open, dataset menu, search, main menu, banner,
/// progress) around the map. Placeholder until the chrome lands: no extra widgets.
final class AppChrome: MapChrome {
    init(window: UnsafeMutablePointer<GtkWidget>, header: UnsafeMutablePointer<GtkWidget>,
         overlay: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {}
    func loadDidStart(name: String) {}
    func loadDidProgress(_ fraction: Double) {}
    func loadDidEnd() {}
    func show(message: String, isError: Bool) {}
    func dataDidChange() {}
}
