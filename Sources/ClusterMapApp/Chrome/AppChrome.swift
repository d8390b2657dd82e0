import CGtk
import Foundation
import AppSupport
import ClusterCore
import GeoData
import MapModel

/// The window's chrome around the map (SPEC §4, §6): header bar (Open, dataset menu, search, main
/// menu), message banner, loading panel, file drops, shortcuts window, About, and the remembered
/// window state. Each widget lives in its own file; this class wires them to the controller.
final class AppChrome: MapChrome {
    let window: UnsafeMutablePointer<GtkWidget>
    unowned let controller: MapViewController
    let banner: Banner
    let progress: LoadProgress
    let fileOpening: FileOpening
    let datasetMenu: DatasetMenu
    let search: SearchField
    let mainMenu: MainMenu
    let legend: LegendView
    /// The header's compact form on a narrow window (AppChrome+Layout.swift).
    private(set) var narrowHeader: NarrowHeader?
    /// Online tile sources whose failure was already told (AppChrome+Feedback.swift).
    var noticedTileFailures: Set<String> = []
    /// The filter panel (F8) and the chips over the map (`FilterPanel.swift`, `FilterChips.swift`).
    private(set) var filterPanel: FilterPanel?
    private(set) var filterChips: FilterChips?
    let timeBarView: TimeBarView
    /// The next load was asked for from the chrome (menu, Open, drop): fit the camera to it.
    private var fitNextLoad = false
    private var fitThisLoad = false

    init(window: UnsafeMutablePointer<GtkWidget>, header: UnsafeMutablePointer<GtkWidget>,
         overlay: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        self.window = window
        self.controller = controller
        ChromeStyle.install()
        _ = WindowState.restore(window: window, controller: controller)

        banner = Banner(overlay: overlay, eventLog: controller.eventLog)
        progress = LoadProgress(overlay: overlay, eventLog: controller.eventLog, controller: controller)
        fileOpening = FileOpening(window: window, dropOn: overlay, eventLog: controller.eventLog)
        legend = LegendView(overlay: overlay, dark: controller.renderer.palette.isDark)
        timeBarView = TimeBarView(overlay: overlay, eventLog: controller.eventLog)
        timeBarView.setRequestHandler { [weak controller] in controller?.timeBarRequest($0) }
        gtk_widget_add_css_class(overlay, "cm-drop-target")
        let options = controller.options
        datasetMenu = DatasetMenu(window: window, initial: options.files.isEmpty ? (options.dataset ?? DatasetCatalog.defaultDataset.id) : nil)
        if !options.files.isEmpty {
            datasetMenu.setTitle(AppChrome.title(forFiles: options.files))
        }
        search = SearchField(eventLog: controller.eventLog)
        let dark = controller.renderer.palette == .dark
        mainMenu = MainMenu(window: window, reducedMotion: controller.cameraController.motionPolicy.prefersReducedMotion, dark: dark)
        PopoverEvents.log(mainMenu.button, name: "main-menu", eventLog: controller.eventLog)
        PopoverEvents.log(datasetMenu.button, name: "dataset-menu", eventLog: controller.eventLog)
        if controller.userDarkStyle != nil || options.dark { AppChrome.setThemeDark(dark) }
        HeaderBar.build(header, datasets: datasetMenu, search: search, menu: mainMenu)
        narrowHeader = NarrowHeader(header: header, datasets: datasetMenu, search: search.entry, windowWidth: AppChrome.defaultWidth(of: window))
        filterChips = FilterChips(overlay: overlay, controller: controller)
        filterPanel = FilterPanel(overlay: overlay, header: header, window: window, controller: controller)
        reportPosition(of: datasetMenu.button, name: "dataset-menu", eventLog: controller.eventLog)
        installActions()
        mainMenu.connect(to: self)
        datasetMenu.connect(to: self)
        fileOpening.connect(to: self)
        search.connect(to: self)
        installFeedback()
    }

    // MARK: Actions and shortcuts

    private func installActions() {
        let map = OpaquePointer(window)
        typealias Activate = @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void
        func add(_ name: String, _ cb: Activate) {
            let action = g_simple_action_new(name, nil)!
            connectSignal(action, "activate", unsafeBitCast(cb, to: GCallback.self), owner: self)
            g_action_map_add_action(map, action)
            g_object_unref(gpointer(action))
        }
        add("open") { _, _, data in UserData.object(data, as: AppChrome.self)?.fileOpening.showChooser() }
        add("search") { _, _, data in UserData.object(data, as: AppChrome.self)?.search.focus() }
        add("show-help-overlay") { _, _, data in
            guard let c = UserData.object(data, as: AppChrome.self) else { return }
            ShortcutsWindow.present(over: c.window)
        }
        add("about") { _, _, data in
            guard let c = UserData.object(data, as: AppChrome.self) else { return }
            AboutDialog.present(over: c.window, dataDirectory: c.controller.dataDirectory)
        }
        // The time bar's buttons (named for the replay, the first bar).
        add("replay-faster") { _, _, data in UserData.object(data, as: AppChrome.self)?.controller.timeBarRequest(.faster) }
        add("replay-slower") { _, _, data in UserData.object(data, as: AppChrome.self)?.controller.timeBarRequest(.slower) }
        add("replay-pause") { _, _, data in UserData.object(data, as: AppChrome.self)?.controller.timeBarRequest(.playPause) }
        add("time-bar") { _, _, data in UserData.object(data, as: AppChrome.self)?.controller.toggleTimeBar() }
        add("quit") { _, _, data in
            guard let c = UserData.object(data, as: AppChrome.self) else { return }
            gtk_window_close(gcast(c.window))
        }
        guard let app = gtk_window_get_application(gcast(window)) else { return }
        for (action, accels) in [("win.open", ["<Control>o"]), ("win.search", ["<Control>f"]),
                                 ("win.quit", ["<Control>q"]), ("win.show-help-overlay", ["<Control>question"]),
                                 ("win.time-bar", ["<Control>t"])] {
            withCStringArray(accels) { gtk_application_set_accels_for_action(app, action, $0) }
        }
    }

