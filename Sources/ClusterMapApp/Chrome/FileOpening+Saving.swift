import CGtk
import Foundation
import GeoData

/// Saving the loaded places (SPEC §4.1, issue 30 item 7): "Save Places As…" (Ctrl+Shift+S) asks
/// for a file and writes every place shown as GeoJSON, CSV or GeoPackage by its extension, off the
/// GTK thread; the banner says how many were saved, or why not.
extension FileOpening {
    /// Adds the `win.save-places` action and its Ctrl+Shift+S accelerator.
    func installSaveAction(window: UnsafeMutablePointer<GtkWidget>) {
        let action = g_simple_action_new("save-places", nil)!
        let activate: @MainActor @convention(c) (OpaquePointer?, OpaquePointer?, gpointer?) -> Void = { _, _, data in
            UserData.object(data, as: FileOpening.self)?.showSaveChooser()
        }
        connectSignal(action, "activate", unsafeBitCast(activate, to: GCallback.self), owner: self)
        g_action_map_add_action(OpaquePointer(window), action)
        if let app = gtk_window_get_application(gcast(window)) {
            var accels: [UnsafePointer<CChar>?] = [UnsafePointer(strdup("<Control><Shift>s")), nil]
            gtk_application_set_accels_for_action(app, "win.save-places", &accels)
            free(UnsafeMutableRawPointer(mutating: accels[0]))
        }
    }

    /// Shows the save chooser for the places shown.
    func showSaveChooser() {
        guard let chrome else { return }
        guard let session = chrome.controller.session, session.pointCount > 0 else {
            chrome.show(message: "There are no places to save.", isError: false)
            return
        }
        guard let native = gtk_file_chooser_native_new("Save Places", gcast(window), GTK_FILE_CHOOSER_ACTION_SAVE,
                                                        "_Save", "_Cancel") else { return }
        gtk_file_chooser_set_current_name(native, "places.geojson")
        for (name, suffix) in [("GeoJSON", "geojson"), ("CSV", "csv"), ("GeoPackage", "gpkg")] {
            let f = gtk_file_filter_new()!
            gtk_file_filter_set_name(f, name)
            gtk_file_filter_add_suffix(f, suffix)
            gtk_file_chooser_add_filter(native, f)
        }
        gtk_native_dialog_set_modal(UnsafeMutablePointer(native), 1)
        let response: @MainActor @convention(c) (OpaquePointer?, Int32, gpointer?) -> Void = { dialog, response, data in
            guard let dialog else { return }
            var path: String?
            if response == GTK_RESPONSE_ACCEPT.rawValue, let file = gtk_file_chooser_get_file(dialog) {
                if let p = g_file_get_path(file) { path = String(cString: p); g_free(p) }
                g_object_unref(UnsafeMutableRawPointer(file))
            }
            gtk_native_dialog_destroy(UnsafeMutablePointer(dialog))
            g_object_unref(UnsafeMutableRawPointer(dialog))
            if let path { UserData.object(data, as: FileOpening.self)?.save(to: path) }
        }
        connectSignal(native, "response", unsafeBitCast(response, to: GCallback.self), owner: self)
        gtk_native_dialog_show(UnsafeMutablePointer(native))
    }

    /// Writes the places shown to `path` on a background thread.
    func save(to path: String) {
        guard let chrome, let session = chrome.controller.session else { return }
        let sets = session.sources.map(\.points)
        let name = PointSetLoader.displayName(of: path)
        chrome.controller.eventLog.emit("save", [("file", .string(name))])
        // While a filter shows, only the places that pass are saved (issue 29).
        let passing = session.passingPlacesBySource()
        Thread.detachNewThread {
            let result: Result<Int, Error> = Result {
                try PlacesExport.write(sets, to: path, includes: passing.map { p in { set, i in p[set][i] } })
            }
            runOnGtkThread { [weak chrome] in
                guard let chrome else { return }
                switch result {
                case .success(let n):
                    chrome.controller.eventLog.emit("saved", [("file", .string(name)), ("places", .int(n))])
                    chrome.show(message: "Saved \(formatCount(n)) places to \(name).", isError: false)
                case .failure(let e):
                    chrome.controller.showError("\(e)")
                }
            }
        }
    }
}
