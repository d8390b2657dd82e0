import CGtk
import Foundation
import AppSupport
import ClusterCore
import MapModel

/// Remembers the window size, maximized state, the last camera and the menu toggles between runs
/// (SPEC §6) in `$XDG_CONFIG_HOME/clustermap/state` (format and rules: `SavedState`). The command
/// line wins over what was saved; a state file that can't be read is ignored.
enum WindowState {
    static var path: String { SavedStateFile.path() }

    /// Applies the saved state before the window is first shown.
    static func restore(window: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) -> SavedState {
        let saved = SavedStateFile.load(from: path) ?? SavedState()
        let start = saved.startup(for: controller.options)
        gtk_window_set_default_size(gcast(window), Int32(start.width), Int32(start.height))
        if start.maximized { gtk_window_maximize(gcast(window)) }
        if let center = start.center, let zoom = start.zoom {
            let size = ScreenSize(width: Double(start.width), height: Double(start.height))
            let c = controller.camera
            controller.apply(.set(Camera(center: center, zoom: zoom, viewportSize: size, minZoom: c.minZoom, maxZoom: c.maxZoom)))
        }
        controller.restoreToggles(dark: saved.darkStyle, reducedMotion: saved.reduceMotion)
        controller.applyPreferences()
        controller.remember(mapTilerKey: saved.mapTilerKey)
        controller.remember(savedFilters: saved.filters)
        // The remembered map, unless the command line chose one.
        if controller.options.basemap == nil, let basemap = saved.basemap { controller.switchBaseMap(to: basemap) }

        let close: @MainActor @convention(c) (UnsafeMutablePointer<GtkWindow>?, gpointer?) -> gboolean = { window, data in
            guard let window, let c = UserData.controller(data) else { return 0 }
            WindowState.save(window: asWidget(window), controller: c)
            return 0 // let it close
        }
        connectSignal(window, "close-request", unsafeBitCast(close, to: GCallback.self), owner: controller)
        return saved
    }

    /// Writes the state (the window's "close-request").
    static func save(window: UnsafeMutablePointer<GtkWidget>, controller: MapViewController) {
        var w: Int32 = 0, h: Int32 = 0
        // The default size follows the person's resizing and excludes maximizing (GTK 4).
        gtk_window_get_default_size(gcast(window), &w, &h)
        if w <= 0 || h <= 0 { w = Int32(gtk_widget_get_width(window)); h = Int32(gtk_widget_get_height(window)) }
        let cam = controller.cameraController.animation?.target ?? controller.camera
        let range = SavedState.sizeRange
        var state = SavedState(width: range.contains(Int(w)) ? Int(w) : nil, height: range.contains(Int(h)) ? Int(h) : nil,
                               maximized: gtk_window_is_maximized(gcast(window)) != 0,
                               latitude: cam.center.latitude, longitude: cam.center.longitude, zoom: cam.zoom,
                               darkStyle: controller.userDarkStyle, reduceMotion: controller.userReducedMotion)
        state.basemap = controller.tileLayer?.path
        state.mapTilerKey = controller.mapTilerKey
        controller.filterMemory.rememberForShown(timeBar: controller.savedTimeBar)
        state.filters = controller.filterMemory.saved
        do {
            try SavedStateFile.save(state, to: path)
            controller.eventLog.emit("state-saved", [("path", .string(path))])
        } catch {
            // SaveError already says what could not be saved where, in one line.
            ErrorOutput.write("clustermap", "\(error)")
        }
    }
}
