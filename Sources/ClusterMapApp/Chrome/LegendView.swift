import CGtk
import AppSupport
import MapModel
import MapRender

/// The legend in the map's top-left corner (SPEC §7): a small card that says what every colour in
/// use means, collapsible (an expander, remembered while the app runs), and read by screen
/// readers (its drawing carries the legend's text as its accessible label).
final class LegendView {
    let card: UnsafeMutablePointer<GtkWidget>
    private let expander: UnsafeMutablePointer<GtkWidget>
    private let area: UnsafeMutablePointer<GtkWidget>
    private(set) var legend: MapLegend?
    /// The same legend at the bottom of the In View panel (nil until attached).
    private var panelArea: UnsafeMutablePointer<GtkWidget>?
    /// Whether the map is dark (the swatches follow its palette).
    private var isDark: Bool
    /// While the In View panel is open it shows the legend, so the map's card steps aside (one
    /// legend on screen, none over the data).
    private(set) var isShownInPanel = false {
        didSet { showCard() }
    }

    /// Says whether the In View panel (and so the legend in it) is on screen; the map's card steps aside while it is.
    func showInPanel(_ shown: Bool) {
        isShownInPanel = shown
    }

    init(overlay: UnsafeMutablePointer<GtkWidget>, dark: Bool) {
        isDark = dark
        card = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(card, "cm-legend")
        gtk_widget_set_halign(card, GTK_ALIGN_START)
        gtk_widget_set_valign(card, GTK_ALIGN_START)
        gtk_widget_set_margin_top(card, 12)
        gtk_widget_set_margin_start(card, 12)
        expander = gtk_expander_new("Legend")!
        gtk_expander_set_expanded(opaque(expander), 1)
        area = gtk_drawing_area_new()!
        gtk_widget_set_margin_top(area, 6)
        gtk_drawing_area_set_draw_func(gcast(area), LegendView.draw, UserData.retain(self), UserData.release)
        gtk_expander_set_child(opaque(expander), area)
        gtk_box_append(gcast(card), expander)
        gtk_widget_set_visible(card, 0)
        gtk_overlay_add_overlay(opaque(overlay), card)
        watchUserToggles()
    }

    /// Draws the legend in either of its places, in the theme's text colour.
    private static let draw: @MainActor @convention(c) (UnsafeMutablePointer<GtkDrawingArea>?, OpaquePointer?, Int32, Int32, gpointer?) -> Void = { a, cr, _, _, data in
            guard let a, let cr, let view = UserData.object(data, as: LegendView.self), let legend = view.legend else { return }
            var rgba = GdkRGBA()
            gtk_style_context_get_color(gtk_widget_get_style_context(asWidget(a)), &rgba)
            let dark = view.isDark
            LegendPainter.draw(legend, in: cr, textColor: MapColor(red: Double(rgba.red), green: Double(rgba.green),
                                                                    blue: Double(rgba.blue), alpha: Double(rgba.alpha)),
                               dark: dark)
    }

    /// Shows the legend in the In View panel too (under a heading, above nothing else).
    func attach(to slot: UnsafeMutablePointer<GtkWidget>) {
        let heading = gtk_label_new("Legend")!
        gtk_widget_add_css_class(heading, "heading")
        gtk_label_set_xalign(opaque(heading), 0)
        gtk_widget_set_margin_start(heading, 16)
        gtk_widget_set_margin_top(heading, 8)
        let a = gtk_drawing_area_new()!
        gtk_widget_set_margin_start(a, 12)
        gtk_widget_set_margin_top(a, 6)
        gtk_widget_set_margin_bottom(a, 12)
        gtk_drawing_area_set_draw_func(gcast(a), LegendView.draw, UserData.retain(self), UserData.release)
        gtk_box_append(gcast(slot), gtk_separator_new(GTK_ORIENTATION_HORIZONTAL))
        gtk_box_append(gcast(slot), heading)
        gtk_box_append(gcast(slot), a)
        panelArea = a
        if let legend { size(a, for: legend) }
    }

    private func size(_ a: UnsafeMutablePointer<GtkWidget>, for legend: MapLegend) {
        let size = LegendPainter.size(of: legend)
        gtk_drawing_area_set_content_width(gcast(a), Int32(size.width.rounded(.up)))
        gtk_drawing_area_set_content_height(gcast(a), Int32(size.height.rounded(.up)))
        AccessibleText.setLabel(of: a, to: legend.accessibleText)
        gtk_widget_queue_draw(a)
    }

