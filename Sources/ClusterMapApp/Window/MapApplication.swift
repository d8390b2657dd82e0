import CGtk
import Foundation
import AppSupport
import GeoData

/// The GtkApplication: registers the command-line options (so GApplication accepts them and
/// `--help` lists them) and opens one `MapWindow` on activate/open.
enum MapApplication {
    /// The options parsed before GTK started (validated in Swift; see `LaunchOptions`).
    private static var options = LaunchOptions()
    private static var window: MapWindow?
    /// The event log, opened before anything else happens.
    private static var eventLog = EventLog(path: nil)
    /// The launch data load, started before GTK so the first frame can already show data.
    private static var initialLoad: CancelFlag?
    /// Where the launch load's results go: held until the window's controller exists.
    private static let launchReceiver = LoadReceiver()

    /// Runs the GTK main loop and returns the process exit status.
    static func run(options: LaunchOptions, argv: [String]) -> Int32 {
        self.options = options
        eventLog = EventLog(path: options.eventLogPath)
        let initial = MapViewController.initialSources(options, dataDirectory: DataDirectory.locate())
        if !initial.files.isEmpty && !MapViewController.launchIsLive(options) {
            initialLoad = MapViewController.startLoad(files: initial.files, datasets: initial.datasets,
                                                      generation: 1, log: eventLog, options: options, to: launchReceiver)
        }
        // Before GTK starts: without a GPU, the cairo renderer (see GtkRendererChoice).
        if let renderer = GtkRendererChoice.apply() { eventLog.emit("renderer", [("gsk", .string(renderer))]) }
        // No session bus started just for this window (see SessionBusChoice).
        SessionBusChoice.apply()
        // NON_UNIQUE lets tests run instances side by side; HANDLES_OPEN delivers FILE arguments.
        let flags = GApplicationFlags(rawValue: G_APPLICATION_NON_UNIQUE.rawValue | G_APPLICATION_HANDLES_OPEN.rawValue)
        let app = gtk_application_new("org.clustermap.ClusterMap", flags)!
        let gapp = gcast(app, to: GApplication.self)
        for o in LaunchOptions.valueOptions {
            g_application_add_main_option(gapp, o.name, 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_STRING, o.help, o.value)
        }
        for f in LaunchOptions.flagOptions {
            g_application_add_main_option(gapp, f.name, 0, G_OPTION_FLAG_NONE, G_OPTION_ARG_NONE, f.help, nil)
        }
        let activate: @MainActor @convention(c) (UnsafeMutablePointer<GApplication>?, gpointer?) -> Void = { app, _ in
            MapApplication.present(app!)
        }
        let open: @MainActor @convention(c) (UnsafeMutablePointer<GApplication>?, gpointer?, Int32, UnsafePointer<CChar>?, gpointer?) -> Void = { app, _, _, _, _ in
            // Files were already collected by LaunchOptions (same argv); just open the window.
            MapApplication.present(app!)
        }
        connectSignal(gapp, "activate", unsafeBitCast(activate, to: GCallback.self))
        connectSignal(gapp, "open", unsafeBitCast(open, to: GCallback.self))

        // GApplication parses the same argv; LaunchOptions already accepted it, so it cannot fail.
        var cargs = argv.map { strdup($0) }
        let status = cargs.withUnsafeMutableBufferPointer { buf in
            g_application_run(gapp, Int32(buf.count), buf.baseAddress)
        }
        for p in cargs { free(p) }
        g_object_unref(app)
        return status
    }

    /// The window is being destroyed (Ctrl+Q, the close button): stop loading and forget the
    /// window, so results still on their way find nothing to touch (issue 15 item 3: a load
    /// delivered to destroyed widgets printed hundreds of Gtk-CRITICALs).
    static func forgetDestroyedWindow() {
        isClosed = true
        initialLoad?.cancel()
        launchReceiver.close()
        window?.controller.stopLoadingForClose()
        // The online tiles' cache index now, while the controller surely exists (at the end of
        // the run the window is gone; a loading thread may still hold the controller then).
        window?.controller.saveTileCache()
        window?.controller.renderer.baseMap.tileWorker?.stop()
        window = nil
    }

    /// Set once the window is gone; background results are dropped from then on.
    private(set) static var isClosed = false

    private static func present(_ app: UnsafeMutablePointer<GApplication>) {
        if let w = window { gtk_window_present(gcast(w.window)); return }
        guard !isClosed else { return }
        window = MapWindow(application: gcast(app), options: options, eventLog: eventLog, launchLoad: initialLoad)
        launchReceiver.attach(window!.controller)
        let destroyed: @MainActor @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, _ in
            MapApplication.forgetDestroyedWindow()
        }
        connectSignal(window!.window, "destroy", unsafeBitCast(destroyed, to: GCallback.self))
    }
}
