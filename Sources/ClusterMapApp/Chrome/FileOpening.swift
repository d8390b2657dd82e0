import AppSupport
import CGtk
import Foundation
import GeoData

/// Opening files (SPEC §4): the Open button's file chooser and dropping files on the map.
/// GTK 4.8 has no GtkFileDialog, so the chooser is a GtkFileChooserNative (the portal's dialog
/// when there is one). Several files open together, each in its own colour.
final class FileOpening {
    let window: UnsafeMutablePointer<GtkWidget>
    private var chooser: OpaquePointer?
    /// Where the last chooser was (the next one starts there).
    private var lastFolder: String?
    /// The chrome whose map the files load into (given once both exist; see `connect(to:)`).
    private(set) weak var chrome: AppChrome?
    /// Where `drop-hover` is logged (a drag with files is over the map).
    private let eventLog: EventLog?

    init(window: UnsafeMutablePointer<GtkWidget>, dropOn target: UnsafeMutablePointer<GtkWidget>, eventLog: EventLog? = nil) {
        self.window = window
        self.eventLog = eventLog
        installDropTarget(on: target)
        installSaveAction(window: window)
    }

    /// The chrome whose controller loads what is opened (made after this, which it is given).
    func connect(to chrome: AppChrome) { self.chrome = chrome }

    // MARK: File chooser

    /// GeoJSON and GeoJSON text sequences (what `PointSetLoader` reads as GeoJSON).
    static let geoJSONSuffixes = ["geojson", "json", "geojsons", "geojsonl", "geojsonseq", "ndjson", "jsonl"]

    /// Shows the file chooser (the `win.open` action, Ctrl+O).
    func showChooser() {
        if chooser != nil { return }
        guard let native = gtk_file_chooser_native_new("Open Data Files", gcast(window), GTK_FILE_CHOOSER_ACTION_OPEN,
                                                        "_Open", "_Cancel") else { return }
        chooser = native
        let fc = native  // GtkFileChooser interface of the same object
        gtk_file_chooser_set_select_multiple(fc, 1)
        for (name, suffixes) in FileOpening.dataFilters {
            gtk_file_chooser_add_filter(fc, FileOpening.filter(name, suffixes: suffixes))
        }
        gtk_file_chooser_add_filter(fc, FileOpening.filter("Tiles: street map or clustered points (MBTiles, PMTiles)",
                                                            suffixes: FileOpening.tileSuffixes))
        if let folder = lastFolder {
            if let f = g_file_new_for_path(folder) {
                gtk_file_chooser_set_current_folder(fc, f, nil)
                unref(f)
            }
        }
        gtk_native_dialog_set_modal(UnsafeMutablePointer(native), 1)
        let response: @MainActor @convention(c) (OpaquePointer?, Int32, gpointer?) -> Void = { dialog, response, data in
            UserData.object(data, as: FileOpening.self)?.chooserDidRespond(dialog!, response)
        }
        connectSignal(native, "response", unsafeBitCast(response, to: GCallback.self), owner: self)
        gtk_native_dialog_show(UnsafeMutablePointer(native))
    }

    /// The chooser's data filters, the first (all map data) selected: our own formats, then the
    /// common ones GDAL reads (issue 30), each also on its own.
    static let dataFilters: [(String, [String])] = [
        // Clustered tile files are data too (issue 31.7): shown here beside the rest.
        ("Map data (GeoJSON, CSV, GeoPackage, Shapefile, KML, GPX, clustered tiles…)",
         geoJSONSuffixes + ["csv", "tsv"] + GDALFormats.suffixes + FileOpeningPlan.tileSuffixes),
        ("GeoJSON", geoJSONSuffixes),
        ("CSV", ["csv", "tsv"]),
        ("GeoPackage", ["gpkg"]),
        ("Shapefile (also zipped)", ["shp", "zip", "shz"]),
        ("KML, KMZ", ["kml", "kmz"]),
        ("GPX", ["gpx"]),
        ("FlatGeobuf", ["fgb"]),
        ("GML", ["gml", "xml"]),
        ("MapInfo", ["tab", "mif"]),
        ("SpatiaLite, SQLite", ["sqlite", "spatialite", "db"]),
        ("File Geodatabase (.gdb folder: choose a file inside it)", ["gdbtable", "gdb"]),
    ]

    /// Tile files: the street map, or clustered points shown as data.
    static let tileSuffixes = FileOpeningPlan.tileSuffixes

    private static func filter(_ name: String, suffixes: [String]) -> OpaquePointer {
        let f = gtk_file_filter_new()!
        gtk_file_filter_set_name(f, name)
        for s in suffixes {
            gtk_file_filter_add_suffix(f, s)
        }
        return f
    }

