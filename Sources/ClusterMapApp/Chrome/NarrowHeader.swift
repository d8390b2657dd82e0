import CGtk
import AppSupport

/// Fits the header bar to a narrow window (issue 32 item 10, README: "works down to 360 px"):
/// below `ChromeLayout.narrowHeaderWidth` the dataset button is an icon and the title bar keeps
/// only its close button, so Open, data, search, In View and the menu fit 360 px without the
/// search field running into the dataset button. Applied at launch from the asked size (a
/// window's minimum width comes from its header, so it must already be narrow to open narrow)
/// and again whenever the window's width crosses the threshold.
final class NarrowHeader {
    private let header: UnsafeMutablePointer<GtkWidget>
    private let datasets: DatasetMenu
    private(set) var isNarrow = false

    private let search: UnsafeMutablePointer<GtkWidget>

    init(header: UnsafeMutablePointer<GtkWidget>, datasets: DatasetMenu, search: UnsafeMutablePointer<GtkWidget>,
         windowWidth: Double) {
        self.header = header
        self.datasets = datasets
        self.search = search
        fit(windowWidth: windowWidth)
    }

    /// Logs where the dataset button and the search field are (`header-layout`: their left and
    /// right edges in window coordinates), so a test can see that they never overlap.
    func report(window: UnsafeMutablePointer<GtkWidget>, eventLog: EventLog) {
        guard eventLog.isEnabled, gtk_widget_get_width(window) > 0 else { return }  // laid out
        func span(_ w: UnsafeMutablePointer<GtkWidget>) -> (Double, Double)? {
            var r = graphene_rect_t()
            guard gtk_widget_compute_bounds(w, window, &r) != 0 else { return nil }
            return (Double(r.origin.x), Double(r.origin.x + r.size.width))
        }
        guard let d = span(datasets.button), let s = span(search) else { return }
        eventLog.emit("header-layout", [("narrow", .bool(isNarrow)), ("window_width", .number(Double(gtk_widget_get_width(window)))),
                                        ("dataset_left", .number(d.0)), ("dataset_right", .number(d.1)),
                                        ("search_left", .number(s.0)), ("search_right", .number(s.1))])
    }

    /// Narrows or widens the header for a window `width` pixels wide.
    func fit(windowWidth width: Double) {
        let narrow = ChromeLayout.headerIsNarrow(windowWidth: width)
        guard narrow != isNarrow else { return }
        isNarrow = narrow
        datasets.setIconOnly(narrow)
        setStringProperty(search, "placeholder-text", narrow ? "Search" : SearchField.placeholder)
        // nil: the desktop's own layout (minimize, maximize, close) again.
        gtk_header_bar_set_decoration_layout(opaque(header), narrow ? ":close" : nil)
    }
}
