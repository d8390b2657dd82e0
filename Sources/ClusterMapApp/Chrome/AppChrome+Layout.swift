import CGtk
import AppSupport
import MapModel

/// The chrome making room for the data (issue 32 items 5 and 6): the legend collapses on a
/// narrow map, and an opening view frames the data beside the legend card, not under it.
extension AppChrome {
    func mapSizeDidChange(_ size: ScreenSize) {
        legend.fit(mapWidth: size.width)
        let width = Double(gtk_widget_get_width(window))
        if width > 0 { narrowHeader?.fit(windowWidth: width) }
        narrowHeader?.report(window: window, eventLog: controller.eventLog)
    }

    /// The window's asked width (the launch size or the restored one) before it is shown.
    static func defaultWidth(of window: UnsafeMutablePointer<GtkWidget>) -> Double {
        var w: Int32 = 0, h: Int32 = 0
        gtk_window_get_default_size(gcast(window), &w, &h)
        return Double(w)
    }

    var openingInsets: ScreenInsets {
        ChromeLayout.openingInsetsWithNames(legendCard: legend.cardSize, viewport: controller.camera.viewportSize)
    }

    /// The legend card folds while a bubble or place at rest lies under it (`LegendFold`); a
    /// shown banner moves off a callout card opened since it appeared.
    func sceneDidSettle(_ scene: Scene) {
        banner.placeAgain()
        guard let (expanded, covers) = legend.fit(scene: scene) else { return }
        controller.eventLog.emit("legend-fold", [("expanded", .bool(expanded)), ("covers", .bool(covers))])
    }

    /// The filter panel opened or closed over the map's left edge: the bars centred over the map
    /// (time bar, chips) centre in the part it leaves free, so its play buttons are never under
    /// the panel. A map too narrow for both keeps them centred on the whole map.
    func filterPanelDidShow(_ shown: Bool) {
        var barMinimum: Int32 = 0
        gtk_widget_measure(timeBarView.bar, GTK_ORIENTATION_HORIZONTAL, -1, &barMinimum, nil, nil, nil)
        let free = gtk_widget_get_width(controller.drawingArea) - FilterPanel.width
        let inset = shown && free >= barMinimum + 16 ? FilterPanel.width : 0
        gtk_widget_set_margin_start(timeBarView.bar, inset)
        if let chips = filterChips, gtk_widget_get_margin_start(chips.row) != inset {
            gtk_widget_set_margin_start(chips.row, inset)
            chips.reportPositions()
        }
    }
}