    private func chooserDidRespond(_ dialog: OpaquePointer, _ response: Int32) {
        var paths: [String] = []
        if response == GTK_RESPONSE_ACCEPT.rawValue, let files = gtk_file_chooser_get_files(dialog) {
            let n = g_list_model_get_n_items(files)
            for i in 0..<n {
                guard let item = g_list_model_get_item(files, i) else { continue }
                if let p = FileOpening.path(of: OpaquePointer(item)) { paths.append(p) }
                g_object_unref(item)
            }
            unref(files)
        }
        gtk_native_dialog_destroy(UnsafeMutablePointer(dialog))
        unref(dialog)
        chooser = nil
        // The keys go back to the map (without a window manager nobody else gives them back, and
        // the next Ctrl+O went nowhere).
        gtk_window_present(gcast(window))
        if response == GTK_RESPONSE_ACCEPT.rawValue {
            if let first = paths.first { lastFolder = (first as NSString).deletingLastPathComponent }
            open(paths, from: "chooser")
        }
    }

    /// A GFile's local path (nil for remote locations).
    private static func path(of file: OpaquePointer) -> String? {
        guard let p = g_file_get_path(file) else { return nil }
        defer { g_free(p) }
        return String(cString: p)
    }

    // MARK: Drag and drop

    private func installDropTarget(on widget: UnsafeMutablePointer<GtkWidget>) {
        let target = gtk_drop_target_new(gdk_file_list_get_type(), GDK_ACTION_COPY)!
        let drop: @MainActor @convention(c) (OpaquePointer?, UnsafePointer<GValue>?, Double, Double, gpointer?) -> gboolean = { _, value, _, _, data in
            guard let value, let list = g_value_get_boxed(value), let opening = UserData.object(data, as: FileOpening.self) else { return 0 }
            var paths: [String] = []
            var node = gdk_file_list_get_files(OpaquePointer(list))
            let head = node
            while let n = node {
                if let data = n.pointee.data, let p = FileOpening.path(of: OpaquePointer(data)) { paths.append(p) }
                node = n.pointee.next
            }
            g_slist_free(head)
            guard !paths.isEmpty else { return 0 }
            // Open from the main loop, after the drop finished.
            runOnGtkThread { [weak opening] in opening?.open(paths, from: "drop") }
            return 1
        }
        connectSignal(target, "drop", unsafeBitCast(drop, to: GCallback.self), owner: self)
        // `drop-hover` as a drag enters and moves over the map: the app has answered the drag
        // source there, so a test can release now instead of after a guessed pause.
        let hover: @convention(c) (OpaquePointer?, Double, Double, gpointer?) -> GdkDragAction = { _, x, y, data in
            UserData.object(data, as: FileOpening.self)?.eventLog?.emit("drop-hover", [("x", .number(x.rounded())), ("y", .number(y.rounded()))])
            return GDK_ACTION_COPY
        }
        _ = connectSignal(target, "enter", unsafeBitCast(hover, to: GCallback.self), owner: self)
        _ = connectSignal(target, "motion", unsafeBitCast(hover, to: GCallback.self), owner: self)
        addController(target, to: widget)
    }

    // MARK: Opening

    /// The `.gdb` folder a path is inside, or the path itself.
    static func geodatabaseFolder(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.lowercased().hasSuffix(".gdb") ? parent : path
    }

    /// Loads files; what is shown stays until they have loaded (a failed load keeps it).
    func open(_ paths: [String], from origin: String) {
        guard let chrome else { return }
        guard !paths.isEmpty else {
            chrome.show(message: "Only files on this computer can be opened.", isError: true)
            return
        }
        // A file chosen inside a File Geodatabase folder opens the folder (GDAL reads the folder).
        let chosen = paths.map(FileOpening.geodatabaseFolder(of:))
        // A tile file of clustered points opens as data (the command line's test), any other
        // tile file becomes the map; data files load as data (`FileOpeningPlan`).
        let plan = FileOpeningPlan(paths: chosen, isClustered: ClusterTileLink.isClusterTileFile)
        if let tiles = plan.baseMap { chrome.controller.switchBaseMap(to: tiles) }
        if let tiles = plan.clusterTiles {
            chrome.controller.eventLog.emit("open", [("files", .array([.string(tiles)])), ("from", .string(origin)),
                                                     ("as", .string("cluster-tiles"))])
            chrome.controller.openClusterTiles(tiles, fit: true)
        }
        if let message = plan.message { chrome.show(message: message, isError: false) }
        let paths = plan.data
        guard !paths.isEmpty else { return }
        chrome.controller.eventLog.emit("open", [("files", .array(paths.map { .string($0) })), ("from", .string(origin))])
        chrome.willLoad(title: paths.count == 1 ? (paths[0] as NSString).lastPathComponent : "\(paths.count) files", dataset: nil)
        chrome.controller.load(files: paths, datasets: [])
    }
}
