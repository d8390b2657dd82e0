import CGtk
import Foundation
import AppSupport
import ClusterCore
import MapModel

/// The main window: a header bar and the map (a GtkDrawingArea) with zoom buttons over it.
///
/// Owns the widget tree only; what the map shows and how it moves lives in `MapViewController`.
final class MapWindow {
    let window: UnsafeMutablePointer<GtkWidget>
    let drawingArea: UnsafeMutablePointer<GtkWidget>
    let controller: MapViewController
    private(set) var chrome: AppChrome?
    /// The list of a same-spot bubble's members (more than a fan can show).
    let placeList: PlaceListPanel
    /// The list of what is in view, beside the map (F9).
    let inView: InViewPanel?

    /// A window for `options`, logging to `eventLog`; `launchLoad` is the data load started before it.
    init(application: UnsafeMutablePointer<GtkApplication>, options: LaunchOptions, eventLog: EventLog, launchLoad: CancelFlag?) {
        window = gtk_application_window_new(application)
        gtk_window_set_title(gcast(window), "ClusterMap")
        // No window background under the map (ChromeStyle): it was one more full-window fill
        // in every frame GTK renders, all of it then covered by the map.
        gtk_widget_add_css_class(window, "cm-main")
        gtk_window_set_default_size(gcast(window), Int32(options.width), Int32(options.height))

        let header = gtk_header_bar_new()!
        gtk_window_set_titlebar(gcast(window), header)

        drawingArea = AccessibleRole.newMapArea()
        gtk_widget_set_hexpand(drawingArea, 1)
        gtk_widget_set_vexpand(drawingArea, 1)
        gtk_widget_set_focusable(drawingArea, 1)
        gtk_widget_set_can_focus(drawingArea, 1)

        let overlay = gtk_overlay_new()!
        gtk_overlay_set_child(opaque(overlay), drawingArea)
        // The panels first: the controller is given them (it never looks them up).
        let placeList = PlaceListPanel(eventLog: eventLog)
        self.placeList = placeList
        let inView = InViewPanel()
        self.inView = inView
        controller = MapViewController(drawingArea: drawingArea, options: options, eventLog: eventLog, launchLoad: launchLoad,
                                       placeList: placeList, inView: inView)
        inView.attach(controller: controller)
        BubbleCardGesture.installListKeys(on: inView.listView, controller: controller)

        let zoomBox = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
        gtk_widget_add_css_class(zoomBox, "linked")
        gtk_widget_add_css_class(zoomBox, "cm-zoom")
        gtk_widget_set_halign(zoomBox, GTK_ALIGN_END)
        gtk_widget_set_valign(zoomBox, GTK_ALIGN_START)
        gtk_widget_set_margin_top(zoomBox, 12)
        gtk_widget_set_margin_end(zoomBox, 12)
        // Plain + and − (the zoom-in/out icons read as tiny keycaps at this size).
        let zoomIn = MapWindow.iconButton("list-add-symbolic", tooltip: "Zoom in (+)", action: "win.zoom-in")
        let zoomOut = MapWindow.iconButton("list-remove-symbolic", tooltip: "Zoom out (−)", action: "win.zoom-out")
        gtk_box_append(gcast(zoomBox), zoomIn)
        gtk_box_append(gcast(zoomBox), zoomOut)
        gtk_overlay_add_overlay(opaque(overlay), zoomBox)
        // After the zoom buttons: the list opens over them.
        placeList.attach(to: overlay)

        gtk_window_set_child(gcast(window), inView.wrap(map: overlay, drawingArea: drawingArea))
        installActions()
        controller.installGestures(window: window)
        chrome = AppChrome(window: window, header: header, overlay: overlay, controller: controller)
        if let chrome { controller.attach(chrome: chrome) }
        chrome?.legend.attach(to: inView.legendSlot)
        if let legend = chrome?.legend {
            legend.showInPanel(inView.isShown)
            inView.setShownChange { [weak legend] shown in legend?.showInPanel(shown) }
        }
        inView.installToggle(window: window, header: header)
        controller.announceInitialLoad()
        DatabaseDialog.installAction(window: window, controller: controller)
        if let address = MapViewController.databaseAddress(options) { controller.openDatabase(address, fit: options.center == nil && options.zoom == nil) }
        controller.warnUnreadTableOptions()
        if let tiles = MapViewController.clusterTileFile(options) {
            controller.openClusterTiles(tiles, fit: options.center == nil && options.zoom == nil)
        } else if let street = options.files.last(where: ClusterTileLink.isTileFile) {
            controller.switchBaseMap(to: street)
        }
        controller.startLiveSource(window: window)
        gtk_window_present(gcast(window))
        gtk_widget_grab_focus(drawingArea)
    }

    private static func iconButton(_ icon: String, tooltip: String, action: String) -> UnsafeMutablePointer<GtkWidget> {
        let b = gtk_button_new_from_icon_name(icon)!
        gtk_widget_set_tooltip_text(b, tooltip)
        AccessibleText.setLabel(of: b, to: tooltip.components(separatedBy: " (")[0])
        gtk_actionable_set_action_name(opaque(b), action)
        return b
    }

    /// Window actions (buttons, menus and shortcuts all go through these).
    private func installActions() {
        let map = OpaquePointer(window)
        func add(_ name: String, _ cb: @escaping @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void) {
            let action = g_simple_action_new(name, nil)!
            connectSignal(action, "activate", unsafeBitCast(cb, to: GCallback.self), owner: controller)
            g_action_map_add_action(map, action)
        }
        add("zoom-in") { _, _, data in UserData.controller(data)?.zoomStep(+1) }
        add("zoom-out") { _, _, data in UserData.controller(data)?.zoomStep(-1) }
    }
}
