import CGtk
import Foundation
import GeoData

/// About ClusterMap: version, MIT licence and the data credits the licences ask for.
enum AboutDialog {
    static let version = "0.1.0"
    static let appID = "org.clustermap.ClusterMap"

    /// Credits for the bundled data (see data/README.md and data/licenses/).
    static let dataCredits = [
        "Natural Earth — base map (public domain)",
        "GeoNames — world cities, London (CC BY 4.0)",
        "USGS — earthquakes 1965–2016 (public domain)",
        "airportsdata — airports (MIT)",
    ]

    static func present(over window: UnsafeMutablePointer<GtkWidget>, dataDirectory: String?) {
        ensureIcon(dataDirectory: dataDirectory)
        let about = gtk_about_dialog_new()!
        let a = opaque(about)
        gtk_about_dialog_set_program_name(a, "ClusterMap")
        gtk_about_dialog_set_version(a, version)
        gtk_about_dialog_set_comments(a, "Look at point data — millions of places — clustered over an offline world map.")
        gtk_about_dialog_set_logo_icon_name(a, appID)
        gtk_about_dialog_set_license_type(a, GTK_LICENSE_MIT_X11)
        gtk_about_dialog_set_copyright(a, "© 2026 The ClusterMap authors")
        withCStringArray(["The ClusterMap authors"]) { gtk_about_dialog_set_authors(a, $0) }
        withCStringArray(dataCredits) { gtk_about_dialog_add_credit_section(a, "Data", $0) }
        gtk_window_set_transient_for(gcast(about), gcast(window))
        gtk_window_set_modal(gcast(about), 1)
        gtk_window_present(gcast(about))
    }

    /// When the app runs from the build folder, its icon isn't installed: look in Resources/.
    private static func ensureIcon(dataDirectory: String?) {
        guard let display = gdk_display_get_default(), let theme = gtk_icon_theme_get_for_display(display) else { return }
        if gtk_icon_theme_has_icon(theme, appID) != 0 { return }
        guard let data = dataDirectory else { return }
        let resources = ((data as NSString).deletingLastPathComponent as NSString).appendingPathComponent("Resources")
        if FileManager.default.fileExists(atPath: resources + "/\(appID).svg") {
            gtk_icon_theme_add_search_path(theme, resources)
        }
    }
}