    // MARK: Main menu toggles

    /// The map in use changed (menu, command line, remembered state, a dropped tile file).
    func basemapDidChange(_ source: String?) {
        mainMenu.setBasemap(source)
        offerTileArea()
    }

    func paletteDidChange() { legend.paletteDidChange(dark: controller.renderer.palette.isDark) }

    func setReducedMotion(_ on: Bool) {
        controller.setReducedMotionToggle(on)
    }

    func setDarkStyle(_ on: Bool) {
        controller.setDarkStyleToggle(on)
        AppChrome.setThemeDark(on)
        controller.applyPreferences()
        controller.eventLog.emit("dark-style", [("on", .bool(on))])
    }

    /// Makes the widgets follow the map's style.
    private static func setThemeDark(_ on: Bool) {
        guard let settings = gtk_settings_get_default() else { return }
        let s = UnsafeMutableRawPointer(settings)
        if boolProperty(s, "gtk-application-prefer-dark-theme") != on {
            setBoolProperty(s, "gtk-application-prefer-dark-theme", on)
        }
    }

    // MARK: Loading

    /// The chrome is about to start a load (menu, Open, drop): fit the camera once it is in.
    func willLoad(title: String, dataset: String?) {
        fitNextLoad = true
    }

    /// Flies to a place and selects it (search results).
    func flyTo(point: Int) {
        guard let session = controller.session, point >= 0, point < session.pointCount else { return }
        let coordinate = session.places.coordinates[point]
        let ctx = controller.beginInput()
        let c = ctx.camera
        let zoom = session.landingZoom(of: point, atLeast: max(c.zoom, SearchField.placeZoom), camera: c)
        let target = Camera(center: coordinate, zoom: zoom, viewportSize: c.viewportSize,
                            minZoom: c.minZoom, maxZoom: c.maxZoom)
        controller.eventLog.emit("search-pick", [("id", .int(point)), ("name", .string(session.places.name(of: point)))])
        controller.apply(.fly(to: target, in: ctx))
        controller.gestureDidEnd()
        controller.select(point: point)
    }

    static func title(forFiles files: [String]) -> String {
        files.count == 1 ? PointSetLoader.displayName(of: files[0]) : "\(files.count) files"
    }

    // MARK: MapChrome

    func loadDidStart(name: String) {
        fitThisLoad = fitNextLoad
        fitNextLoad = false
        progress.start(name: name)
    }

    func loadDidProgress(_ fraction: Double) {
        progress.progress(fraction)
    }

    func loadDidReadBytes(_ bytes: Int) {
        progress.bytesRead(bytes)
    }

    func loadDidEnd() {
        progress.end()
    }

    func show(message: String, isError: Bool) {
        banner.show(message, isError: isError)
    }

    /// The error shown for `error` (as `showError` made it one line) goes; `note` takes its place.
    func errorIsOver(_ error: String, note: String) {
        banner.errorIsOver(MessageText.line(error), note: note)
    }

    func liveNamesDidChange(_ names: MapDataSession.NameChanges) {
        search.dataDidChange(controller.session, names: names)
    }

    func timeBarDidChange(_ bar: TimeBar?, text: String, playing: Bool, finished: Bool, isReplay: Bool) {
        timeBarView.update(bar, text: text, playing: playing, finished: finished, isReplay: isReplay)
    }

    func timeBarSetTicking(_ on: Bool) { timeBarView.setTicking(on) }

    func legendDidChange() {
        // Every filter lands here (a playing time bar: dozens a second); most leave it as it was.
        let now = controller.presentation.legend
        guard now != legend.legend else { return }
        legend.update(now, eventLog: controller.eventLog)
    }

    /// The shown data changed: a new session, or (`names` given) a live change of it.
    func dataDidChange(names: MapDataSession.NameChanges?) {
        let session = controller.session
        if let session {
            if case .replay = controller.live.source {
                datasetMenu.setTitle(DatasetMenu.replayTitle)
                datasetMenu.setCurrent(LaunchOptions.liveEarthquakes)
            } else if session.sources.count == 1, let ds = session.sources[0].dataset {
                datasetMenu.setTitle(ds.title)
                datasetMenu.setCurrent(ds.id)
            } else {
                datasetMenu.setTitle(AppChrome.title(forFiles: session.sources.map(\.points.sourceName)))
                datasetMenu.setCurrent(nil)
            }
        } else {
            // Nothing could be loaded (the launch file was broken): don't name it as shown.
            datasetMenu.setTitle("No data")
            datasetMenu.setCurrent(nil)
        }
        search.dataDidChange(session, names: names)
        legend.update(controller.presentation.legend, eventLog: controller.eventLog)
        if fitThisLoad {
            fitThisLoad = false
            runOnGtkThread { [weak self] in self?.controller.showAllData(animated: true) }
        }
    }
}