    /// Shows the legend of the data on the map (hidden when there is none).
    func update(_ legend: MapLegend?, eventLog: EventLog) {
        self.legend = legend
        showCard()
        if let slot = panelArea.flatMap({ gtk_widget_get_parent($0) }) { gtk_widget_set_visible(slot, legend == nil ? 0 : 1) }
        guard let legend else { return }
        gtk_expander_set_label(opaque(expander), legend.title)
        openSize = nil
        size(area, for: legend)
        if let panelArea { size(panelArea, for: legend) }
        gtk_widget_set_tooltip_text(expander, "What the colours mean")
        eventLog.emit("legend", [("title", .string(legend.title)),
                                 ("entries", .array(legend.entries.map { .string($0.text) }))])
    }

    private func showCard() {
        gtk_widget_set_visible(card, legend != nil && !isShownInPanel ? 1 : 0)
    }

    /// Whether the card is open: folded on a narrow map or over data, the user's choice kept
    /// (`LegendFold`).
    private var fold = LegendFold()
    /// Set while the app itself opens or closes the expander (not a user's choice).
    private var applyingFold = false
    /// The open card's size, measured while it was last open (the rule asks what the open card
    /// would cover, also while it is folded).
    private var openSize: ScreenSize?

    /// Listens for the user opening or closing the card (called once from `init`).
    private func watchUserToggles() {
        let toggled: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?, gpointer?) -> Void = { _, _, data in
            guard let v = UserData.object(data, as: LegendView.self), !v.applyingFold else { return }
            v.fold.userToggled(expanded: gtk_expander_get_expanded(opaque(v.expander)) != 0)
        }
        connectSignal(expander, "notify::expanded", unsafeBitCast(toggled, to: GCallback.self), owner: self)
    }

    private func applyFold() {
        let want: gboolean = fold.isExpanded ? 1 : 0
        guard gtk_expander_get_expanded(opaque(expander)) != want else { return }
        applyingFold = true
        gtk_expander_set_expanded(opaque(expander), want)
        applyingFold = false
    }

    /// Fits the card to a map `width` pixels wide: folded below `ChromeLayout.legendCollapseWidth`.
    func fit(mapWidth width: Double) {
        fold.set(narrow: ChromeLayout.legendCollapses(mapWidth: width))
        applyFold()
    }

    /// Fits the card to the scene at rest: folded while a mark lies under the open card.
    /// Returns whether it is open, for the `legend-fold` event (nil while no card is shown).
    @discardableResult
    func fit(scene: Scene) -> (expanded: Bool, covers: Bool)? {
        guard gtk_widget_get_visible(card) != 0, let legend else { return nil }
        if gtk_expander_get_expanded(opaque(expander)) != 0, let s = cardSize { openSize = s }
        let painted = LegendPainter.size(of: legend)
        // Before the card was first measured open: its drawing plus the expander's title row.
        let size = openSize ?? ScreenSize(width: painted.width + 24, height: painted.height + 40)
        fold.set(covers: LegendFold.covers(card: LegendFold.cardRect(size: size), scene: scene))
        applyFold()
        return (fold.isExpanded, fold.covers)
    }

    /// The card's size on the map, nil when it isn't shown (measured: it may not be laid out yet).
    var cardSize: ScreenSize? {
        guard gtk_widget_get_visible(card) != 0 else { return nil }
        var minW: Int32 = 0, natW: Int32 = 0, minH: Int32 = 0, natH: Int32 = 0
        gtk_widget_measure(card, GTK_ORIENTATION_HORIZONTAL, -1, &minW, &natW, nil, nil)
        gtk_widget_measure(card, GTK_ORIENTATION_VERTICAL, natW, &minH, &natH, nil, nil)
        return ScreenSize(width: Double(natW), height: Double(natH))
    }

    /// The map's palette changed: redraw the swatches.
    func paletteDidChange(dark: Bool) {
        isDark = dark
        gtk_widget_queue_draw(area)
        if let panelArea { gtk_widget_queue_draw(panelArea) }
    }
}
